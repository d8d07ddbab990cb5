import { isRecord } from './json.js';

/**
 * What is wrong with the toolkit's own database when an error says so: it cannot be reached (stopped, restarting,
 * the network, no connection left), or its disk is full. Neither is the caller's fault nor a job's: a person is
 * told to try again, and a job hands its work back for the lease rules to resume it.
 */
export type DatabaseFault = 'unreachable' | 'disk-full';

/** Node's network errors on a connection to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** PostgreSQL's SQLSTATEs of a server going away or refusing connections (class 08 is every connection exception). */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres' words for a connection that ended or never came. */
const UNREACHABLE_WORDS = new RegExp(
  [
    'Connection terminated',
    'connection error and is not queryable',
    'timeout exceeded when trying to connect',
    'Client was closed and is not queryable',
    'terminating connection due to administrator command',
    'the database system is (starting up|shutting down|in recovery mode)',
    'is not currently accepting connections',
    // An error that crossed from the jobs thread keeps its words, not always its code.
    `\\b(${[...NETWORK_CODES].join('|')})\\b`,
  ].join('|'),
  'i',
);
/** PostgreSQL's disk_full, and the system's own words for it (PGlite writes through Node's file system). */
const DISK_FULL_STATE = '53100';
const DISK_FULL_WORDS = /No space left on device|ENOSPC/;

/** The error and every cause under it (drizzle wraps the driver's error; an AggregateError holds several). */
function* chain(error: unknown, depth = 0): Generator<unknown> {
  if (error === undefined || error === null || depth > 8) return;
  yield error;
  if (!isRecord(error)) return;
  if (Array.isArray(error.errors)) for (const inner of error.errors) yield* chain(inner, depth + 1);
  yield* chain(error.cause, depth + 1);
}

/** Which fault of the database an error is, or null when it is something else. */
export function databaseFault(error: unknown): DatabaseFault | null {
  for (const link of chain(error)) {
    const code = isRecord(link) && typeof link.code === 'string' ? link.code : '';
    const message = link instanceof Error ? link.message : isRecord(link) ? String(link.message ?? '') : '';
    if (code === DISK_FULL_STATE || code === 'ENOSPC' || DISK_FULL_WORDS.test(message)) return 'disk-full';
    if (NETWORK_CODES.has(code) || UNREACHABLE_STATES.has(code) || code.startsWith('08')) return 'unreachable';
    if (UNREACHABLE_WORDS.test(message)) return 'unreachable';
  }
  return null;
}
