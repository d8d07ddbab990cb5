import { AHC_TABLES, type HealthTable } from '@ce/contract';
import { PLATFORM_TEST_TYPES } from '@ce/platform-client';
import { activeShare } from './checks.js';
import type { HealthReading } from './read.js';

export type AhcTable = (typeof AHC_TABLES)[number];
const DAY_MS = 86_400_000;

const unavailable = (title: string, columns: string[], reason: string): HealthTable => ({
  title,
  columns,
  rows: [],
  unavailable: reason,
});

const numberOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function planOverview(reading: HealthReading): HealthTable {
  const title = 'ThousandEyes plan overview';
  const columns = ['Measure', 'Used', 'Included', 'Projected', 'Next billing period'];
  if (!reading.usage.ok) return unavailable(title, columns, reading.usage.reason);
  const usage = reading.usage.value;
  const quota = usage.quota ?? {};
  const disabledUnits = (() => {
    const tests = reading.input.tests.ok ? reading.input.tests.value : [];
    const disabled = new Set(tests.filter((test) => !test.enabled).map((test) => test.testId));
    return (usage.tests ?? [])
      .filter((test) => disabled.has(String(test.testId)))
      .reduce((sum, test) => sum + (numberOf(test.cloudUnitsUsed) ?? 0), 0);
  })();
  return {
    title,
    columns,
    rows: [
      [
        'Cloud units',
        numberOf(usage.cloudUnitsUsed),
        numberOf(quota.cloudUnitsIncluded),
        numberOf(usage.cloudUnitsProjected),
        numberOf(usage.cloudUnitsNextBillingPeriod),
      ],
      [
        'Enterprise units',
        numberOf(usage.enterpriseUnitsUsed),
        numberOf(quota.enterpriseUnitsIncluded),
        numberOf(usage.enterpriseUnitsProjected),
        numberOf(usage.enterpriseUnitsNextBillingPeriod),
      ],
      ['Enterprise agents', numberOf(usage.enterpriseAgentsUsed), numberOf(quota.enterpriseAgentsIncluded), null, null],
      ['Endpoint agents', numberOf(usage.endpointAgentsUsed), numberOf(quota.endpointAgentsIncluded), null, null],
      ['Cloud units used by disabled tests (selected groups)', disabledUnits, null, null, null],
    ],
  };
}

function quotas(reading: HealthReading): HealthTable {
  const title = 'Quotas';
  const columns = ['Scope', 'Account group', 'Quota (cloud units)', 'Used this period (cloud units)'];
  if (!reading.quotas.ok) return unavailable(title, columns, reading.quotas.reason);
  const usedByAid = new Map<string, number>();
  if (reading.usage.ok)
    for (const test of reading.usage.value.tests ?? [])
      usedByAid.set(String(test.aid), (usedByAid.get(String(test.aid)) ?? 0) + (numberOf(test.cloudUnitsUsed) ?? 0));
  const selected = new Map(reading.groups.map((group) => [group.aid, group.accountGroupName]));
  const rows: HealthTable['rows'] = [];
  for (const entry of reading.quotas.value.quotas) {
    const organization = entry.organizationQuota ?? {};
    rows.push([
      'Organization',
      null,
      numberOf(organization.value),
      reading.usage.ok ? numberOf(reading.usage.value.cloudUnitsUsed) : null,
    ]);
    for (const group of entry.accountGroupQuotas ?? []) {
      const aid = String(group.aid);
      if (!selected.has(aid)) continue;
      rows.push([
        'Account group',
        selected.get(aid) ?? aid,
        numberOf(group.value),
        reading.usage.ok ? (usedByAid.get(aid) ?? 0) : null,
      ]);
    }
  }
  return { title, columns, rows };
}

function deploymentSummary(reading: HealthReading): HealthTable {
  const title = 'Deployment summary';
  const columns = [
    'Account group',
    'Enterprise agents online',
    'Enterprise agents offline',
    'Enterprise agents disabled',
    'Cloud agents used',
    ...PLATFORM_TEST_TYPES.map((type) => `${type} tests`),
    'Other tests',
    'Tests enabled',
    'Tests disabled',
  ];
  const rows: HealthTable['rows'] = [];
  for (const group of reading.groups) {
    if (!group.agents.ok || !group.tests.ok) {
      rows.push([group.accountGroupName, ...columns.slice(1).map(() => null)]);
      continue;
    }
    const enterprise = group.agents.value.filter((agent) => agent.agentType !== 'cloud');
    const state = (agent: (typeof enterprise)[number]) =>
      agent.agentState ?? (agent.enabled === false ? 'disabled' : 'online');
    const tests = group.tests.value;
    const byType = (type: string) => tests.filter((test) => test.type === type).length;
    rows.push([
      group.accountGroupName,
      enterprise.filter((agent) => state(agent) === 'online').length,
      enterprise.filter((agent) => state(agent) === 'offline').length,
      enterprise.filter((agent) => state(agent) === 'disabled').length,
      group.agents.value.filter((agent) => agent.agentType === 'cloud').length,
      ...PLATFORM_TEST_TYPES.map(byType),
      tests.filter((test) => !PLATFORM_TEST_TYPES.some((type) => type === test.type)).length,
      tests.filter((test) => test.enabled).length,
      tests.filter((test) => !test.enabled).length,
    ]);
  }
  const refused = reading.groups.find((group) => !group.agents.ok || !group.tests.ok);
  const reason =
    refused && (!refused.agents.ok ? refused.agents.reason : !refused.tests.ok ? refused.tests.reason : '');
  return { title, columns, rows, ...(reason ? { unavailable: reason } : {}) };
}

function usersRoles(reading: HealthReading, now: Date): HealthTable {
  const title = 'Users and roles';
  const columns = ['Account group', 'Name', 'Email', 'Roles', 'Last sign-in', 'Days since sign-in'];
  const refused = reading.groups.find((group) => !group.users.ok);
  if (refused && !refused.users.ok) return unavailable(title, columns, refused.users.reason);
  const rows: HealthTable['rows'] = [];
  for (const group of reading.groups) {
    if (!group.users.ok) continue;
    for (const user of group.users.value) {
      const at = user.lastLogin ? Date.parse(user.lastLogin) : Number.NaN;
      rows.push([
        group.accountGroupName,
        user.name,
        user.email,
        user.roles.join(', '),
        user.lastLogin ? user.lastLogin.slice(0, 10) : 'never',
        Number.isNaN(at) ? null : Math.floor((now.getTime() - at) / DAY_MS),
      ]);
    }
  }
  return { title, columns, rows };
}

function alertActivity(reading: HealthReading, now: Date, days: number): HealthTable {
  const title = `Alert activity summary (last ${days} days)`;
  const columns = [
    'Account group',
    'Alert rule',
    'Severity',
    'Alerts started',
    'Active now',
    'Active share of the window',
  ];
  const { alerts, rules } = reading.input;
  if (!alerts.ok) return unavailable(title, columns, alerts.reason);
  const names = new Map(rules.ok ? rules.value.map((rule) => [rule.ruleId, rule]) : []);
  const to = now.getTime();
  const from = to - days * DAY_MS;
  const byRule = new Map<string, typeof alerts.value>();
  for (const alert of alerts.value) {
    const end = alert.endDate ? Date.parse(alert.endDate) : to;
    if (end < from) continue;
    byRule.set(alert.ruleId, [...(byRule.get(alert.ruleId) ?? []), alert]);
  }
  const severityOrder = ['critical', 'major', 'minor', 'info', 'unknown'];
  const rows = [...byRule]
    .map(([ruleId, list]): { severity: string; row: HealthTable['rows'][number] } => {
      const rule = names.get(ruleId);
      const severity = rule?.severity ?? list[0]?.severity ?? 'unknown';
      return {
        severity,
        row: [
          rule?.accountGroup ?? list[0]?.accountGroup ?? '',
          rule?.ruleName ?? `Rule ${ruleId}`,
          severity,
          list.filter((alert) => Date.parse(alert.startDate) >= from).length,
          list.filter((alert) => !alert.endDate).length,
          `${Math.round(activeShare(list, from, to) * 1000) / 10}%`,
        ],
      };
    })
    .sort(
      (a, b) =>
        severityOrder.indexOf(a.severity) - severityOrder.indexOf(b.severity) || Number(b.row[3]) - Number(a.row[3]),
    )
    .map((entry) => entry.row);
  return { title, columns, rows };
}

/** The AHC tables asked for, in the contract's order. */
export function buildTables(
  reading: HealthReading,
  wanted: readonly AhcTable[],
  now: Date,
  alertDays: number,
): Partial<Record<AhcTable, HealthTable>> {
  const builders: Record<AhcTable, () => HealthTable> = {
    thousandeyes_plan_overview: () => planOverview(reading),
    quotas: () => quotas(reading),
    deployment_summary: () => deploymentSummary(reading),
    users_roles: () => usersRoles(reading, now),
    alert_activity_summary: () => alertActivity(reading, now, alertDays),
  };
  return Object.fromEntries(AHC_TABLES.filter((key) => wanted.includes(key)).map((key) => [key, builders[key]()]));
}
