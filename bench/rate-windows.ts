/** What the two rate-limit benchmarks share: the sandbox's set-up, the naive sender, the score. */
import type { PlatformState } from '@ce/sandbox';

/** A fresh platform world with the bench's latency and limit. */
export function configurePlatform(
  platform: PlatformState,
  options: { latencyMs: number; limit: number; windowMs: number },
): void {
  platform.reset();
  platform.setScenario({
    ...platform.scenario,
    latencyMs: options.latencyMs,
    rateLimitPerMinute: options.limit,
    windowMs: options.windowMs,
  });
}

/** The spec's approach: every creation sent at once, no limiter. Returns the HTTP statuses. */
export async function postAllAtOnce(token: string, requests: { url: string; body: unknown }[]): Promise<number[]> {
  return Promise.all(
    requests.map(async ({ url, body }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

/**
 * The windows an organization used and the calls the sandbox accepted per window on average: with
 * `limit` calls allowed per window, rate/limit near 1 means no budget was wasted.
 */
export function windowRate(platform: PlatformState, orgId: string | undefined) {
  const windows = platform.history.filter((window) => window.orgId === orgId && window.count > 0);
  const accepted = windows.reduce((sum, window) => sum + window.count, 0);
  return { windows, rate: accepted / Math.max(1, windows.length) };
}
