import type { Watch } from '@ce/contract';

/** A watch as the server answers it, for the watch components' tests: Acme's, over two groups, weekly. */
export function aWatch(overrides: Partial<Watch> = {}): Watch {
  return {
    id: 'w-1',
    accountGroups: [
      { aid: '1', accountGroupName: 'Production' },
      { aid: '2', accountGroupName: 'Staging' },
    ],
    runs: 'both',
    channel: { kind: 'owner' },
    speakWhen: { anyChange: true, drift: true, scoreDrop: null, newFindingsAtLeast: null, weeklyQuietLine: false },
    schedule: { cadence: 'weekly', weekday: 1, time: '07:00', timeZone: 'UTC' },
    owner: { email: 'tam@demo.local', name: 'Taylor TAM' },
    organizationId: '9000',
    organizationName: 'Acme Corporation',
    status: 'active',
    pausedReason: null,
    token: {
      last4: 'b755',
      storedAt: '2026-11-20T07:00:00Z',
      storedBy: { email: 'tam@demo.local', name: 'Taylor TAM' },
      contactName: 'Dana Admin',
      contactEmail: 'dana@acme.example',
      expiresAt: '2027-02-20T07:00:00Z',
    },
    nextRunAt: '2026-11-30T07:00:00Z',
    lastRunAt: null,
    createdAt: '2026-11-20T07:00:00Z',
    updatedAt: '2026-11-20T07:00:00.000Z',
    monthlyReviewPack: false,
    ...overrides,
  };
}
