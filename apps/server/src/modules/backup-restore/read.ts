import type { AlertRule, PlatformSession, PlatformTestType } from '@ce/platform-client';
import { mapPool } from '../../core/map-pool.js';
import type { BackupItem, BackupKind } from './archive.js';

/** Details read at once; the organization's limiter decides the pace. */
const DETAIL_CONCURRENCY = 6;

/** Fields the platform manages: kept in an item's `server` half, never compared or restored. */
const SERVER_FIELDS = new Set([
  '_links',
  'aid',
  'createdBy',
  'createdDate',
  'modifiedBy',
  'modifiedDate',
  'lastModified',
  'savedEvent',
  'liveShare',
  'status',
  'apiLinks',
]);
/** Fields the platform never gives back in clear: recorded as "to enter again on restore". */
const MASKED = /password|secret|privateKey|clientCertificate|authToken|bearerToken/i;

type Json = Record<string, unknown>;

/**
 * An object split in two: what restore writes (`config`) and what the platform manages (`server`: the
 * fields above and `idFields`); masked fields become null in `config` and are listed.
 */
function split(value: Json, idFields: string[]): { config: Json; server: Json; masked: string[] } {
  const config: Json = {};
  const server: Json = {};
  const masked: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (SERVER_FIELDS.has(key) || idFields.includes(key)) server[key] = item;
    else if (MASKED.test(key) && item !== null && item !== undefined && item !== '') {
      config[key] = null;
      masked.push(key);
    } else config[key] = item;
  }
  return { config, server, masked };
}

const item = (kind: BackupKind, key: string, name: string, parts: ReturnType<typeof split>): BackupItem => ({
  kind,
  key,
  name,
  ...parts,
});

/** How a test is known across groups: its type and name. */
export const testKey = (test: { type: string; testName: string }) => `${test.type}: ${test.testName}`;

const names = (list: unknown, field: string) =>
  (Array.isArray(list) ? (list as Json[]) : []).map((entry) => String(entry[field] ?? '')).sort();

/**
 * Reads one account group's configuration as backup items, each list once and each item's detail once, paced
 * by the organization's limiter, and hands each item over as soon as it is read (the caller writes it into
 * the archive and lets it go). References are by name in `config` (agents, alert rules, tests, tags) and by
 * id in `server`.
 */
export async function readGroup(
  session: PlatformSession,
  aid: string,
  emitItem: (item: BackupItem) => void,
): Promise<{ agents: Map<string, string> }> {
  // Keys name items across groups; two of a kind with one name (two dashboards called "Overview") get "(2)".
  const seen = new Map<string, number>();
  const emit = (item: BackupItem) => {
    const id = `${item.kind}\u0000${item.key}`;
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    emitItem(count === 1 ? item : { ...item, key: `${item.key} (${count})` });
  };
  // The group's agents by id, to name those a dashboard's widgets filter on (read once, beside the tests).
  const agentList = session.agents
    .list({ aid })
    .then((agents) => agents.map((agent): [string, string] => [agent.agentId, agent.agentName]));
  agentList.catch(() => undefined);

  const tests = await session.tests.list(aid);
  const testNames = new Map(tests.map((test) => [test.testId, testKey(test)]));
  const agents = new Map<string, { agentName: string; agentType: string }>();
  await mapPool(tests, DETAIL_CONCURRENCY, async (summary) => {
    const test = (await session.tests.get(summary.type as PlatformTestType, summary.testId, {
      aid,
      expand: ['agent', 'alert-rule', 'tag'],
    })) as Json & { testId: string; testName: string; type: string };
    const { agents: testAgents, alertRules, tags, ...rest } = test;
    const parts = split(rest, ['testId']);
    for (const agent of (Array.isArray(testAgents) ? testAgents : []) as Json[])
      if (agent.agentType && agent.agentType !== 'cloud')
        agents.set(String(agent.agentId), { agentName: String(agent.agentName), agentType: String(agent.agentType) });
    parts.config.agents = names(testAgents, 'agentName');
    // A test's alert rules and tags are links its rules and tags hold (a rule names its tests, a tag its
    // assignments): kept there once, so deleting a rule is one change, not one per test it covered.
    parts.server.tags = tags ?? [];
    parts.server.agentIds = Object.fromEntries(
      ((testAgents ?? []) as Json[]).map((agent) => [agent.agentName, agent.agentId]),
    );
    parts.server.alertRuleIds = Object.fromEntries(
      ((alertRules ?? []) as Json[]).map((rule) => [rule.ruleName, rule.ruleId]),
    );
    emit(item('test', testKey(test), test.testName, parts));
  });
  for (const [agentId, agent] of [...agents].sort(([, a], [, b]) => a.agentName.localeCompare(b.agentName)))
    emit(
      item('reference', `agent: ${agent.agentName}`, agent.agentName, {
        config: agent,
        server: { agentId },
        masked: [],
      }),
    );

  const rules = await session.alertRules.list(aid);
  await mapPool(rules, DETAIL_CONCURRENCY, async (listed) => {
    const rule: AlertRule & Json = await session.alertRules.get(listed.ruleId, aid);
    const { tests: _tests, testIds, ...rest } = rule;
    const parts = split(rest, ['ruleId']);
    parts.config.tests = (testIds ?? []).map((testId) => testNames.get(testId) ?? `test ${testId}`).sort();
    parts.server.testIds = testIds ?? [];
    emit(item('alert-rule', rule.ruleName, rule.ruleName, parts));
  });

  const windows = await session.alertSuppressionWindows.list(aid);
  await mapPool(windows, DETAIL_CONCURRENCY, async (listed) => {
    const window = (await session.alertSuppressionWindows.get(listed.alertSuppressionWindowId, aid)) as Json & {
      name: string;
      tests?: { testId: string }[];
    };
    const { tests: windowTests, ...rest } = window;
    const parts = split(rest, ['alertSuppressionWindowId']);
    parts.config.tests = (windowTests ?? []).map((test) => testNames.get(test.testId) ?? `test ${test.testId}`).sort();
    parts.server.testIds = (windowTests ?? []).map((test) => test.testId);
    emit(item('suppression-window', window.name, window.name, parts));
  });

  const dashboards = await session.dashboards.list(aid);
  await mapPool(dashboards, DETAIL_CONCURRENCY, async (listed) => {
    const dashboard = (await session.dashboards.get(listed.dashboardId, aid)) as Json & { title: string };
    const { widgets, ...rest } = dashboard;
    const parts = split(rest, ['dashboardId', 'isBuiltIn']);
    // A widget's filters name tests and agents by id: by key and name here (restore maps them back).
    const agentNames = new Map(await agentList);
    const widgetParts = ((widgets ?? []) as Json[]).map((widget) => {
      const parts = split(widget, ['id', 'widgetId']);
      const filters = parts.config.filters as Record<string, unknown> | undefined;
      if (filters && typeof filters === 'object') {
        const named = (ids: unknown, names: (id: string) => string | undefined) =>
          (Array.isArray(ids) ? ids.map(String) : []).map((id) => names(id) ?? `#${id}`).sort();
        parts.config.filters = {
          ...filters,
          ...(filters.TEST ? { TEST: named(filters.TEST, (id) => testNames.get(id)) } : {}),
          ...(filters.AGENT ? { AGENT: named(filters.AGENT, (id) => agentNames.get(id)) } : {}),
        };
        parts.server.filters = filters;
      }
      return parts;
    });
    parts.config.widgets = widgetParts.map((widget) => widget.config);
    parts.server.widgets = widgetParts.map((widget) => widget.server);
    emit(item('dashboard', dashboard.title, dashboard.title, parts));
  });

  for (const tag of await session.tags.list(aid)) {
    const { assignments, ...rest } = tag as Json & { key?: string; value?: string; objectType?: string };
    const parts = split(rest, ['id']);
    const assigned = (assignments ?? []) as { id: string; type: string }[];
    parts.config.assignments = assigned
      .map((assignment) =>
        assignment.type === 'test'
          ? (testNames.get(assignment.id) ?? `test ${assignment.id}`)
          : `${assignment.type} ${assignment.id}`,
      )
      .sort();
    parts.server.assignments = assigned;
    const key = `${String(rest.objectType ?? 'test')}: ${String(rest.key ?? '')}: ${String(rest.value ?? '')}`;
    emit(item('tag', key, `${String(rest.key ?? '')}: ${String(rest.value ?? '')}`, parts));
  }

  // Endpoint tests name their labels and agents by id: by name here (restore maps them back), the ids kept apart.
  const labelNames = new Map<string, string>();
  for await (const label of session.endpointLabels.list(aid)) {
    const parts = split(label as Json, ['id', 'labelId']);
    const name = String((label as Json).name ?? label.id);
    labelNames.set(label.id, name);
    emit(item('endpoint-label', name, name, parts));
  }
  const scheduled = await session.endpointTests.listScheduled(aid);
  const dynamic = await session.endpointTests.listDynamic(aid);
  const endpointAgents = [...scheduled, ...dynamic].some(
    (test) => test.agentSelectorConfig?.agentSelectorType === 'specific-agents',
  )
    ? await endpointAgentNames(session, aid)
    : new Map<string, string>();
  for (const [kind, tests] of [
    ['endpoint-scheduled-test', scheduled],
    ['endpoint-dynamic-test', dynamic],
  ] as const)
    for (const test of tests) {
      const parts = split(test as Json, ['testId', 'createdDate', 'isSavedEvent']);
      const selector = test.agentSelectorConfig;
      if (selector) {
        const named = (ids: string[] | undefined, names: Map<string, string>) =>
          ids?.map((id) => names.get(id) ?? `#${id}`).sort();
        parts.config.agentSelectorConfig = {
          ...selector,
          ...(selector.endpointAgentLabels
            ? { endpointAgentLabels: named(selector.endpointAgentLabels, labelNames) }
            : {}),
          ...(selector.agents ? { agents: named(selector.agents, endpointAgents) } : {}),
        };
        parts.server.agentSelectorConfig = selector;
      }
      const name = String(test.testName ?? test.testId);
      emit(item(kind, name, name, parts));
    }
  return { agents: new Map(await agentList) };
}

/** The group's endpoint agents by id and name (read only when a test names agents). */
export async function endpointAgentNames(session: PlatformSession, aid: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for await (const agent of session.endpointAgents.list(aid)) names.set(agent.id, agent.name ?? agent.id);
  return names;
}
