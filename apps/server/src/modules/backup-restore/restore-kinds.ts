import { z } from 'zod';
import { apiTestType, PlatformError, type PlatformSession } from '@ce/platform-client';
import { undoKind, type ChangeSetTools } from '../../core/change-sets/handlers.js';
import type { ChangeSetRow } from '../../core/change-sets/repository.js';
import type { ArchiveLimits } from './archive-reader.js';
import type { BackupItem } from './archive.js';
import { backupItems } from './backup-index.js';
import type { BackupsRepository } from './backup-restore.repository.js';
import { platformIdOf } from './drift.js';
import { endpointAgentNames } from './kinds/endpoint-test.js';
import { readGroup } from './read.js';
import { RESTORE_ACTIONS } from './restore-actions.js';
import { formerKey, restoreItems } from './restore-items.js';
import { planRestore, type RestoreStep, type RestoreTarget } from './restore-plan.js';

export const RESTORE_KINDS = ['restore', 'undo-restore'];

/** A restore as stored with its change set: which backup, which items, into which group. */
export const restoreInputSchema = z.object({
  backupId: z.string(),
  backupName: z.string(),
  aid: z.string(),
  accountGroupName: z.string(),
  /** Backup items to put back, by `kind/key`. */
  items: z.array(z.string()),
  /** The target's items to delete (added since the backup), by `kind/key`. */
  remove: z.array(z.string()),
  crossOrganization: z.boolean(),
  targetOrganizationName: z.string().nullable(),
});
export type RestoreInput = z.infer<typeof restoreInputSchema>;

export const itemId = (item: Pick<BackupItem, 'kind' | 'key'>) => `${item.kind}/${item.key}`;

/**
 * What the target holds and can use, read once: its items as a backup reads them, its agents and endpoint
 * agents by name, and which of `testTypes` its plan refuses (the platform answers 403 for a type it leaves out).
 */
export async function readRestoreTarget(
  session: PlatformSession,
  aid: string,
  accountGroupName: string,
  testTypes: readonly string[] = [],
): Promise<RestoreTarget> {
  const items: BackupItem[] = [];
  const { agents } = await readGroup(session, aid, (item) => items.push(item));
  const endpointAgents = await endpointAgentNames(session, aid);
  const refusedTestTypes = new Set<string>();
  for (const type of new Set(testTypes))
    await session.tests.listByType(apiTestType(type), aid).catch((error: unknown) => {
      if (error instanceof PlatformError && error.status === 403) refusedTestTypes.add(type);
      else throw error;
    });
  return {
    accountGroupName,
    items,
    agents: new Map([...agents].map(([id, name]) => [name, id])),
    endpointAgents: new Map([...endpointAgents].map(([id, name]) => [name, id])),
    refusedTestTypes,
  };
}

/** The restore's plan from what is stored and what the target holds now. */
export async function restorePlan(
  repository: BackupsRepository,
  limits: ArchiveLimits,
  input: RestoreInput,
  session: PlatformSession,
): Promise<{ steps: RestoreStep[]; target: RestoreTarget; formerIds: Map<string, string> }> {
  const wanted = new Set(input.items);
  const removing = new Set(input.remove);
  const chosen = (await backupItems(repository, input.backupId, limits)).filter((item) => wanted.has(itemId(item)));
  const testTypes = chosen.filter((item) => item.kind === 'test').map((item) => item.key.split(':')[0] ?? '');
  const target = await readRestoreTarget(session, input.aid, input.accountGroupName, testTypes);
  const removals = target.items.filter((item) => removing.has(itemId(item)));
  // Back into the group it was taken of, an item's id in the backup was its id there (what a recreated test leaves).
  const backup = input.crossOrganization ? undefined : await repository.find(input.backupId);
  const formerIds = new Map(
    backup?.aid === input.aid
      ? chosen.flatMap((item) => {
          const id = platformIdOf(item);
          return id ? [[formerKey(item), id] as const] : [];
        })
      : [],
  );
  return { steps: planRestore(chosen, target, removals), target, formerIds };
}

/** Backup & Restore on the change-set engine: a restore and its undo, and their writes. */
export function restoreChangeSets(repository: BackupsRepository, limits: ArchiveLimits): ChangeSetTools {
  return {
    kinds: {
      restore: {
        async plan(run: ChangeSetRow, sessions) {
          const input = restoreInputSchema.parse(run.input);
          const session = input.crossOrganization && sessions.target ? sessions.target : sessions.source;
          const { steps, target, formerIds } = await restorePlan(repository, limits, input, session);
          return restoreItems(
            steps,
            { ...target, aid: input.aid, side: input.crossOrganization ? 'target' : 'source' },
            formerIds,
          );
        },
      },
      'undo-restore': undoKind(() => RESTORE_ACTIONS),
    },
    actions: RESTORE_ACTIONS,
  };
}
