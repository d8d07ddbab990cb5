// How the client retries: how often, after how long, and which answers and failures allow it.

/**
 * Non-idempotent calls (creations): at most 3 attempts, and only when the platform cannot have acted;
 * backoff 2^attempt x 100 ms plus up to 100 ms jitter, capped at 300 s.
 */
export const MAX_ATTEMPTS = 3;
const BACKOFF_CAP_MS = 300_000;
export const DEFAULT_RETRY_BUDGET_MS = 120_000;
export const DEFAULT_RATE_LIMIT_WAIT_BUDGET_MS = 10 * 60_000;
const READ_BACKOFF_BASE_MS = 200;
const READ_BACKOFF_CAP_MS = 10_000;
export const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);
export const SAFE_TO_REPEAT_STATUSES = new Set([502, 503]);
export const CONNECTION_NEVER_OPENED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET_BEFORE_SEND']);

export function backoffMs(attempt: number, random: () => number): number {
  return Math.min(BACKOFF_CAP_MS, 2 ** attempt * 100 + Math.floor(random() * 100));
}

/** Wait before retrying a read: exponential from 200 ms up to 10 s, with half of it random (equal jitter). */
export function readBackoffMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(READ_BACKOFF_CAP_MS, READ_BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
