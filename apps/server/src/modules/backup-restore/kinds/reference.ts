import { z } from 'zod';
import type { BackupKindDescriptor } from './kind.js';

/**
 * References: the enterprise agents the tests run on, by name. Kept to name what the items use (agents are
 * installed, not restored): the test kind's read emits them.
 */
export const reference: BackupKindDescriptor<'reference'> = {
  kind: 'reference',
  folder: 'references',
  serverFields: ['agentId'],
  configShape: z.looseObject({}),
  read: null,
  restore: null,
};
