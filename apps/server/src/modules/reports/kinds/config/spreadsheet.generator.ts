import type { Readable } from '../../../../report-kit/platform-reads.js';
import { escapeMarkdown } from '../../../../report-kit/markdown.js';
import { streamWorkbook, type CellValue, type SheetWriter } from '../../../../report-kit/stream-workbook.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from '../../report-generator.js';
import { readGroupConfig, readOrganizationConfig, type ConfigPart, type GroupConfig } from './read.js';
import { configValue } from './tests-config.generator.js';

const ALL_PARTS: ReadonlySet<ConfigPart> = new Set([
  'tests',
  'agents',
  'rules',
  'tags',
  'windows',
  'dashboards',
  'users',
  'endpoint',
]);

const date = (value: string | undefined): CellValue => (value ? new Date(value) : null);
const count = <T>(read: Readable<T[]>) => (read.ok ? read.value.length : null);
const target = (test: Record<string, unknown>) =>
  String(test.url ?? test.server ?? test.domain ?? test.prefix ?? '') +
  (test.port !== undefined && test.server !== undefined ? `:${String(test.port)}` : '');

/** Rows of one list across the groups; a refused list writes its reason once, in the first column. */
function rowsOf<T>(
  writer: SheetWriter,
  groups: GroupConfig[],
  pick: (group: GroupConfig) => Readable<T[]>,
  row: (group: GroupConfig, item: T) => CellValue[] | CellValue[][],
): void {
  for (const group of groups) {
    const read = pick(group);
    if (!read.ok) {
      writer.row([group.accountGroupName, read.reason]);
      continue;
    }
    for (const item of read.value) {
      const written = row(group, item);
      if (Array.isArray(written[0])) for (const line of written as CellValue[][]) writer.row(line);
      else writer.row(written as CellValue[]);
    }
  }
}

/**
 * The 12-tab configuration workbook of the chosen account groups: each list read once per group, then
 * the organization's usage and quotas; written tab by tab with the streaming writer (headers frozen,
 * filters on, widths set, dates as dates).
 */
export const configSpreadsheetGenerator: ReportGenerator = async (context) => {
  const groups: GroupConfig[] = [];
  const total = context.accountGroups.length + 2;
  for (const [index, group] of context.accountGroups.entries()) {
    groups.push(await readGroupConfig(context.platform, group, ALL_PARTS, context.signal));
    await context.progress(index + 1, total);
  }
  const organization = await readOrganizationConfig(context.platform, context.signal);
  await context.progress(total - 1, total);

  const workbook = await streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Tab', width: 32 },
      { header: 'Rows', width: 10 },
      { header: 'Notes', width: 80 },
    ]);
    const sum = (pick: (group: GroupConfig) => number | null) =>
      groups.reduce((total, group) => total + (pick(group) ?? 0), 0);
    const summaryRows: [string, number, string][] = [
      [
        'Account Groups',
        groups.length,
        `${context.organization.name}, generated ${context.now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      ],
      ['Users and Roles', sum((group) => count(group.users)), ''],
      ['Cloud and Enterprise Agents', sum((group) => count(group.agents)), ''],
      ['Tests', sum((group) => count(group.tests)), ''],
      [
        'Test Agents',
        sum((group) => (group.tests.ok ? group.tests.value.reduce((n, test) => n + test.agents.length, 0) : 0)),
        'one row per test and agent',
      ],
      ['Alert Rules', sum((group) => count(group.rules)), ''],
      ['Alert Suppression Windows', sum((group) => count(group.windows)), ''],
      [
        'Dashboards and Widgets',
        sum((group) =>
          group.dashboards.ok
            ? group.dashboards.value.reduce((n, board) => n + Math.max(1, board.widgets?.length ?? 0), 0)
            : 0,
        ),
        'one row per widget',
      ],
      ['Tags', sum((group) => count(group.tags)), ''],
      [
        'Endpoint Agents and Tests',
        sum((group) => (count(group.endpointAgents) ?? 0) + (count(group.endpointTests) ?? 0)),
        '',
      ],
      ['Usage and Quotas', 0, organization.usage.ok ? '' : organization.usage.reason],
    ];
    for (const row of summaryRows) summary.row(row);
    summary.done();

    const accountGroups = sheet('Account Groups', [
      { header: 'Account group id', width: 16 },
      { header: 'Account group', width: 36 },
      { header: 'Tests', width: 8 },
      { header: 'Agents', width: 8 },
      { header: 'Alert rules', width: 10 },
      { header: 'Dashboards', width: 10 },
      { header: 'Users', width: 8 },
      { header: 'Endpoint agents', width: 10 },
    ]);
    for (const group of groups)
      accountGroups.row([
        group.aid,
        group.accountGroupName,
        count(group.tests),
        count(group.agents),
        count(group.rules),
        count(group.dashboards),
        count(group.users),
        count(group.endpointAgents),
      ]);
    accountGroups.done();

    const users = sheet('Users and Roles', [
      { header: 'Account group', width: 30 },
      { header: 'User id', width: 12 },
      { header: 'Name', width: 26 },
      { header: 'Email', width: 34 },
      { header: 'Roles', width: 30 },
      { header: 'Last sign-in', width: 18 },
      { header: 'Registered', width: 18 },
    ]);
    rowsOf(
      users,
      groups,
      (group) => group.users,
      (group, user) => [
        group.accountGroupName,
        user.uid,
        user.name ?? '',
        user.email,
        (user.roles ?? []).map((role) => role.name).join(', '),
        date(user.lastLogin),
        date(user.dateRegistered),
      ],
    );
    users.done();

    const agents = sheet('Cloud and Enterprise Agents', [
      { header: 'Account group', width: 30 },
      { header: 'Agent id', width: 10 },
      { header: 'Agent', width: 28 },
      { header: 'Type', width: 12 },
      { header: 'Location', width: 24 },
      { header: 'Country', width: 8 },
      { header: 'State', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'IP addresses', width: 20 },
      { header: 'Public IP addresses', width: 20 },
      { header: 'Last seen', width: 18 },
      { header: 'Tests in this group', width: 10 },
    ]);
    rowsOf(
      agents,
      groups,
      (group) => group.agents,
      (group, agent) => {
        const testsHere = group.tests.ok
          ? new Set(group.tests.value.map((test) => test.test.testId))
          : new Set<string>();
        return [
          group.accountGroupName,
          agent.agentId,
          agent.agentName,
          agent.agentType,
          agent.location ?? '',
          agent.countryId ?? '',
          agent.agentState ?? '',
          agent.enabled !== false,
          (agent.ipAddresses ?? []).join(', '),
          (agent.publicIpAddresses ?? []).join(', '),
          date(agent.lastSeen),
          (agent.testIds ?? []).filter((id) => testsHere.has(id)).length,
        ];
      },
    );
    agents.done();

    const tests = sheet('Tests', [
      { header: 'Account group', width: 30 },
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 36 },
      { header: 'Type', width: 16 },
      { header: 'Target', width: 36 },
      { header: 'Interval (s)', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'Alerts enabled', width: 8 },
      { header: 'Agents', width: 8 },
      { header: 'Alert rules', width: 30 },
      { header: 'Tags', width: 30 },
      { header: 'Created', width: 18 },
      { header: 'Modified', width: 18 },
      { header: 'Description', width: 40 },
    ]);
    rowsOf(
      tests,
      groups,
      (group) => group.tests,
      (group, { test, agents: on, rules, tags }) => [
        group.accountGroupName,
        test.testId,
        test.testName,
        test.type,
        target(test as Record<string, unknown>),
        test.interval ?? null,
        test.enabled !== false,
        test.alertsEnabled !== false,
        on.length,
        rules.map((rule) => rule.ruleName).join(', '),
        tags.join(', '),
        date(test.createdDate),
        date(test.modifiedDate),
        test.description ?? '',
      ],
    );
    tests.done();

    const testAgents = sheet('Test Agents', [
      { header: 'Account group', width: 30 },
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 36 },
      { header: 'Agent id', width: 10 },
      { header: 'Agent', width: 28 },
      { header: 'Agent type', width: 12 },
      { header: 'Location', width: 24 },
    ]);
    rowsOf(
      testAgents,
      groups,
      (group) => group.tests,
      (group, { test, agents: on }) =>
        on.map((agent) => [
          group.accountGroupName,
          test.testId,
          test.testName,
          agent.agentId,
          agent.agentName,
          agent.agentType,
          agent.location,
        ]),
    );
    testAgents.done();

    const rules = sheet('Alert Rules', [
      { header: 'Account group', width: 30 },
      { header: 'Rule id', width: 10 },
      { header: 'Rule', width: 32 },
      { header: 'Alert type', width: 18 },
      { header: 'Expression', width: 44 },
      { header: 'Severity', width: 10 },
      { header: 'Default', width: 8 },
      { header: 'Rounds violating (required of)', width: 14 },
      { header: 'Tests', width: 44 },
      { header: 'Notifications', width: 40 },
    ]);
    rowsOf(
      rules,
      groups,
      (group) => group.rules,
      (group, rule) => {
        const names = new Map(
          group.tests.ok ? group.tests.value.map((test) => [test.test.testId, test.test.testName]) : [],
        );
        const notifications = (rule.notifications ?? {}) as { email?: { recipients?: unknown[] } } & Record<
          string,
          unknown
        >;
        return [
          group.accountGroupName,
          rule.ruleId,
          rule.ruleName,
          rule.alertType ?? '',
          rule.expression ?? '',
          rule.severity ?? '',
          rule.isDefault === true,
          `${rule.roundsViolatingRequired ?? '?'} of ${rule.roundsViolatingOutOf ?? '?'}`,
          (rule.testIds ?? rule.tests?.map((test) => test.testId) ?? []).map((id) => names.get(id) ?? id).join(', '),
          [
            ...(notifications.email?.recipients ?? []).map((recipient) => `email: ${String(recipient)}`),
            ...['thirdParty', 'webhook', 'customWebhook'].flatMap((key) =>
              Array.isArray(notifications[key]) ? (notifications[key] as unknown[]).map(() => key) : [],
            ),
          ].join(', '),
        ];
      },
    );
    rules.done();

    const windows = sheet('Alert Suppression Windows', [
      { header: 'Account group', width: 30 },
      { header: 'Window id', width: 10 },
      { header: 'Window', width: 30 },
      { header: 'Enabled', width: 8 },
      { header: 'Status', width: 10 },
      { header: 'Starts', width: 18 },
      { header: 'Duration (s)', width: 10 },
      { header: 'Repeat', width: 24 },
      { header: 'Tests', width: 44 },
    ]);
    rowsOf(
      windows,
      groups,
      (group) => group.windows,
      (group, window) => [
        group.accountGroupName,
        window.alertSuppressionWindowId,
        window.name,
        window.isEnabled !== false,
        window.status ?? '',
        date(window.startDate),
        window.duration ?? null,
        configValue(window.repeat ? Object.values(window.repeat).join(' ') : 'once'),
        (window.tests ?? []).map((test) => String((test as { testName?: unknown }).testName ?? test.testId)).join(', '),
      ],
    );
    windows.done();

    const dashboards = sheet('Dashboards and Widgets', [
      { header: 'Account group', width: 30 },
      { header: 'Dashboard id', width: 26 },
      { header: 'Dashboard', width: 30 },
      { header: 'Widget id', width: 12 },
      { header: 'Widget type', width: 20 },
      { header: 'Widget', width: 30 },
      { header: 'Data source', width: 24 },
      { header: 'Metric', width: 24 },
    ]);
    rowsOf(
      dashboards,
      groups,
      (group) => group.dashboards,
      (group, board) => {
        const widgets = board.widgets ?? [];
        if (!widgets.length)
          return [group.accountGroupName, board.dashboardId, board.title, null, null, null, null, null];
        return widgets.map((widget) => {
          const fields = widget as Record<string, unknown>;
          return [
            group.accountGroupName,
            board.dashboardId,
            board.title,
            widget.id ?? null,
            widget.type,
            widget.title ?? '',
            String(fields.dataSource ?? ''),
            String(fields.metric ?? ''),
          ];
        });
      },
    );
    dashboards.done();

    const tags = sheet('Tags', [
      { header: 'Account group', width: 30 },
      { header: 'Tag id', width: 38 },
      { header: 'Key', width: 20 },
      { header: 'Value', width: 20 },
      { header: 'Object type', width: 14 },
      { header: 'Assigned to', width: 10 },
    ]);
    rowsOf(
      tags,
      groups,
      (group) => group.tags,
      (group, tag) => [
        group.accountGroupName,
        tag.id,
        tag.key ?? '',
        tag.value ?? '',
        tag.objectType ?? '',
        tag.assignments?.length ?? 0,
      ],
    );
    tags.done();

    const endpoint = sheet('Endpoint Agents and Tests', [
      { header: 'Account group', width: 30 },
      { header: 'Kind', width: 10 },
      { header: 'Id', width: 38 },
      { header: 'Name', width: 30 },
      { header: 'Platform or type', width: 16 },
      { header: 'OS or target', width: 30 },
      { header: 'Version or interval', width: 12 },
      { header: 'Status', width: 10 },
      { header: 'License', width: 12 },
      { header: 'Last seen', width: 18 },
    ]);
    rowsOf(
      endpoint,
      groups,
      (group) => group.endpointAgents,
      (group, agent) => [
        group.accountGroupName,
        'agent',
        agent.id,
        agent.name ?? agent.computerName ?? '',
        agent.platform ?? '',
        agent.osVersion ?? '',
        agent.version ?? '',
        agent.status ?? '',
        agent.licenseType ?? '',
        date(agent.lastSeen),
      ],
    );
    rowsOf(
      endpoint,
      groups,
      (group) => group.endpointTests,
      (group, test) => {
        const fields = test as Record<string, unknown>;
        return [
          group.accountGroupName,
          'test',
          test.testId,
          test.testName,
          test.type,
          String(fields.url ?? fields.server ?? ''),
          test.interval ?? null,
          test.isEnabled === false ? 'disabled' : 'enabled',
          null,
          null,
        ];
      },
    );
    endpoint.done();

    const usage = sheet('Usage and Quotas', [
      { header: 'Measure', width: 36 },
      { header: 'Account group', width: 30 },
      { header: 'Value', width: 14 },
    ]);
    if (organization.usage.ok) {
      const used = organization.usage.value as Record<string, unknown>;
      const quota = (used.quota ?? {}) as Record<string, unknown>;
      for (const [measure, value] of [
        ['Billing period start', date(typeof quota.monthStart === 'string' ? quota.monthStart : undefined)],
        ['Billing period end', date(typeof quota.monthEnd === 'string' ? quota.monthEnd : undefined)],
        ['Cloud units included', quota.cloudUnitsIncluded],
        ['Cloud units used', used.cloudUnitsUsed],
        ['Cloud units projected', used.cloudUnitsProjected],
        ['Enterprise agents included', quota.enterpriseAgentsIncluded],
        ['Enterprise agents used', used.enterpriseAgentsUsed],
        ['Endpoint agents included', quota.endpointAgentsIncluded],
        ['Endpoint agents used', used.endpointAgentsUsed],
      ] as [string, unknown][])
        usage.row([measure, null, configValue(value)]);
    } else usage.row(['Usage', null, organization.usage.reason]);
    if (organization.quotas.ok) {
      const names = new Map(groups.map((group) => [group.aid, group.accountGroupName]));
      for (const entry of organization.quotas.value.quotas) {
        usage.row([
          'Organization quota (cloud units)',
          null,
          configValue((entry.organizationQuota as { value?: unknown } | undefined)?.value),
        ]);
        for (const quota of (entry.accountGroupQuotas ?? []) as { aid?: string; value?: unknown }[])
          if (names.has(String(quota.aid)))
            usage.row([
              'Account group quota (cloud units)',
              names.get(String(quota.aid)) ?? '',
              configValue(quota.value),
            ]);
      }
    } else usage.row(['Quotas', null, organization.quotas.reason]);
    usage.done();
  }, context.now);

  await context.progress(total, total);
  const stem = fileStem('configuration', context.organization.name, context.now);
  const testCount = groups.reduce((sum, group) => sum + (count(group.tests) ?? 0), 0);
  return {
    summaryMarkdown: `**Configuration Spreadsheet** (12 tabs) for **${escapeMarkdown(context.organization.name)}** is ready: ${groups.length} account group(s), ${testCount} test(s).`,
    artifacts: [{ filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook }],
  };
};
