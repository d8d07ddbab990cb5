import { expect } from 'vitest';
import type { PlatformSession } from '../src/index.js';

/** The document's operations a customer review reads besides the measured ones: outages and snapshots. */
export const REVIEW_OPERATIONS = [
  'POST /internet-insights/outages/filter',
  'GET /internet-insights/outages/net/{outageId}',
  'POST /tests/{testId}/snapshot',
];

const HOUR_MS = 3_600_000;

/**
 * The provider outage of the measured cases' account group through the filter (a window, dates, each scope), its
 * details, and a snapshot of the test it touched over the hours it lasted; the refusals too (a bad range, 404).
 */
export async function exerciseReview(admin: PlatformSession): Promise<void> {
  const group = (await admin.accountGroups.list()).find(
    (candidate) => candidate.accountGroupName === 'Acme - EMEA Branches',
  );
  const aid = group?.aid ?? '';
  const touched = await admin.outages.filter({ aid, range: { window: '7d' }, scope: 'with-affected-test' });
  expect(touched.map((outage) => outage.affectedTestsCount)).toEqual([1]);
  const outage = touched[0];
  const all = await admin.outages.filter({
    aid,
    range: { startDate: outage?.startDate ?? '', endDate: outage?.endDate ?? '' },
    scope: 'all',
    providerName: [outage?.providerName ?? ''],
  });
  expect(all.map((each) => each.id)).toContain(outage?.id);
  const detail = await admin.outages.network(outage?.id ?? '', aid);
  expect(detail.affectedTests.map((test) => test.name)).toEqual(['Warehouse network']);
  await expect(admin.outages.network('0000', aid)).rejects.toMatchObject({ status: 404 });

  const start = Date.parse(outage?.startDate ?? '');
  const snapshot = await admin.snapshots.create(
    detail.affectedTests[0]?.id ?? '',
    {
      displayName: 'Warehouse network during the provider outage',
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 2 * HOUR_MS).toISOString(),
    },
    aid,
  );
  expect(snapshot._links?.appLink?.href).toContain(`/snapshots/${snapshot.id}`);
  // Five in five minutes, per the document's notes: the sixth is refused (429, its problem body) and told at once.
  const hour = { startDate: new Date(start).toISOString(), endDate: new Date(start + HOUR_MS).toISOString() };
  for (let made = 1; made < 5; made += 1)
    await admin.snapshots.create(detail.affectedTests[0]?.id ?? '', { displayName: `Hour ${made}`, ...hour }, aid);
  await expect(
    admin.snapshots.create(detail.affectedTests[0]?.id ?? '', { displayName: 'One too many', ...hour }, aid),
  ).rejects.toMatchObject({ status: 429 });
  await expect(
    admin.snapshots.create(
      '999999999',
      {
        displayName: 'No such test',
        startDate: new Date(start).toISOString(),
        endDate: new Date(start + HOUR_MS).toISOString(),
      },
      aid,
    ),
  ).rejects.toMatchObject({ status: 404 });
}
