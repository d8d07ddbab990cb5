import type { NewChangeItem } from '../../core/change-sets/repository.js';
import type { BackupItem } from './archive.js';
import { restoreOf } from './kinds/index.js';
import type { RestoreWrite } from './restore-actions.js';
import { targetIdsOf, type RestoreStep, type RestoreTarget, type TargetIds } from './restore-plan.js';

/**
 * An item's configuration as the platform's POST or PUT takes it (its kind's `write`): agents by the target's
 * ids, a test's alert rules and tags left to the rules and tags that hold them, tests named by key for the
 * engine to resolve when the item is sent (those created by the same restore have ids only then).
 */
function toWrite(
  item: Pick<BackupItem, 'kind' | 'key' | 'config'>,
  target: RestoreTarget,
  ids: TargetIds,
): RestoreWrite {
  return { kind: item.kind, key: item.key, ...restoreOf(item.kind).write(item, target, ids) };
}

/** The key `formerIds` holds an item's id under: its kind and key in the backup. */
export const formerKey = (item: Pick<BackupItem, 'kind' | 'key'>) => `${item.kind}\u0000${item.key}`;

const formerIdOf = (formerIds: ReadonlyMap<string, string>, step: RestoreStep) => {
  const id = formerIds.get(formerKey(step));
  return id ? { formerId: id } : {};
};

/**
 * A restore plan as change-set items: one per step, the writes ready to send, the rest kept with the reason.
 * `formerIds`: the ids the items had in the backup, when it is of the target group itself (kind and key: id).
 */
export function restoreItems(
  steps: RestoreStep[],
  target: RestoreTarget & { aid: string; side: string },
  formerIds: ReadonlyMap<string, string> = new Map(),
): NewChangeItem[] {
  const ids = targetIdsOf(target.items);
  const writeOf = (item: Pick<BackupItem, 'kind' | 'key' | 'config'>) => toWrite(item, target, ids);
  const existing = new Map(target.items.map((item) => [`${item.kind}\u0000${item.key}`, item]));
  return steps.map((step, position): NewChangeItem => {
    const common = {
      position,
      phase: step.phase,
      side: target.side,
      aid: target.aid,
      accountGroupName: target.accountGroupName,
      subject: step.name,
      details: {
        kind: step.kind,
        key: step.key,
        status: step.status,
        differences: step.differences,
        resolved: step.resolved,
        dropped: step.dropped,
        ...(step.previousName === undefined ? {} : { previousName: step.previousName }),
      },
    };
    // An item renamed since the backup is written over under its name now (the plan found it by its id).
    const there = existing.get(`${step.kind}\u0000${step.existingKey ?? step.key}`);
    if (step.status === 'create' && step.config)
      return {
        ...common,
        action: 'restore-create',
        payload: {
          ...writeOf({ ...step, config: step.config }),
          knownIds: [],
          ...formerIdOf(formerIds, step),
        },
      };
    if (step.status === 'update' && step.config && step.existingId && there)
      return {
        ...common,
        action: 'restore-update',
        payload: { ...writeOf({ ...step, config: step.config }), id: step.existingId },
        before: writeOf(there),
        resultId: step.existingId,
      };
    if (step.status === 'delete' && step.existingId && there) {
      const recreate = writeOf(there);
      return {
        ...common,
        action: 'restore-delete',
        payload: { kind: step.kind, key: step.key, variant: recreate.variant, id: step.existingId, recreate },
        resultId: step.existingId,
      };
    }
    return {
      ...common,
      action: 'restore-keep',
      payload: {},
      status: 'skipped',
      resultId: step.existingId,
      note: step.status === 'unchanged' ? 'Identical' : (step.reason ?? 'Not restored'),
    };
  });
}
