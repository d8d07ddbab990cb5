import { PlatformError } from '../errors.js';
import { SNAPSHOT_RANGE_HOURS, snapshotSchema, type SnapshotRequest } from '../review-schemas.js';
import type { Caller } from './caller.js';

const HOUR_MS = 3_600_000;

/** Refuses, before any call, what the document says the platform refuses: a range of other hours, an end to come. */
function checkRange(request: SnapshotRequest, now: number): void {
  const start = Date.parse(request.startDate);
  const end = Date.parse(request.endDate);
  if (Number.isNaN(start) || Number.isNaN(end))
    throw new PlatformError(400, 'A snapshot needs a start and an end date (ISO-8601 UTC).');
  if (!(SNAPSHOT_RANGE_HOURS as readonly number[]).includes((end - start) / HOUR_MS))
    throw new PlatformError(400, `A snapshot covers ${SNAPSHOT_RANGE_HOURS.join(', ')} hours; not another range.`);
  if (end > now) throw new PlatformError(400, 'A snapshot ends now or in the past.');
}

export const snapshots = (caller: Caller) => ({
  /**
   * A snapshot of a test's results over a range: a link the customer can open without an account, for 30 days.
   * The platform allows 5 per organization in 5 minutes: a 6th is refused at once (429) in words, not waited out
   * against the organization's budget for every other call. Needs the "Create snapshot shares" permission (403).
   */
  create: async (testId: string, request: SnapshotRequest, aid?: string, signal?: AbortSignal) => {
    checkRange(request, Date.now());
    return caller.request(snapshotSchema, `tests/${encodeURIComponent(testId)}/snapshot`, 'snapshot', {
      method: 'POST',
      body: { ...request, isPublic: request.isPublic ?? false },
      aid,
      signal,
      idempotent: false,
      operationLimit: 'The platform allows 5 test snapshots per organization in 5 minutes',
    });
  },
});
