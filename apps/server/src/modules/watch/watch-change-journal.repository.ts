import { and, eq, gte, lte, or } from 'drizzle-orm';
import { PATHS } from '@ce/contract';
import type { Db } from '../../core/database.js';
import { changeSetItems, changeSets, communityDashboardPushes, communityDashboards, users } from '../../db/schema.js';
import type { JournalWrite } from './change-attribution.js';

/** The object kind (as backups name them) each change-set action writes; a restore's item names its own. */
const ACTION_KINDS: Record<string, string> = {
  'create-test': 'test',
  'delete-test': 'test',
  'delete-agent': 'agent',
  'label-tests': 'tag',
  'invite-user': 'user',
  'create-rule': 'alert-rule',
  'update-rule': 'alert-rule',
  'delete-rule': 'alert-rule',
  'create-window': 'suppression-window',
  'delete-window': 'suppression-window',
};

/** A change set's kind as the words say its tool, and the tool's page (its run opens there). */
function toolOf(kind: string): { tool: string; path: string } {
  if (kind === 'restore') return { tool: 'restore', path: PATHS.backupRestore };
  if (kind === 'undo-restore') return { tool: 'undo of a restore', path: PATHS.backupRestore };
  if (kind === 'alerts-migration') return { tool: 'alerts migration', path: PATHS.alertsMigration };
  if (kind === 'undo-alerts-migration') return { tool: 'undo of an alerts migration', path: PATHS.alertsMigration };
  if (kind === 'undo-tests') return { tool: 'undo of a bulk run', path: PATHS.bulkTests };
  return { tool: 'bulk run', path: kind === 'tests' ? PATHS.bulkTests : PATHS.bulkOperations };
}

/**
 * Our journal of one organization's account, read for who made a watch's drift: every write a change set made
 * there (bulk runs, alerts migrations, restores and their undos; a migration's target side in the organization it
 * wrote into) and every dashboard push, done within the window, with who made it.
 */
export class ChangeJournalRepository {
  constructor(private readonly db: Db) {}

  async writes(organizationId: string, since: Date, until: Date): Promise<JournalWrite[]> {
    const [items, pushes] = await Promise.all([
      this.db
        .select({
          item: changeSetItems,
          kind: changeSets.kind,
          runId: changeSets.id,
          name: users.name,
          email: users.email,
        })
        .from(changeSetItems)
        .innerJoin(changeSets, eq(changeSets.id, changeSetItems.runId))
        .innerJoin(users, eq(users.id, changeSets.userId))
        .where(
          and(
            eq(changeSetItems.status, 'done'),
            gte(changeSetItems.finishedAt, since),
            lte(changeSetItems.finishedAt, until),
            or(
              and(eq(changeSets.organizationId, organizationId), eq(changeSetItems.side, 'source')),
              and(eq(changeSets.targetOrganizationId, organizationId), eq(changeSetItems.side, 'target')),
            ),
          ),
        ),
      this.db
        .select({ push: communityDashboardPushes, title: communityDashboards.title, name: users.name })
        .from(communityDashboardPushes)
        .innerJoin(communityDashboards, eq(communityDashboards.id, communityDashboardPushes.dashboardId))
        .leftJoin(users, eq(users.id, communityDashboardPushes.userId))
        .where(
          and(
            eq(communityDashboardPushes.organizationId, organizationId),
            eq(communityDashboardPushes.status, 'done'),
            gte(communityDashboardPushes.createdAt, since),
            lte(communityDashboardPushes.createdAt, until),
          ),
        ),
    ]);
    const written: JournalWrite[] = items.flatMap(({ item, kind, runId, name, email }) => {
      const objectKind = typeof item.payload.kind === 'string' ? item.payload.kind : ACTION_KINDS[item.action];
      if (!objectKind || !item.finishedAt) return [];
      const { tool, path } = toolOf(kind);
      return [
        {
          accountGroupName: item.accountGroupName,
          kind: objectKind,
          names: [item.subject],
          at: item.finishedAt,
          person: { name: name || email, email },
          tool,
          path: `${path}?run=${runId}`,
        },
      ];
    });
    const pushed: JournalWrite[] = pushes.map(({ push, title, name }) => ({
      accountGroupName: push.accountGroupName,
      kind: 'dashboard',
      // A push creates the dashboard under the gallery entry's title.
      names: [title],
      at: push.createdAt,
      person: { name: name || push.userEmail, email: push.userEmail },
      tool: 'dashboard push',
      path: PATHS.dashboards,
    }));
    return [...written, ...pushed];
  }
}
