import type { DroppedReference, ResolvedReference } from '../../core/change-sets/change-item.js';
import type { BackupItem, BackupKind } from './archive.js';
import { fieldChanges, platformIdOf, type FieldChange } from './drift.js';
import { backupKind } from './kinds/index.js';
import type { PlanContext } from './kinds/kind.js';

/** What restoring one backup item into a target group will do. */
export interface RestoreStep {
  kind: BackupKind;
  key: string;
  name: string;
  /**
   * The target item's name now, when it is the same item (the same platform id) under another name: the restore
   * renames it back (an update) rather than creating a second one.
   */
  previousName?: string;
  /** The target item's key, when it is another than the backup's (renamed since): what an update writes over. */
  existingKey?: string;
  status: 'create' | 'update' | 'unchanged' | 'delete' | 'cannot';
  /**
   * Tests and endpoint labels first (phase 0); what points at them after (phase 1: rules, windows, dashboards,
   * tags, endpoint tests); then deletions, what points at them (phase 2) before them (phase 3).
   */
  phase: number;
  /** What will be written: the item's configuration with its references as the target knows them. */
  config: Record<string, unknown> | null;
  /** For an update: the target's item now (what an undo puts back) and the fields that change. */
  before: Record<string, unknown> | null;
  existingId: string | null;
  differences: FieldChange[];
  resolved: ResolvedReference[];
  dropped: DroppedReference[];
  /** Why an item cannot be restored, in words. */
  reason: string | null;
}

/** What the target group holds, as backup items (read the same way), and the agents it can use. */
export interface RestoreTarget {
  accountGroupName: string;
  items: BackupItem[];
  /** Agents by name the target's tests may use (cloud agents and its enterprise agents). */
  agents: Map<string, string>;
  /** Endpoint agents by name (those an endpoint test may name). */
  endpointAgents?: Map<string, string>;
  /** Test types the target's plan refuses (the platform answered 403 for them). */
  refusedTestTypes?: ReadonlySet<string>;
}

const idOf = platformIdOf;

export type TargetIds = PlanContext['targetIds'];

/** The target's items of each kind by key, as their ids (those it has). */
export function targetIdsOf(items: BackupItem[]): TargetIds {
  const ids = new Map<string, Map<string, string>>();
  for (const item of items) {
    const id = idOf(item);
    if (id) ids.set(item.kind, (ids.get(item.kind) ?? new Map<string, string>()).set(item.key, id));
  }
  return (kind) => ids.get(kind) ?? new Map();
}

/** What the plan knows of the target once phase 0 is done: keys by kind (its own and those restored), its ids. */
function planContext(chosen: BackupItem[], target: RestoreTarget): PlanContext {
  const keysAfter = new Map<string, Set<string>>();
  for (const item of [...target.items, ...chosen])
    keysAfter.set(item.kind, (keysAfter.get(item.kind) ?? new Set<string>()).add(item.key));
  return { target, keysAfter: (kind) => keysAfter.get(kind) ?? new Set(), targetIds: targetIdsOf(target.items) };
}

/**
 * Plans restoring chosen backup items into a target group, and writes nothing: each item is created, updated
 * (with its field differences) or left unchanged by its key; references are remapped by name (agents, tests
 * inside rules, windows and tags; tests the target will not have are dropped with the reason); an item that
 * cannot be restored says why (an agent missing there, a masked secret, a test type the target does not
 * allow, a reference kept for the record, an endpoint test whose agents differ: the platform changes them
 * only by creating it again). Tests and endpoint labels come first (phase 0), what points at them after.
 */
export function planRestore(chosen: BackupItem[], target: RestoreTarget, removals: BackupItem[] = []): RestoreStep[] {
  const existing = new Map(target.items.map((item) => [`${item.kind}\u0000${item.key}`, item]));
  // An item renamed since the backup is still itself on the platform: found by its id, it is updated (renamed back).
  const existingById = new Map(
    target.items.flatMap((item) => {
      const id = idOf(item);
      return id ? [[`${item.kind}\u0000${id}`, item] as const] : [];
    }),
  );
  const context = planContext(chosen, target);
  const steps = chosen.map((item): RestoreStep => {
    const { restore } = backupKind(item.kind);
    const id = idOf(item);
    const there =
      existing.get(`${item.kind}\u0000${item.key}`) ??
      (id ? existingById.get(`${item.kind}\u0000${id}`) : undefined) ??
      null;
    const resolved: ResolvedReference[] = [];
    const dropped: DroppedReference[] = [];
    const renamed = there && there.key !== item.key ? { previousName: there.name, existingKey: there.key } : {};
    const base = {
      kind: item.kind,
      key: item.key,
      name: item.name,
      ...renamed,
      phase: restore?.phase ?? 0,
      existingId: there ? idOf(there) : null,
      resolved,
      dropped,
    };
    const cannot = (reason: string): RestoreStep => ({
      ...base,
      status: 'cannot',
      config: null,
      before: null,
      differences: [],
      reason,
    });
    if (!restore) return cannot('Kept to name what the items use: agents are installed, not restored');
    if (item.masked.length)
      return cannot(
        `${item.masked.join(', ')} ${item.masked.length === 1 ? 'is' : 'are'} masked by the platform: enter ${item.masked.length === 1 ? 'it' : 'them'} again in the platform`,
      );
    const config = structuredClone(item.config);
    const problem = restore.plan?.({ item, config, resolved, dropped }, context);
    if (problem) return cannot(problem);
    if (!there) return { ...base, status: 'create', config, before: null, differences: [], reason: null };
    const differences = fieldChanges(there.config, config);
    const updateProblem = differences.length ? restore.updateProblem?.(differences) : null;
    if (updateProblem) return cannot(updateProblem);
    return differences.length
      ? { ...base, status: 'update', config, before: there.config, differences, reason: null }
      : { ...base, status: 'unchanged', config: null, before: null, differences, reason: null };
  });
  const deletions = removals.map((item): RestoreStep => {
    const base = {
      kind: item.kind,
      key: item.key,
      name: item.name,
      existingId: idOf(item),
      resolved: [],
      dropped: [],
      differences: [],
      config: null,
    };
    const { restore } = backupKind(item.kind);
    if (!restore || !base.existingId)
      return {
        ...base,
        phase: 2,
        status: 'cannot',
        before: null,
        reason: `Restore does not delete ${item.kind} items`,
      };
    return {
      ...base,
      phase: restore.phase === 0 ? 3 : 2,
      status: 'delete',
      before: item.config,
      reason: null,
    };
  });
  return [...steps, ...deletions].sort((a, b) => a.phase - b.phase);
}
