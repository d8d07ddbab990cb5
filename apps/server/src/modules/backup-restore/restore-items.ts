import type { NewChangeItem } from '../../core/change-sets/repository.js';
import type { BackupItem } from './archive.js';
import type { RestoreWrite } from './restore-actions.js';
import type { RestoreStep, RestoreTarget } from './restore-plan.js';

type Json = Record<string, unknown>;

/**
 * An item's configuration as the platform's POST or PUT takes it: agents by the target's ids, a test's
 * alert rules and tags left to the rules and tags that hold them, tests named by key for the engine to
 * resolve when the item is sent (those created by the same restore have ids only then).
 */
function toWrite(
  item: Pick<BackupItem, 'kind' | 'key' | 'config'>,
  target: RestoreTarget,
  known: Record<string, string>,
  labelIds: Record<string, string> = {},
): RestoreWrite {
  const { kind, key } = item;
  const config = item.config as Json;
  const keys = (field: string) => (Array.isArray(config[field]) ? (config[field] as string[]) : []);
  switch (kind) {
    case 'test': {
      const { type: _type, agents, ...body } = config;
      return {
        kind,
        key,
        body: {
          ...body,
          agents: ((agents as string[] | undefined) ?? []).map((name) => ({
            agentId: target.agents.get(name) ?? name,
          })),
          alertRules: [],
        },
      };
    }
    case 'alert-rule':
    case 'suppression-window': {
      const { tests: _tests, ...body } = config;
      return { kind, key, body, tests: { field: 'testIds', keys: keys('tests'), known } };
    }
    case 'tag': {
      const { assignments: _assignments, ...body } = config;
      return { kind, key, body, tests: { field: 'assignments', keys: keys('assignments'), known } };
    }
    case 'dashboard': {
      // The layout names the old widgets' ids: the platform lays the widgets out again. Widgets' agent filters
      // name agents (mapped here); their test filters name tests by key (mapped when sent).
      const { layout: _layout, widgets, ...body } = config;
      const testKeys = new Set<string>();
      const mapped = ((widgets as Json[] | undefined) ?? []).map((widget) => {
        const filters = widget.filters as Record<string, unknown> | undefined;
        if (!filters) return widget;
        for (const testKey of (filters.TEST as string[] | undefined) ?? []) testKeys.add(testKey);
        const agents = ((filters.AGENT as string[] | undefined) ?? []).flatMap((name) => {
          const id = target.agents.get(name);
          return id ? [id] : [];
        });
        return { ...widget, filters: { ...filters, ...(filters.AGENT ? { AGENT: agents } : {}) } };
      });
      return { kind, key, body: { ...body, widgets: mapped }, tests: { keys: [...testKeys], known } };
    }
    case 'endpoint-label':
      return { kind, key, body: config };
    case 'endpoint-scheduled-test':
    case 'endpoint-dynamic-test': {
      // Requests name the agents flat, by the target's ids; labels by key, resolved when sent.
      const { agentSelectorConfig, type, ...body } = config;
      const { endpointAgentLabels, agents, ...selector } = (agentSelectorConfig ?? {}) as Json & {
        endpointAgentLabels?: string[];
        agents?: string[];
      };
      return {
        kind,
        key,
        ...(kind === 'endpoint-scheduled-test' ? { variant: String(type) } : {}),
        body: {
          ...body,
          ...selector,
          ...(agents ? { agents: agents.map((name) => target.endpointAgents?.get(name) ?? name) } : {}),
        },
        ...(endpointAgentLabels ? { labels: { keys: endpointAgentLabels, known: labelIds } } : {}),
      };
    }
    case 'reference':
      throw new Error(`restore does not write ${kind} items`);
  }
}

/** A restore plan as change-set items: one per step, the writes ready to send, the rest kept with the reason. */
export function restoreItems(
  steps: RestoreStep[],
  target: RestoreTarget & { aid: string; side: string },
): NewChangeItem[] {
  const known = Object.fromEntries(
    target.items
      .filter((item) => item.kind === 'test' && item.server.testId)
      .map((item) => [item.key, String(item.server.testId)]),
  );
  const labelIds = Object.fromEntries(
    target.items
      .filter((item) => item.kind === 'endpoint-label' && item.server.id)
      .map((item) => [item.key, String(item.server.id)]),
  );
  const writeOf = (item: Pick<BackupItem, 'kind' | 'key' | 'config'>) => toWrite(item, target, known, labelIds);
  const existing = new Map(target.items.map((item) => [`${item.kind}\u0000${item.key}`, item]));
  return steps.map((step, position): NewChangeItem => {
    const common = {
      position,
      phase: step.phase,
      side: target.side,
      templateIndex: null,
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
      },
    };
    const there = existing.get(`${step.kind}\u0000${step.key}`);
    if (step.status === 'create' && step.config)
      return {
        ...common,
        action: 'restore-create',
        payload: { ...writeOf({ ...step, config: step.config }), knownIds: [] },
      };
    if (step.status === 'update' && step.config && step.existingId && there)
      return {
        ...common,
        action: 'restore-update',
        payload: { ...writeOf({ ...step, config: step.config }), id: step.existingId },
        before: writeOf(there) as unknown as Json,
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
