/**
 * Every store of the sandbox lives in memory and is bounded, so no caller can grow the server's memory
 * without limit: past `max` entries the oldest go first.
 */
export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

/** Store sizes. */
export const LIMITS = {
  /** Platform calls remembered for tests and benchmarks. */
  calls: 200_000,
  /** Rate-limit windows remembered. */
  windows: 20_000,
  /** Objects created through the API per account group (tests, dashboards, tags, windows) or organization (users). */
  createdPerGroup: 5_000,
  webexMessages: 1_000,
  /** Bytes of Webex files kept in all; the oldest messages go first. */
  webexBytes: 100 * 1024 * 1024,
  /** One Webex file (the real service takes 100 MB; the sandbox keeps less). */
  webexFileBytes: 25 * 1024 * 1024,
  mailMessages: 1_000,
  /** Copies of the world's organizations kept (each a test's own); the oldest copy goes first. */
  organizationCopies: 200,
  crmTasks: 20_000,
  /** Audit events of the platform's activity log (seeded and recorded writes); past it the oldest go. */
  auditEvents: 100_000,
  crmAccessTokens: 1_000,
} as const;
