import type { z } from 'zod';
import type { createWatchSchema } from '@ce/contract';
import type { SandboxCustomer } from '../build-test-app.js';

/** A watch's request as a caller sends it (the schema fills what it defaults). */
type CreateWatchBody = z.input<typeof createWatchSchema>;

/**
 * A new watch's request over the sandbox customer's first account group, with the customer's consent: a daily health
 * check and backup at 07:30 UTC, the message to the owner, told of any change. `changes` says what a test differs in.
 */
export function watchRequest(
  customer: Pick<SandboxCustomer, 'token' | 'organization' | 'groups'>,
  changes: Partial<CreateWatchBody> = {},
): CreateWatchBody {
  return {
    token: customer.token,
    organization: customer.organization,
    consent: { contactName: 'Dana Admin', contactEmail: 'dana@acme.example', days: 30 },
    accountGroups: customer.groups.slice(0, 1),
    runs: 'both',
    schedule: { cadence: 'daily', time: '07:30', timeZone: 'UTC' },
    channel: { kind: 'owner' },
    speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
    ...changes,
  };
}
