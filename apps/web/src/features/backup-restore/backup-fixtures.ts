import type { Backup } from '@ce/contract';

/** A finished backup of Acme - Staging for the feature's tests, with what a test is about given in `changes`. */
export function aBackup(changes: Partial<Backup> = {}): Backup {
  return {
    id: 'b1',
    status: 'done',
    ahead: null,
    origin: 'live',
    organizationId: 'o1',
    organizationName: 'Acme Corporation',
    aid: '1',
    accountGroupName: 'Acme - Staging',
    requestedBy: 'tam@demo.local',
    counts: {},
    items: 12,
    size: 34 * 1024,
    checksum: 'abc',
    error: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    finishedAt: '2026-01-05T10:01:00.000Z',
    ...changes,
  };
}
