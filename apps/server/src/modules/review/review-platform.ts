import { REVIEW_MESSAGES, REVIEW_SNAPSHOTS_MAX } from '@ce/contract';
import { PlatformError, SNAPSHOT_RANGE_HOURS, type PlatformEvent, type PlatformSession } from '@ce/platform-client';
import { mapPool } from '../../core/map-pool.js';
import { READ_CONCURRENCY, collect, readable } from '../../report-kit/platform-reads.js';
import type { Known, ReviewPack, Unknown } from './review-pack.js';

/**
 * What a pack reads from the platform because no watch stored it: the Internet Insights outages that touched the
 * customer's tests, the events on them, and at most `REVIEW_SNAPSHOTS_MAX` snapshots as evidence links. Each list is
 * read once per account group, on the session's lane (a report's: the background one, paced at the budget).
 */

type Outages = Exclude<ReviewPack['outages']['content'], Unknown>;
type Outage = Outages['outages'][number];

const HOUR_MS = 3_600_000;
const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What the pack says of these reads, before it makes them (the preview's `platformLater`). */
export const PLATFORM_READS = [
  'Internet Insights outages that touched your tests, with the tests each touched',
  "The platform's events on your tests",
  `Evidence links (test snapshots), at most ${REVIEW_SNAPSHOTS_MAX}`,
] as const;

/** A snapshot's range around an outage: the shortest the platform allows that covers it, ending by `now`. */
export function snapshotRange(start: number, end: number, now: number): { startDate: string; endDate: string } {
  const hours =
    SNAPSHOT_RANGE_HOURS.find((range) => range * HOUR_MS >= end - start) ?? SNAPSHOT_RANGE_HOURS.at(-1) ?? 1;
  const until = Math.min(start + hours * HOUR_MS, Math.floor(now / 1000) * 1000);
  return { startDate: iso(until - hours * HOUR_MS), endDate: iso(until) };
}

interface Found {
  outage: Outage;
  aid: string;
  testId?: string;
}

export async function readOutages(
  session: PlatformSession,
  groups: { aid: string }[],
  range: { from: number; until: number },
  now: number,
  signal?: AbortSignal,
): Promise<Known<Outages>> {
  const window = { startDate: iso(range.from), endDate: iso(range.until) };
  const found: Found[] = [];
  const events: Outages['events'] = [];
  const seen = new Set<string>();
  for (const { aid } of groups) {
    const listed = await readable('Internet Insights outages', 'View Internet Insights', () =>
      session.outages.filter({ aid, range: window, scope: 'with-affected-test', signal }),
    );
    if (!listed.ok) return { unknown: listed.reason };
    const details = await mapPool(
      listed.value.filter((outage) => !seen.has(outage.id) && outage.type !== 'app'),
      READ_CONCURRENCY,
      async (outage) => ({ outage, detail: await session.outages.network(outage.id, aid, signal) }),
    );
    for (const { outage, detail } of details) {
      seen.add(outage.id);
      const start = detail.startDate ?? outage.startDate;
      if (!start) continue;
      const end = detail.endDate ?? outage.endDate;
      found.push({
        aid,
        testId: detail.affectedTests[0]?.id,
        outage: {
          start,
          ...(end ? { end } : {}),
          provider: detail.providerName ?? outage.providerName ?? detail.networkName ?? 'Unknown provider',
          tests: detail.affectedTests.map((test) => test.name ?? test.id).sort(),
        },
      });
    }
    const listedEvents = await readable('events', 'View tests', () =>
      collect(session.events.list({ aid, range: window, signal })),
    );
    if (!listedEvents.ok) return { unknown: listedEvents.reason };
    const touching = listedEvents.value.filter((event: PlatformEvent) => (event.affectedTests?.total ?? 1) > 0);
    const withTests = await mapPool(touching, READ_CONCURRENCY, (event) => session.events.get(event.id, aid, signal));
    for (const event of withTests) {
      const tests = (event.affectedTests?.tests ?? []).map((test) => test.name ?? test.id ?? '').filter(Boolean);
      if (!event.startDate || tests.length === 0) continue;
      events.push({
        start: event.startDate,
        ...(event.endDate ? { end: event.endDate } : {}),
        type: event.typeName ?? event.type ?? 'Event',
        severity: event.severity ?? 'unknown',
        tests: tests.sort(),
      });
    }
  }
  found.sort((a, b) => a.outage.start.localeCompare(b.outage.start));
  events.sort((a, b) => a.start.localeCompare(b.start));
  const notes = await evidence(session, found, now, signal);
  return { outages: found.map((entry) => entry.outage), events, notes };
}

/** Makes the evidence links, the first outages first, at most `REVIEW_SNAPSHOTS_MAX`; says what it left out. */
async function evidence(session: PlatformSession, found: Found[], now: number, signal?: AbortSignal) {
  const linkable = found.filter((entry) => entry.testId);
  const notes: string[] = [];
  let made = 0;
  for (const entry of linkable) {
    if (made === REVIEW_SNAPSHOTS_MAX) break;
    const start = Date.parse(entry.outage.start);
    const end = entry.outage.end ? Date.parse(entry.outage.end) : now;
    try {
      const snapshot = await session.snapshots.create(
        entry.testId ?? '',
        { displayName: `${entry.outage.provider} outage, ${entry.outage.start}`, ...snapshotRange(start, end, now) },
        entry.aid,
        signal,
      );
      made += 1;
      const link = snapshot._links?.appLink?.href;
      if (link) entry.outage.evidenceUrl = link;
    } catch (error) {
      if (!(error instanceof PlatformError) || (error.status !== 403 && error.status !== 429)) throw error;
      // The platform's own limit: said as the document says it, without the retry a pack being read cannot take.
      notes.push(
        error.status === 403
          ? `Evidence links could not be made: the platform answered 403 Forbidden (permission needed: Create snapshot shares).`
          : made === 0
            ? REVIEW_MESSAGES.noEvidenceLink(REVIEW_SNAPSHOTS_MAX)
            : REVIEW_MESSAGES.evidenceStopped(made, REVIEW_SNAPSHOTS_MAX),
      );
      return notes;
    }
  }
  const left = linkable.length - made;
  if (left > 0)
    notes.push(
      `Evidence links for ${left} more outage(s) were left out: the platform allows ${REVIEW_SNAPSHOTS_MAX} test snapshots per organization in 5 minutes.`,
    );
  return notes;
}
