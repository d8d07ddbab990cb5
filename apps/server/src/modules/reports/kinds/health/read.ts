import { type PlatformAgent, type PlatformQuotas, type PlatformSession, type PlatformUsage } from '@ce/platform-client';
import type {
  HealthAlert,
  HealthDashboard,
  HealthInput,
  HealthRule,
  HealthTest,
  HealthUsage,
  HealthUser,
} from './checks.js';
import { recordOf } from '../../../../core/json.js';
import {
  collect,
  dashboardsWithWidgets,
  readable,
  rulesWithDetail,
  type Readable,
} from '../../../../report-kit/platform-reads.js';
import type {
  AgentNotificationRule,
  MeasuredAgent,
  MeasuredInput,
  RuleDetail,
  TestMeasure,
} from './checks/measured-input.js';
import {
  MEASURED_PERMISSIONS,
  measuredAgentsOf,
  readAgentNotificationRules,
  readEndpointVersions,
  readResults,
  readUnits,
  resultsWindow,
  ruleDetailOf,
} from './read-measured.js';
import { joinedChanges, readChanges, type ChangesTally } from './read-changes.js';

/** The permission each read needs, named when the platform refuses it (v7 document and the API docs). */
const PERMISSIONS = {
  users: 'View all users',
  usage: 'View Billing',
  quotas: 'Edit organization and account group quotas',
  tests: 'View tests',
  agents: 'View agents in account group',
  alerts: 'View alerts',
  dashboards: 'View dashboards',
} as const;

export interface GroupReading {
  aid: string;
  accountGroupName: string;
  users: Readable<HealthUser[]>;
  agents: Readable<PlatformAgent[]>;
  tests: Readable<HealthTest[]>;
  rules: Readable<HealthRule[]>;
  alerts: Readable<HealthAlert[]>;
  dashboards: Readable<HealthDashboard[]>;
  /** What the group's monitoring measured, when the kind reads it. */
  measured?: {
    results: Readable<TestMeasure[]>;
    agents: Readable<MeasuredAgent[]>;
    ruleDetails: Readable<RuleDetail[]>;
    agentNotificationRules: Readable<AgentNotificationRule[]>;
    /** Who changed what in the results window, summed by person. */
    changes: Readable<ChangesTally>;
  };
}

export interface HealthReading {
  input: HealthInput;
  groups: GroupReading[];
  usage: Readable<PlatformUsage['usage']>;
  quotas: Readable<PlatformQuotas>;
}

/** The last path segment of a link (`.../tests/http-server/1234` gives `1234`). */
const lastSegment = (href: string | undefined) => href?.split('?')[0]?.split('/').filter(Boolean).at(-1);

/** Dashboards' widget filters name the tests they show (`filters: {TEST: [ids]}`). */
function testIdsOfWidgets(widgets: { [key: string]: unknown }[]): string[] {
  return widgets.flatMap((widget) => {
    const filters = recordOf(widget.filters);
    const tests = filters.TEST ?? filters.test;
    return Array.isArray(tests) ? tests.map(String) : [];
  });
}

/** Reads one account group: each list once, all at once (the client paces them at the organization's limit). */
async function readGroup(
  session: PlatformSession,
  group: { aid: string; accountGroupName: string },
  alertDays: { started: number; cleared: number },
  measure: { from: number; to: number } | undefined,
  signal?: AbortSignal,
): Promise<GroupReading> {
  const { aid, accountGroupName } = group;
  const name = (what: string) => `${what} of ${accountGroupName}`;
  // With measurements, the rules are read with their detail (tests, notifications) and the agents with their tests.
  const rulesRead = readable(name('the alert rules'), PERMISSIONS.alerts, () =>
    measure ? rulesWithDetail(session, aid, signal) : session.alertRules.list(aid, signal),
  );
  const agentNotificationRules = measure
    ? readAgentNotificationRules(session, aid, accountGroupName, signal)
    : undefined;
  const testsRead = readable(name('the tests'), PERMISSIONS.tests, async () => {
    const [all, http, pageLoad] = await Promise.all([
      session.tests.list(aid, signal),
      session.tests.listByType('http-server', aid, signal),
      session.tests.listByType('page-load', aid, signal),
    ]);
    const limits = new Map<string, number>();
    for (const test of http) if (typeof test.httpTimeLimit === 'number') limits.set(test.testId, test.httpTimeLimit);
    for (const test of pageLoad)
      if (typeof test.pageLoadTimeLimit === 'number') limits.set(test.testId, test.pageLoadTimeLimit);
    return all.map((test): HealthTest => ({
      testId: test.testId,
      testName: test.testName,
      type: test.type,
      enabled: test.enabled !== false,
      alertsEnabled: test.alertsEnabled !== false,
      createdDate: test.createdDate,
      modifiedDate: test.modifiedDate,
      ...(limits.has(test.testId) ? { timeLimit: limits.get(test.testId) } : {}),
      accountGroup: accountGroupName,
    }));
  });
  // The results follow the tests as soon as they are read, while the other lists are still being read.
  const resultsRead = measure
    ? testsRead.then((tests) =>
        tests.ok
          ? readable(name('the test results'), MEASURED_PERMISSIONS.results, () =>
              readResults(session, aid, tests.value, measure, signal),
            )
          : tests,
      )
    : undefined;
  // Who changed what follows the tests too: the audit log names tests by name, their histories are read by id.
  const changesRead = measure
    ? testsRead.then((tests) => readChanges(session, aid, accountGroupName, tests, measure, signal))
    : undefined;
  // Every read started is awaited in the one Promise.all: a failure of one never leaves another unobserved.
  const [users, agents, tests, rules, alerts, dashboards, results, agentRules, rulesWith, changes] = await Promise.all([
    readable(name('the users'), PERMISSIONS.users, async () => {
      const detail = await session.accountGroups.get(aid, ['user'], signal);
      return (detail.users ?? []).map((user): HealthUser => ({
        uid: user.uid,
        name: user.name ?? user.email,
        email: user.email,
        lastLogin: user.lastLogin,
        dateRegistered: user.dateRegistered,
        admin: (user.roles ?? []).some((role) => role.hasManagementPermissions === true),
        roles: (user.roles ?? []).map((role) => role.name),
        accountGroups: [accountGroupName],
      }));
    }),
    readable(name('the agents'), PERMISSIONS.agents, () =>
      session.agents.list({ aid, ...(measure ? { expand: ['test-ids'] } : {}), signal }),
    ),
    testsRead,
    rulesRead.then((read): Readable<HealthRule[]> =>
      read.ok
        ? {
            ok: true,
            value: read.value.map((rule) => ({
              ruleId: rule.ruleId,
              ruleName: rule.ruleName,
              severity: rule.severity ?? 'unknown',
              accountGroup: accountGroupName,
            })),
          }
        : read,
    ),
    readable(name('the alerts'), PERMISSIONS.alerts, async () => {
      // Alerts that started in the longest window, and those that ended in the activity window (started earlier).
      const [started, cleared] = await Promise.all([
        collect(session.alerts.list({ aid, range: { window: `${alertDays.started}d` }, signal })),
        collect(session.alerts.list({ aid, range: { window: `${alertDays.cleared}d` }, state: 'clear', signal })),
      ]);
      const byId = new Map([...started, ...cleared].map((alert) => [alert.id, alert]));
      return [...byId.values()].flatMap((alert): HealthAlert[] =>
        alert.startDate && alert.alertRuleId
          ? [
              {
                id: alert.id,
                ruleId: alert.alertRuleId,
                testId: lastSegment(alert._links?.test?.href),
                severity: alert.alertSeverity ?? 'unknown',
                startDate: alert.startDate,
                // An alert still active has no end; a cleared one without an end date ends at its start plus duration.
                endDate:
                  alert.endDate ??
                  (alert.alertState === 'clear' && alert.duration !== undefined
                    ? new Date(Date.parse(alert.startDate) + alert.duration * 1000).toISOString()
                    : undefined),
                accountGroup: accountGroupName,
              },
            ]
          : [],
      );
    }),
    readable(name('the dashboards'), PERMISSIONS.dashboards, async () => {
      return (await dashboardsWithWidgets(session, aid, signal)).map((dashboard): HealthDashboard => ({
        dashboardId: dashboard.dashboardId,
        title: dashboard.title,
        widgetCount: dashboard.widgets?.length ?? 0,
        testIds: testIdsOfWidgets(dashboard.widgets ?? []),
        accountGroup: accountGroupName,
      }));
    }),
    resultsRead,
    agentNotificationRules,
    rulesRead,
    changesRead,
  ]);
  const base = { aid, accountGroupName, users, agents, tests, rules, alerts, dashboards };
  if (!results || !agentRules || !changes) return base;
  return {
    ...base,
    measured: {
      results,
      agents: agents.ok ? { ok: true, value: measuredAgentsOf(agents.value, accountGroupName) } : agents,
      ruleDetails: rulesWith.ok
        ? { ok: true, value: rulesWith.value.map((rule) => ruleDetailOf(rule, accountGroupName)) }
        : rulesWith,
      agentNotificationRules: agentRules,
      changes,
    },
  };
}

/** Joins the groups' reads of one list: all of them, or the first refusal. */
function joined<T>(groups: GroupReading[], pick: (group: GroupReading) => Readable<T[]>): Readable<T[]> {
  const out: T[] = [];
  for (const group of groups) {
    const read = pick(group);
    if (!read.ok) return read;
    for (const item of read.value) out.push(item);
  }
  return { ok: true, value: out };
}

/** Users appear once, whatever the number of groups they belong to. */
function mergedUsers(groups: GroupReading[]): Readable<HealthUser[]> {
  const read = joined(groups, (group) => group.users);
  if (!read.ok) return read;
  const byUid = new Map<string, HealthUser>();
  for (const user of read.value) {
    const known = byUid.get(user.uid);
    byUid.set(
      user.uid,
      known
        ? {
            ...known,
            admin: known.admin || user.admin,
            roles: [...new Set([...known.roles, ...user.roles])],
            accountGroups: [...known.accountGroups, ...user.accountGroups],
          }
        : user,
    );
  }
  return { ok: true, value: [...byUid.values()] };
}

export interface ReadOptions {
  session: PlatformSession;
  accountGroups: { aid: string; accountGroupName: string }[];
  now: Date;
  /** The longest window any check or table looks back over, and the activity window, in days. */
  alertDays: { started: number; cleared: number };
  /** Reads what the monitoring measured too (results, rule details, agents' health, units): AHC v7 and AHC-IE. */
  measured?: boolean;
  progress(done: number, total: number): Promise<void>;
  signal?: AbortSignal;
}

/** The groups' measurements joined: each list all groups', or the first refusal. */
function measuredInput(
  groups: GroupReading[],
  usage: Readable<PlatformUsage['usage']>,
  units: MeasuredInput['units'],
  versions: Readable<{ version: string; agents: number }[]>,
  window: { from: number; to: number },
): MeasuredInput {
  const refused = { ok: false as const, reason: 'The measurements were not read.' };
  const pick = <T>(choose: (measured: NonNullable<GroupReading['measured']>) => Readable<T[]>) =>
    joined(groups, (group) => (group.measured ? choose(group.measured) : refused));
  return {
    ...window,
    results: pick((measured) => measured.results),
    agents: pick((measured) => measured.agents),
    ruleDetails: pick((measured) => measured.ruleDetails),
    agentNotificationRules: pick((measured) => measured.agentNotificationRules),
    endpoints: usage.ok
      ? {
          ok: true,
          value: {
            inUse: usage.value.endpointAgentsUsed ?? 0,
            ...(usage.value.quota?.endpointAgentsIncluded
              ? { licensed: usage.value.quota.endpointAgentsIncluded }
              : {}),
            ...(versions.ok ? { versions: versions.value } : {}),
          },
        }
      : usage,
    units,
    changes: joinedChanges(
      groups.map((group) => group.measured?.changes ?? { ok: false, reason: 'Who changed what was not read.' }),
    ),
  };
}

/** Reads everything the checks and tables need: per account group, then the organization's usage and quotas. */
export async function readHealth(options: ReadOptions): Promise<HealthReading> {
  const { session, signal } = options;
  const total = options.accountGroups.length + 1;
  const groups: GroupReading[] = [];
  const window = options.measured ? resultsWindow(options.now) : undefined;
  for (const [index, group] of options.accountGroups.entries()) {
    groups.push(await readGroup(session, group, options.alertDays, window, signal));
    await options.progress(index + 1, total);
  }
  const [usage, quotas] = await Promise.all([
    readable('the usage', PERMISSIONS.usage, async () => (await session.usage.get({ expand: ['test'], signal })).usage),
    readable('the quotas', PERMISSIONS.quotas, () => session.usage.quotas(signal)),
  ]);
  const healthUsage: Readable<HealthUsage> = usage.ok
    ? {
        ok: true,
        value: {
          cloudUnitsUsed: usage.value.cloudUnitsUsed ?? 0,
          cloudUnitsProjected: usage.value.cloudUnitsProjected ?? 0,
          cloudUnitsIncluded: Number(usage.value.quota?.cloudUnitsIncluded) || undefined,
          testUnits: new Map(
            (usage.value.tests ?? []).map((test) => [String(test.testId), Number(test.cloudUnitsUsed) || 0]),
          ),
        },
      }
    : usage;
  const groupNames = new Map(groups.map((group) => [group.aid, group.accountGroupName]));
  const measured = window
    ? measuredInput(
        groups,
        usage,
        await readUnits(session, usage, groupNames, signal),
        // The versions go with the licences: without the usage the endpoint check is unknown and they are not read.
        usage.ok ? await readEndpointVersions(session, options.accountGroups, signal) : usage,
        window,
      )
    : undefined;
  return {
    input: {
      now: options.now,
      users: mergedUsers(groups),
      tests: joined(groups, (group) => group.tests),
      rules: joined(groups, (group) => group.rules),
      alerts: joined(groups, (group) => group.alerts),
      dashboards: joined(groups, (group) => group.dashboards),
      usage: healthUsage,
      ...(measured ? { measured } : {}),
    },
    groups,
    usage,
    quotas,
  };
}
