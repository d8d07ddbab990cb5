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

/** Kinds restore writes, and deletes (an undo creates them again): all but the references kept for the record. */
export const RESTORABLE: ReadonlySet<BackupKind> = new Set([
  'test',
  'alert-rule',
  'suppression-window',
  'dashboard',
  'tag',
  'endpoint-label',
  'endpoint-scheduled-test',
  'endpoint-dynamic-test',
]);

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
  'endpoint-label': 'id',
  'endpoint-scheduled-test': 'testId',
  'endpoint-dynamic-test': 'testId',
};

/** Deleted last: what other items point at (tests, endpoint labels), after what points at them. */
const DELETED_LAST: ReadonlySet<BackupKind> = new Set(['test', 'endpoint-label']);
const isEndpointTest = (kind: BackupKind) => kind === 'endpoint-scheduled-test' || kind === 'endpoint-dynamic-test';

/**
 * Why an endpoint test cannot go to the target: a label it runs on that the target will not have, or an
 * agent it names that the target does not have.
 */
function endpointAgentsMissing(
  config: Record<string, unknown>,
  target: RestoreTarget,
  labelsAfter: ReadonlySet<string>,
): string | null {
  const selector = (config.agentSelectorConfig ?? {}) as { endpointAgentLabels?: string[]; agents?: string[] };
  const labels = (selector.endpointAgentLabels ?? []).filter((name) => !labelsAfter.has(name));
  if (labels.length)
    return `No endpoint label ${labels.join(', ')} in ${target.accountGroupName}, nor in what is restored`;
  const agents = (selector.agents ?? []).filter((name) => !target.endpointAgents?.has(name));
  if (agents.length) return `No endpoint agent ${agents.join(', ')} in ${target.accountGroupName}`;
  return null;
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
  // The tests the target will have once phase 0 is done: its own and those restored.
  const testsAfter = new Set([
    ...target.items.filter((item) => item.kind === 'test').map((item) => item.key),
    ...chosen.filter((item) => item.kind === 'test').map((item) => item.key),
  ]);
  const labelsAfter = new Set(
    [...target.items, ...chosen].filter((item) => item.kind === 'endpoint-label').map((item) => item.key),
  );
  const targetLabels = new Map(
    target.items
      .filter((item) => item.kind === 'endpoint-label')
      .map((item) => [item.key, String(item.server.id ?? '')]),
  );
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
      return cannot('Kept to name what the items use: agents are installed, not restored');
    if (item.masked.length)
      return cannot(
        `${item.masked.join(', ')} ${item.masked.length === 1 ? 'is' : 'are'} masked by the platform: enter ${item.masked.length === 1 ? 'it' : 'them'} again in the platform`,
      );
    const config = structuredClone(item.config);
    if (item.kind === 'test') {
      const type = item.key.split(':')[0] ?? '';
      if (target.refusedTestTypes?.has(type))
        return cannot(`The plan of ${target.accountGroupName} does not include ${type} tests`);
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
    if (isEndpointTest(item.kind)) {
      const missing = endpointAgentsMissing(config, target, labelsAfter);
      if (missing) return cannot(missing);
      const selector = (config.agentSelectorConfig ?? {}) as { endpointAgentLabels?: string[]; agents?: string[] };
      for (const name of selector.endpointAgentLabels ?? [])
        base.resolved.push({ kind: 'endpoint label', name, from: name, to: targetLabels.get(name) ?? 'restored' });
      for (const name of selector.agents ?? [])
        base.resolved.push({ kind: 'endpoint agent', name, from: name, to: target.endpointAgents?.get(name) ?? '' });
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
    if (isEndpointTest(item.kind) && differences.some((change) => change.path.startsWith('agentSelectorConfig')))
      return cannot('The platform does not change which agents run an endpoint test: delete it there, then restore it');
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
    if (!RESTORABLE.has(item.kind) || !base.existingId)
      return {
        ...base,
        phase: 2,
        status: 'cannot',
        before: null,
        reason: `Restore does not delete ${item.kind} items`,
      };
    return {
      ...base,
      phase: DELETED_LAST.has(item.kind) ? 3 : 2,
      status: 'delete',
      before: item.config,
      reason: null,
    };
  });
  return [...steps, ...deletions].sort((a, b) => a.phase - b.phase);
}
