import { sql, type SQL } from 'drizzle-orm';
import {
  BACKGROUND_PRESENT_MS,
  HELD_UNTIL_END_MS,
  otherShare,
  shareOf,
  WINDOW_MS,
  type Lane,
} from '@ce/platform-client';
import { rateBudgets } from '../db/schema.js';

// The budget row's SQL (core/rate-budget.ts): what a take, an answer and a refusal read and write, in one statement each.

/** Waiting past Reset by this much absorbs clock differences and the header's one-second resolution. */
export const RESET_MARGIN_MS = 250;

export const t = rateBudgets;
export const ms = (value: number) => sql`${value} * interval '1 millisecond'`;
/** The window the row knows has ended: the next call opens a new one, whose budget is unknown. */
export const rolled = sql`(${t.resetAt} is not null and now() >= ${t.resetAt} + ${ms(RESET_MARGIN_MS)})`;
export const unknown = sql`(${rolled} or ${t.remaining} is null)`;
export const probeFree = sql`(${t.probeUntil} is null or ${t.probeUntil} < now())`;
export const nowMs = sql`(extract(epoch from now()) * 1000)`;
const live = sql`(e.value->>'until')::float8 > ${nowMs}`;
/** Calls still in flight, of every holder whose count has not lapsed. */
export const inFlight = sql`(select coalesce(sum((e.value->>'n')::int), 0) from jsonb_each(${t.inFlightBy}) e where ${live})::int`;
/** This holder's calls in flight. */
export const mine = (holder: string) =>
  sql`coalesce((select (e.value->>'n')::int from jsonb_each(${t.inFlightBy}) e where e.key = ${holder} and ${live}), 0)`;
/**
 * The counts with this holder's set to `count` (gone at 0), lapsed ones dropped. `renewed`: its count is
 * counted a full TTL from now (a take that granted), else until its last take's.
 */
export function holding(holder: string, count: SQL, renewed: SQL, ttlMs: number): SQL {
  const others = sql`(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(${t.inFlightBy}) e
    where e.key <> ${holder} and ${live})`;
  const until = sql`(case when ${renewed} then ${nowMs} + ${ttlMs}
    else coalesce((${t.inFlightBy}->(${holder}::text)->>'until')::float8, ${nowMs} + ${ttlMs}) end)`;
  return sql`${others} || (case when ${count} > 0
    then jsonb_build_object(${holder}::text, jsonb_build_object('n', ${count}, 'until', ${until}))
    else '{}'::jsonb end)`;
}
/** The column counting a lane's share's takes (a scheduled call counts in background's, and in its own). */
const takenBy = (lane: Lane) => (shareOf(lane) === 'interactive' ? t.interactiveTaken : t.backgroundTaken);
const otherLane = (lane: Lane): Lane => (shareOf(lane) === 'interactive' ? 'background' : 'interactive');
export type TakenColumn = 'interactiveTaken' | 'backgroundTaken' | 'scheduledTaken';
export const takenColumns = (lane: Lane): TakenColumn[] =>
  lane === 'interactive'
    ? ['interactiveTaken']
    : lane === 'background'
      ? ['backgroundTaken']
      : ['backgroundTaken', 'scheduledTaken'];

/** The slots the other lane still holds in the row's window (`heldFor` of the platform client, in SQL). */
export function heldAgainst(lane: Lane, backgroundShare: number) {
  const share = sql.raw(String(otherShare(lane, backgroundShare)));
  const msLeft = sql`extract(epoch from (${t.resetAt} - now())) * 1000`;
  const span = sql.raw(String(WINDOW_MS - HELD_UNTIL_END_MS));
  const left = sql`least(1, greatest(0, (${msLeft} - ${sql.raw(String(HELD_UNTIL_END_MS))}) / ${span}))`;
  const limit = sql`coalesce(${t.callLimit}, 0)`;
  const notTaken = sql`ceil(${share} * ${limit}) - ${takenBy(otherLane(lane))}`;
  const held = sql`greatest(0, least(ceil(${share} * ${limit} * ${left}), ${notTaken}))`;
  if (lane !== 'interactive') return held;
  // Background holds its share only while it is about.
  return sql`(case when ${t.backgroundSeenAt} > now() - ${ms(BACKGROUND_PRESENT_MS)} then ${held} else 0 end)`;
}

/** Milliseconds until the row's window ends (null when it does not know). */
export function waitUntilReset() {
  return sql<number | null>`greatest(0, extract(epoch from (${t.resetAt} - now())) * 1000)::int`.mapWith((value) =>
    value === null ? null : Number(value),
  );
}
