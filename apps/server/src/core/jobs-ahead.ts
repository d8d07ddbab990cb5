import { and, eq, inArray, lt, or } from 'drizzle-orm';
import { backups, changeSets, reportRequests } from '../db/schema.js';
import type { Db } from './database.js';

/** A job as the queue sees it: its organization, and where it stands. */
export interface QueuedJob {
  id: string;
  organizationId: string;
  status: string;
  createdAt: Date;
}

/** Every kind of job spends its organization's one budget: reports, change sets (runs, undos), backups. */
const JOB_TABLES = [reportRequests, changeSets, backups] as const;

/**
 * How many jobs are ahead of each queued one at its organization's budget: the organization's jobs of every
 * kind, anyone's, that are running or were queued before it. Jobs not queued get none (null). One read of each
 * job table, whatever the number of jobs asked about, and none when no job asked about is queued.
 */
export async function jobsAhead(db: Db, jobs: readonly QueuedJob[]): Promise<Map<string, number>> {
  const queued = jobs.filter((job) => job.status === 'queued');
  const ahead = new Map<string, number>();
  if (queued.length === 0) return ahead;
  const organizations = [...new Set(queued.map((job) => job.organizationId))];
  const latest = new Date(Math.max(...queued.map((job) => job.createdAt.getTime())));
  const reads = JOB_TABLES.map((table) =>
    db
      .select({ id: table.id, organizationId: table.organizationId, status: table.status, createdAt: table.createdAt })
      .from(table)
      .where(
        and(
          inArray(table.organizationId, organizations),
          or(eq(table.status, 'running'), and(eq(table.status, 'queued'), lt(table.createdAt, latest))),
        ),
      ),
  );
  const others = (await Promise.all(reads)).flat();
  for (const job of queued) {
    const count = others.filter(
      (other) =>
        other.id !== job.id &&
        other.organizationId === job.organizationId &&
        (other.status === 'running' || other.createdAt < job.createdAt),
    ).length;
    ahead.set(job.id, count);
  }
  return ahead;
}

/** `jobsAhead` bound to the database: what services that show jobs are given. */
export type JobsAhead = (jobs: readonly QueuedJob[]) => Promise<Map<string, number>>;
