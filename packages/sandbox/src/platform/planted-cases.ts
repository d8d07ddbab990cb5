import type { AlertRule, EndpointLabel, Test, Widget } from './model.js';
import { DAY } from './world-tables.js';
import type { World } from './world.js';

/**
 * Cases on both sides of every health-check threshold, for both profiles, in the first organization's
 * first account group (added after the seeded data, so nothing else moves): users who signed in 2, 35 and
 * 60 days ago and never; rules triggered 10 and 11 times in the last 30 days; rules whose alerts were
 * active 49% and 51% of the last 30 days; disabled tests created 179 and 181 days ago; raised time limits
 * left for 60 days and changed 10 days ago; dashboards with one and two widgets.
 */
export function plantHealthCases(world: World, now: number, nextId: () => string): void {
  const org = world.organizations[0];
  const group = world.accountGroups.find((candidate) => candidate.orgId === org?.orgId);
  if (!org || !group) return;
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ago = (days: number) => iso(now - days * DAY);
  const hex = (value: number, length: number) => value.toString(16).padStart(length, '0');

  const orgUsers = world.users.filter((user) => user.orgId === org.orgId);
  const planted: [number, number | undefined, string][] = [
    [2, 2, '3'],
    [3, 35, '3'],
    [4, 60, '2'],
    [5, undefined, '4'],
  ];
  for (const [index, days, roleId] of planted) {
    const user = orgUsers[index];
    if (!user) continue;
    user.lastLogin = days === undefined ? undefined : ago(days);
    user.dateRegistered = ago(400);
    user.roleIdsByAid[group.aid] = [roleId];
  }

  const author = orgUsers[0]?.email ?? 'admin@example.com';
  const test = (
    name: string,
    options: { created: number; modified: number; enabled: boolean; alerts: boolean; limit: number },
  ) => {
    const created: Test = {
      testId: nextId(),
      aid: group.aid,
      type: 'http-server',
      testName: name,
      interval: 300,
      enabled: options.enabled,
      alertsEnabled: options.alerts,
      description: '',
      createdBy: author,
      createdDate: ago(options.created),
      modifiedBy: author,
      modifiedDate: ago(options.modified),
      agentIds: world.agents
        .filter((agent) => agent.agentType === 'cloud')
        .slice(0, 2)
        .map((agent) => agent.agentId),
      alertRuleIds: [],
      config: {
        url: `https://${name.toLowerCase().replace(/[^a-z]+/g, '-')}.example.com/`,
        protocol: 'tcp',
        httpTimeLimit: options.limit,
      },
    };
    world.tests.push(created);
    return created;
  };
  test('Legacy intranet portal', { created: 181, modified: 181, enabled: false, alerts: false, limit: 5 });
  test('Partner extranet pilot', { created: 179, modified: 179, enabled: false, alerts: false, limit: 5 });
  const slow = test('Payroll portal', { created: 300, modified: 60, enabled: true, alerts: true, limit: 30 });
  const tuned = test('Expense app', { created: 300, modified: 10, enabled: true, alerts: true, limit: 20 });

  const rule = (ruleName: string, severity: AlertRule['severity'], tests: Test[]) => {
    const created: AlertRule = {
      ruleId: nextId(),
      aid: group.aid,
      ruleName,
      expression: '((errorType != "None"))',
      notifyOnClear: true,
      isDefault: false,
      alertType: 'http-server',
      alertGroupType: 'cloud-enterprise',
      minimumSources: 1,
      roundsViolatingMode: 'exact',
      roundsViolatingOutOf: 1,
      roundsViolatingRequired: 1,
      severity,
      description: '',
      testIds: tests.map((item) => item.testId),
      notificationEmails: [`noc@${org.slug}.example.com`],
    };
    world.alertRules.push(created);
    for (const item of tests) item.alertRuleIds.push(created.ruleId);
    return created;
  };
  let alertNumber = 0;
  const alert = (ruleOf: AlertRule, testOf: Test, start: number, end: number | undefined) => {
    alertNumber += 1;
    world.alerts.push({
      id: `${hex(0xbeef0000 + alertNumber, 8)}-0000-4000-a000-${hex(Number(ruleOf.ruleId), 12)}`,
      aid: group.aid,
      alertType: ruleOf.alertType,
      alertRuleId: ruleOf.ruleId,
      alertState: end === undefined ? 'trigger' : 'clear',
      alertSeverity: ruleOf.severity,
      startDate: iso(start),
      ...(end === undefined ? {} : { endDate: iso(end) }),
      violationCount: 1,
      duration: Math.round(((end ?? now) - start) / 1000),
      suppressed: false,
      testId: testOf.testId,
    });
  };
  const ten = rule('Payroll availability', 'minor', [slow]);
  const eleven = rule('Expense app errors', 'major', [tuned]);
  for (let index = 0; index < 11; index++) {
    if (index < 10) alert(ten, slow, now - (2 + index * 2.5) * DAY, now - (2 + index * 2.5) * DAY + 600_000);
    alert(eleven, tuned, now - (1 + index * 2.5) * DAY, now - (1 + index * 2.5) * DAY + 600_000);
  }
  const mostly = rule('Branch VPN reachability', 'critical', [slow]);
  alert(mostly, slow, now - 0.51 * 30 * DAY, undefined);
  const half = rule('Certificate expiry', 'info', [tuned]);
  alert(half, tuned, now - 20 * DAY, now - 20 * DAY + 0.49 * 30 * DAY);

  const widget = (title: string, testIds: string[]): Widget => ({
    id: `${hex(0xa000 + alertNumber++, 4)}-${hex(0xb000, 4)}`,
    type: 'Time Series: Line',
    title,
    visualMode: 'Full',
    dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
    metricGroup: 'HTTP_SERVER',
    metric: 'WEB_AVAILABILITY',
    filters: { TEST: testIds },
  });
  const dashboard = (title: string, widgets: Widget[]) =>
    world.dashboards.push({
      dashboardId: `${hex(Number(group.aid), 12)}${hex(world.dashboards.length, 12)}`,
      aid: group.aid,
      title,
      description: `Health of ${group.accountGroupName}`,
      isBuiltIn: false,
      isPrivate: false,
      createdBy: orgUsers[0]?.uid ?? '1',
      modifiedDate: ago(20),
      widgets,
    });
  dashboard('Payroll at a glance', [widget('Payroll availability', [slow.testId])]);
  dashboard('Expenses', [
    widget('Expense availability', [tuned.testId]),
    widget('Expense response time', [tuned.testId]),
  ]);
}

/**
 * Widget filters naming tests, agents and tags of the dashboard's own account group (test names repeat
 * across groups, so pushing a dashboard elsewhere must remap them by name), and a grid layout. Only tests
 * that are enabled and alert are named, so no health finding changes. Added without drawing from the seed.
 */
export function addDashboardReferences(world: World): void {
  const cloudAgents = world.agents.filter((agent) => agent.agentType === 'cloud');
  for (const [index, dashboard] of world.dashboards.entries()) {
    const tests = world.tests.filter((test) => test.aid === dashboard.aid && test.enabled && test.alertsEnabled);
    const agents = world.agents.filter(
      (agent) => agent.agentType === 'enterprise' && agent.aids.includes(dashboard.aid),
    );
    const tag = world.tags.find((candidate) => candidate.aid === dashboard.aid && candidate.key === 'environment');
    const pick = <T>(list: T[], offset: number) => (list.length ? [list[(index + offset) % list.length] as T] : []);
    dashboard.widgets = dashboard.widgets.map((widget, position) => ({
      ...widget,
      filters: {
        TEST: [...new Set([...pick(tests, position), ...pick(tests, position + 3)].map((test) => test.testId))],
        AGENT: [...pick(cloudAgents, position), ...pick(agents, position)].map((agent) => agent.agentId),
        ...(tag ? { TAG: [tag.id] } : {}),
      },
    }));
    dashboard.layout = {
      type: 'grid',
      details: {
        widgetPositioning: dashboard.widgets.map((widget, position) => ({
          id: widget.id,
          x: (position % 2) * 6,
          y: Math.floor(position / 2) * 4,
          w: 6,
          h: 4,
        })),
      },
    };
  }
}

/**
 * Endpoint agent labels (Windows laptops; Macs or one named host), a selector on every scheduled endpoint test (all
 * agents, a label, or three named agents, in turn) and a dynamic Webex test per account group. Added after
 * the seeded data, without drawing from the seed, so nothing else moves.
 */
export function addEndpointSelection(world: World, now: number, nextId: () => string): void {
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const group of world.accountGroups) {
    const agents = world.endpointAgents.filter((agent) => agent.aid === group.aid);
    const labels: EndpointLabel[] = [
      {
        id: `label-${group.aid}-windows`,
        aid: group.aid,
        name: 'Windows laptops',
        color: '#1d4ed8',
        matchType: 'and',
        filters: [{ key: 'platform', values: ['windows'], mode: 'in' }],
      },
      {
        id: `label-${group.aid}-macs`,
        aid: group.aid,
        name: 'Macs and the help desk',
        color: '#d97706',
        matchType: 'or',
        filters: [
          { key: 'platform', values: ['mac'], mode: 'in' },
          { key: 'hostname', values: agents.slice(0, 1).map((agent) => agent.computerName), mode: 'in' },
        ],
      },
    ];
    world.endpointLabels.push(...labels);
    world.endpointTests
      .filter((test) => test.aid === group.aid)
      .forEach((test, index) => {
        test.agentSelectorConfig =
          index % 3 === 0
            ? { agentSelectorType: 'all-agents', maxMachines: 25 }
            : index % 3 === 1
              ? { agentSelectorType: 'agent-labels', endpointAgentLabels: [labels[0]?.id ?? ''], maxMachines: 25 }
              : {
                  agentSelectorType: 'specific-agents',
                  agents: agents.slice(0, 3).map((agent) => agent.id),
                  maxMachines: 3,
                };
      });
    world.endpointDynamicTests.push({
      testId: nextId(),
      aid: group.aid,
      testName: 'Webex meetings',
      application: 'webex',
      interval: 300,
      isEnabled: true,
      createdDate: iso(now - 90 * DAY),
      agentSelectorConfig: {
        agentSelectorType: 'agent-labels',
        endpointAgentLabels: [labels[0]?.id ?? ''],
        maxMachines: 50,
      },
    });
  }
}
