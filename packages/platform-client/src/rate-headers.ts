// What the platform's answers say of an organization's budget: its rate headers, and a refusal's Retry-After.

/** Without a Reset header on a 429, the docs' minute plus jitter. */
export const FALLBACK_429_WAIT_MS = 60_000;

export interface RateHeaders {
  limit: number;
  remaining: number;
  resetAt: number;
}

/**
 * Retry-After of a refusal, in ms from `now`: seconds, or an HTTP date (RFC 9110). Undefined when absent
 * or unreadable.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function readRateHeaders(headers: Headers): RateHeaders | undefined {
  const limit = Number(headers.get('x-organization-rate-limit-limit'));
  const remaining = Number(headers.get('x-organization-rate-limit-remaining'));
  const reset = Number(headers.get('x-organization-rate-limit-reset'));
  if (!headers.has('x-organization-rate-limit-remaining') || !Number.isFinite(remaining)) return undefined;
  return {
    limit: Number.isFinite(limit) && limit > 0 ? limit : remaining,
    remaining: Math.max(0, remaining),
    resetAt: Number.isFinite(reset) && reset > 0 ? reset * 1000 : Number.NaN,
  };
}
