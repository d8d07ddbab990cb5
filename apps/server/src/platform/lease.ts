import { and, eq, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Job leases: a worker claims a job row for a minute and renews the claim every 15 s while it works.
 * A row whose lease lapsed belongs to a worker that died; any worker may claim it again.
 */
export const LEASE_MS = 60_000;
export const HEARTBEAT_MS = 15_000;

/** The lease is not held at `at`: never taken, or lapsed. */
export function leaseLapsed(leaseUntil: AnyColumn, at: Date): SQL {
  return or(sql`${leaseUntil} is null`, lt(leaseUntil, at)) as SQL;
}

/** A row a worker may claim at `at`: queued, or running under a lapsed lease. */
export function claimable(status: AnyColumn, leaseUntil: AnyColumn, at: Date): SQL {
  return or(eq(status, 'queued'), and(eq(status, 'running'), leaseLapsed(leaseUntil, at))) as SQL;
}

/** Runs `work` while renewing its lease every 15 s; the renewals stop before this returns. */
export async function whileLeased<T>(renew: (until: Date) => Promise<void>, work: () => Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => {
    renew(new Date(Date.now() + LEASE_MS)).catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}
