import { and, eq, gte, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  userMay,
  type Capability,
  type SessionUser,
  type TimelineEntry,
  type TimelineTool,
  type WorkOutcome,
} from '@ce/contract';
import { users } from '../db/schema.js';

/** Which work of one organization a customer's page asks for. */
export interface TimelineQuery {
  /** Who asks: a source reads only what the caller may read (a personal API token's capabilities too). */
  caller: SessionUser;
  organizationId: string;
  /** The caller's own work (their id), or everyone's (null). */
  userId: string | null;
  /** Among everyone's, one person's (an email). */
  personEmail?: string;
  since: Date;
  limit: number;
}

/**
 * An entry with the organization's name as its row recorded it (the page's title takes the newest), or '' when
 * the row names another organization (a run from there that wrote into this one). A source whose work has more to
 * its outcome than its status (a run's items, a report's delivery) says it; else the page reads it from the status.
 */
export type SourcedEntry = Omit<TimelineEntry, 'outcome'> & { outcome?: WorkOutcome; organizationName: string };

/**
 * What a module tells a customer's page about its work for one organization (its reports, runs, backups,
 * pushes), newest first, at most `limit`. Modules register one each, as they register notification sources.
 */
export interface TimelineSource {
  tools: readonly TimelineTool[];
  /**
   * What a caller must hold to see this source's entries: its tool's operations' capability (checked with the
   * token's, as every operation is). None: any signed-in caller, the source keeping to what the caller may read.
   */
  capability?: Capability;
  timeline(query: TimelineQuery): Promise<SourcedEntry[]>;
}

/**
 * The condition every source's read shares: the organization (a run that wrote into a second one is listed
 * there too), the period, and whose work (the owner's row joined as `users`).
 */
export function timelineWhere(
  query: TimelineQuery,
  columns: { organizationId: PgColumn; createdAt: PgColumn; userId: PgColumn; targetOrganizationId?: PgColumn },
): SQL | undefined {
  const organization = columns.targetOrganizationId
    ? or(eq(columns.organizationId, query.organizationId), eq(columns.targetOrganizationId, query.organizationId))
    : eq(columns.organizationId, query.organizationId);
  const person = query.userId
    ? eq(columns.userId, query.userId)
    : query.personEmail
      ? eq(users.email, query.personEmail)
      : undefined;
  return and(organization, gte(columns.createdAt, query.since), person);
}

/** Who did it, as the entry names them. */
export const personOf = (user: { name: string | null; email: string }) => ({
  name: user.name || user.email,
  email: user.email,
});

/** The newest entries of all sources, at most `limit`. */
export function newestFirst(entries: SourcedEntry[], limit: number): SourcedEntry[] {
  return entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
}

/** Every source's entries of one organization that `query.caller` may see, as a customer's page reads them. */
export async function readTimeline(sources: readonly TimelineSource[], query: TimelineQuery): Promise<SourcedEntry[]> {
  const allowed = sources.filter((source) => !source.capability || userMay(query.caller, source.capability));
  return newestFirst((await Promise.all(allowed.map((source) => source.timeline(query)))).flat(), query.limit);
}
