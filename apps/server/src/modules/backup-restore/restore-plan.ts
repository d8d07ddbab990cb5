import type { DroppedReference, ResolvedReference } from '../../core/change-sets/change-item.js';
import type { BackupItem, BackupKind } from './archive.js';
import { fieldChanges, type FieldChange } from './drift.js';

/** What restoring one backup item into a target group will do. */
export interface RestoreStep {
  kind: BackupKind;
  key: string;
  name: string;
  status: 'create' | 'update' | 'unchanged' | 'delete' | 'cannot';
  /**
   * Tests first (phase 0); what points at tests after them (phase 1: rules, windows, dashboards, tags); then
   * deletions, what points at tests (phase 2) before the tests (phase 3).
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
  /** Test types the target's plan allows, when known. */
  allowedTestTypes?: ReadonlySet<string>;
}

/** Kinds whose deletion restore can carry out (and undo by creating them again). */
const DELETABLE: ReadonlySet<BackupKind> = new Set(['test', 'alert-rule', 'suppression-window', 'dashboard']);

const PHASE: Record<BackupKind, number> = {
  test: 0,
  'endpoint-label': 0,
  'alert-rule': 1,
  'suppression-window': 1,
  dashboard: 1,
  tag: 1,
  'endpoint-scheduled-test': 1,
  'endpoint-dynamic-test': 1,
  reference: 0,
};

/** The id field each kind's server half keeps. */
const ID_FIELD: Partial<Record<BackupKind, string>> = {
  test: 'testId',
  'alert-rule': 'ruleId',
  'suppression-window': 'alertSuppressionWindowId',
  dashboard: 'dashboardId',
  tag: 'id',
};

/** Kinds the restore writes; the others are kept in a backup for the record and for drift. */
export const RESTORABLE: ReadonlySet<BackupKind> = new Set([
  'test',
  'alert-rule',
  'suppression-window',
  'dashboard',
  'tag',
]);

/**
 * Plans restoring chosen backup items into a target group, and writes nothing: each item is created, updated
 * (with its field differences) or left unchanged by its key; references are remapped by name (agents, tests
 * inside rules, windows and tags; tests the target will not have are dropped with the reason); an item that
 * cannot be restored says why (an agent missing there, a masked secret, a test type the target does not
 * allow, a kind restore does not write). Tests come first (phase 0), what points at them after.
 */
export function planRestore(chosen: BackupItem[], target: RestoreTarget, removals: BackupItem[] = []): RestoreStep[] {
  const existing = new Map(target.items.map((item) => [`${item.kind}\u0000${item.key}`, item]));
  // The tests the target will have once phase 0 is done: its own and those restored.
  const testsAfter = new Set([
    ...target.items.filter((item) => item.kind === 'test').map((item) => item.key),
    ...chosen.filter((item) => item.kind === 'test').map((item) => item.key),
  ]);
  const steps = chosen.map((item): RestoreStep => {
    const there = existing.get(`${item.kind}\u0000${item.key}`) ?? null;
    const base = {
      kind: item.kind,
      key: item.key,
      name: item.name,
      phase: PHASE[item.kind],
      existingId: there ? String(there.server[ID_FIELD[item.kind] ?? 'id'] ?? '') || null : null,
      resolved: [] as ResolvedReference[],
      dropped: [] as DroppedReference[],
    };
    const cannot = (reason: string): RestoreStep => ({
      ...base,
      status: 'cannot',
      config: null,
      before: null,
      differences: [],
      reason,
    });
    if (!RESTORABLE.has(item.kind))
      return cannot(`${item.kind} items are kept for the record; restore does not write them`);
    if (item.masked.length)
      return cannot(
        `${item.masked.join(', ')} ${item.masked.length === 1 ? 'is' : 'are'} masked by the platform: enter ${item.masked.length === 1 ? 'it' : 'them'} again in the platform`,
      );
    const config = structuredClone(item.config);
    if (item.kind === 'test') {
      const type = item.key.split(':')[0] ?? '';
      if (target.allowedTestTypes && !target.allowedTestTypes.has(type))
        return cannot(`${target.accountGroupName} does not allow ${type} tests`);
      const agents = Array.isArray(config.agents) ? (config.agents as string[]) : [];
      const missing = agents.filter((name) => !target.agents.has(name));
      if (missing.length) return cannot(`No agent ${missing.join(', ')} in ${target.accountGroupName}`);
      for (const name of agents)
        base.resolved.push({
          kind: 'agent',
          name,
          from: String((item.server.agentIds as Record<string, unknown> | undefined)?.[name] ?? ''),
          to: target.agents.get(name) ?? '',
        });
    }
    for (const field of ['tests', 'assignments'] as const) {
      if (!Array.isArray(config[field]) || (item.kind === 'tag' && config.objectType !== 'test')) continue;
      const kept: string[] = [];
      for (const key of config[field] as string[]) {
        if (testsAfter.has(key)) kept.push(key);
        else
          base.dropped.push({
            kind: 'test',
            name: key,
            reason: `No test ${key} in ${target.accountGroupName}, nor in what is restored`,
          });
      }
      config[field] = kept;
    }
    if (!there) return { ...base, status: 'create', config, before: null, differences: [], reason: null };
    const differences = fieldChanges(there.config, config);
    return differences.length
      ? { ...base, status: 'update', config, before: there.config, differences, reason: null }
      : { ...base, status: 'unchanged', config: null, before: null, differences, reason: null };
  });
  const deletions = removals.map((item): RestoreStep => {
    const base = {
      kind: item.kind,
      key: item.key,
      name: item.name,
      existingId: String(item.server[ID_FIELD[item.kind] ?? 'id'] ?? '') || null,
      resolved: [],
      dropped: [],
      differences: [],
      config: null,
    };
    if (!DELETABLE.has(item.kind) || !base.existingId)
      return {
        ...base,
        phase: 2,
        status: 'cannot',
        before: null,
        reason: `Restore does not delete ${item.kind} items`,
      };
    return { ...base, phase: item.kind === 'test' ? 3 : 2, status: 'delete', before: item.config, reason: null };
  });
  return [...steps, ...deletions].sort((a, b) => a.phase - b.phase);
}
