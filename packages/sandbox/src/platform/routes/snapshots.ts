import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { escapeHtml, page } from '../../html.js';
import type { PlatformState } from '../state.js';
import type { World } from '../world.js';
import type { RouteContext } from './context.js';
import { problem } from './http.js';

/** The document's notes: 5 snapshots per organization in 5 minutes, each expiring 30 days after it was made. */
export const SNAPSHOTS_PER_WINDOW = 5;
export const SNAPSHOT_WINDOW_MS = 5 * 60_000;
export const SNAPSHOT_EXPIRY_MS = 30 * 86_400_000;
const RANGE_HOURS = [1, 2, 4, 6, 12, 24, 48];
const HOUR_MS = 3_600_000;

export interface Snapshot {
  id: string;
  orgId: string;
  aid: string;
  sourceTestId: string;
  /** The snapshot's own test: a frozen copy the share link shows. */
  testId: string;
  testName: string;
  displayName: string;
  from: number;
  to: number;
  isPublic: boolean;
  madeAt: number;
  uid: string;
}

/** The snapshots made in a world (a reset world has none), oldest first. */
const stores = new WeakMap<World, Snapshot[]>();
export function snapshotsOf(world: World): Snapshot[] {
  let kept = stores.get(world);
  if (!kept) stores.set(world, (kept = []));
  return kept;
}

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A short id such as the platform's ("wdiac"): letters drawn from a hash of the snapshot's test id. */
function shortId(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

/** The document's checks of a snapshot's body, as its field errors. */
function fieldErrors(body: Record<string, unknown>, now: number) {
  const errors: { code: string; field: string; message: string }[] = [];
  for (const field of ['displayName', 'startDate', 'endDate'])
    if (typeof body[field] !== 'string' || body[field] === '')
      errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
  if (body.isPublic !== undefined && typeof body.isPublic !== 'boolean')
    errors.push({ code: 'INVALID', field: 'isPublic', message: 'isPublic is true or false' });
  if (errors.length) return { errors };
  const from = Date.parse(String(body.startDate));
  const to = Date.parse(String(body.endDate));
  if (Number.isNaN(from) || Number.isNaN(to))
    errors.push({ code: 'INVALID', field: 'startDate', message: 'not a date' });
  else if (!RANGE_HOURS.includes((to - from) / HOUR_MS))
    errors.push({ code: 'INVALID', field: 'endDate', message: `the range is ${RANGE_HOURS.join(', ')} hours` });
  else if (to > now) errors.push({ code: 'INVALID', field: 'endDate', message: 'endDate is now or in the past' });
  return { errors, from, to };
}

/** `POST /tests/{testId}/snapshot`: a share link to a test's results over a range. */
export function snapshotRoutes(app: FastifyInstance, { state, worldNow, caller, hal, publicUrl }: RouteContext): void {
  app.post<{ Params: { testId: string } }>('/tests/:testId/snapshot', async (request, reply) => {
    const { org, group, serializer } = caller(request);
    const now = worldNow();
    const test = state.world.tests.find((item) => item.aid === group.aid && item.testId === request.params.testId);
    if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const checked = fieldErrors(typeof body === 'object' ? body : {}, now);
    if (checked.errors.length || checked.from === undefined || checked.to === undefined)
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        ...checked.errors,
      ]);
    const kept = snapshotsOf(state.world);
    const recent = kept.filter(
      (snapshot) => snapshot.orgId === org.orgId && snapshot.madeAt > now - SNAPSHOT_WINDOW_MS,
    );
    if (recent.length >= SNAPSHOTS_PER_WINDOW) {
      const freeAt = (recent[0]?.madeAt ?? now) + SNAPSHOT_WINDOW_MS;
      reply.header('Retry-After', String(Math.max(1, Math.ceil((freeAt - now) / 1000))));
      return problem(
        reply,
        429,
        'Too Many Requests',
        `At most ${SNAPSHOTS_PER_WINDOW} snapshots per organization within 5 minutes`,
      );
    }
    const user = state.world.users.find((candidate) => candidate.orgId === org.orgId);
    const snapshotTestId = state.newId();
    const snapshot: Snapshot = {
      id: shortId(`${org.orgId}|${snapshotTestId}`),
      orgId: org.orgId,
      aid: group.aid,
      sourceTestId: test.testId,
      testId: snapshotTestId,
      testName: test.testName,
      displayName: String(body.displayName),
      from: checked.from,
      to: checked.to,
      isPublic: body.isPublic === true,
      madeAt: now,
      uid: user?.uid ?? '',
    };
    kept.push(snapshot);
    // The link a person opens: at the product's public address when there is one, as the share page is served there.
    const api = new URL(serializer.link('').href);
    const root = publicUrl ? publicUrl.replace(/\/+$/, '') : api.origin;
    const share = `${root}${api.pathname.replace(/\/v7$/, '')}/snapshots/${snapshot.id}`;
    return hal(reply)
      .status(201)
      .send({
        id: snapshot.id,
        startRoundId: Math.floor(snapshot.from / 1000),
        endRoundId: Math.floor(snapshot.to / 1000),
        roundId: Math.floor(snapshot.from / 1000),
        shareDate: iso(now),
        sourceTestId: test.testId,
        testId: snapshotTestId,
        uid: snapshot.uid,
        displayName: snapshot.displayName,
        test: {
          testId: snapshotTestId,
          testName: test.testName,
          type: test.type,
          interval: test.interval,
          enabled: test.enabled,
          alertsEnabled: test.alertsEnabled,
          createdBy: test.createdBy,
          createdDate: test.createdDate,
        },
        _links: { self: serializer.link(`/tests/${test.testId}/snapshot`), appLink: { href: share } },
      });
  });
}

/**
 * The share link a snapshot answers (`/sandbox/te/snapshots/{id}`), opened without an account as a customer would:
 * the test and range it shows until it expires; then 410, as an expired link says it is gone.
 */
export function snapshotShareRoutes(app: FastifyInstance, state: PlatformState): void {
  app.get<{ Params: { id: string } }>('/te/snapshots/:id', async (request, reply) => {
    const snapshot = snapshotsOf(state.world).find((candidate) => candidate.id === request.params.id);
    if (!snapshot) return reply.status(404).type('text/html; charset=utf-8').send(page('Snapshot not found', ''));
    const expiresAt = snapshot.madeAt + SNAPSHOT_EXPIRY_MS;
    if (state.worldTime() >= expiresAt)
      return reply
        .status(410)
        .type('text/html; charset=utf-8')
        .send(page('Snapshot expired', `<p>This snapshot expired on ${escapeHtml(iso(expiresAt))}.</p>`));
    if (snapshot.isPublic)
      return reply
        .status(403)
        .type('text/html; charset=utf-8')
        .send(page('Private snapshot', '<p>This snapshot is private: sign in to the account group to see it.</p>'));
    const lines = [
      `Test: ${snapshot.testName}`,
      `From ${iso(snapshot.from)} to ${iso(snapshot.to)}`,
      `Expires ${iso(expiresAt)}`,
    ];
    return reply
      .type('text/html; charset=utf-8')
      .send(page(snapshot.displayName, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')));
  });
}
