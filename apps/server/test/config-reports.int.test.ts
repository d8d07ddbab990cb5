import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_SUITE_DATABASES,
  reportFile,
  requestReport,
  type SandboxCustomer,
  reportSuite,
} from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)('the configuration reports (%s)', (database) => {
  const suite = reportSuite(database, 'tam@demo.local', { rateLimitPerMinute: 100_000 });

  const workbookOf = async (kind: string, accountGroups: SandboxCustomer['groups']) => {
    const report = await requestReport(suite.client, suite.customer, kind, { accountGroups });
    expect(report.status, report.error ?? '').toBe('done');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await reportFile(suite.client, report, '.xlsx')) as unknown as ArrayBuffer);
    return { report, workbook };
  };
  /** The rows of a sheet as objects keyed by its header row. */
  const rowsOf = (sheet: ExcelJS.Worksheet | undefined) => {
    const header = (sheet?.getRow(1).values as unknown[] | undefined) ?? [];
    const rows: Record<string, unknown>[] = [];
    sheet?.eachRow((row, number) => {
      if (number === 1) return;
      const values = row.values as unknown[];
      rows.push(
        Object.fromEntries(
          header.map((name, index) => [String(name), values[index]]).filter(([name]) => name !== 'undefined'),
        ),
      );
    });
    return rows;
  };

  it('CA & EA Tests Config v7: every test of the chosen groups once, on its type sheet, with its own fields', async () => {
    const chosen = suite.customer.groups.slice(0, 2);
    const { workbook, report } = await workbookOf('tests-config-v7', chosen);
    const aids = new Set(chosen.map((group) => group.aid));
    const expected = suite.world().tests.filter((test) => aids.has(test.aid));
    const types = [...new Set(expected.map((test) => test.type))].sort();
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', ...types]);
    const listed = types.flatMap((type) => rowsOf(workbook.getWorksheet(type)));
    expect(listed.map((row) => String(row.testId)).sort()).toEqual(expected.map((test) => test.testId).sort());
    for (const test of expected) {
      const row = listed.find((candidate) => String(candidate.testId) === test.testId);
      expect(row?.type).toBe(test.type);
      if (test.type === 'http-server') expect(row?.url).toBe(test.config.url);
      if (test.type === 'agent-to-server')
        expect([row?.server, row?.port]).toEqual([test.config.server, test.config.port]);
      if (test.type === 'dns-server') expect(row?.dnsServers).toBe('ns1.example.net');
      if (test.type === 'bgp') expect(row?.prefix).toBe(test.config.prefix);
      expect(
        String(row?.agents ?? '')
          .split('; ')
          .filter(Boolean),
      ).toHaveLength(test.type === 'bgp' ? 0 : test.agentIds.length);
      expect(
        String(row?.alertRules ?? '')
          .split('; ')
          .filter(Boolean),
      ).toHaveLength(test.alertRuleIds.length);
    }
    const sheet = workbook.getWorksheet('http-server');
    expect(sheet?.views[0]?.state).toBe('frozen');
    expect(
      report.artifacts.map((artifact: { filename: string }) => artifact.filename.split('.').at(-1)).sort(),
    ).toEqual(['html', 'xlsx']);
  });

  it('EPA Config: every endpoint agent, label, scheduled and dynamic test of the chosen groups, selectors named', async () => {
    const chosen = suite.customer.groups.slice(0, 2);
    const { workbook } = await workbookOf('epa-config', chosen);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'Endpoint Agents',
      'Labels',
      'Scheduled Tests',
      'Dynamic Tests',
    ]);
    const aids = new Set(chosen.map((group) => group.aid));
    const agents = suite.world().endpointAgents.filter((agent) => aids.has(agent.aid));
    const listedAgents = rowsOf(workbook.getWorksheet('Endpoint Agents'));
    expect(listedAgents.map((row) => row['Agent id']).sort()).toEqual(agents.map((agent) => agent.id).sort());
    const windows = agents.filter((agent) => agent.platform === 'windows');
    const labels = rowsOf(workbook.getWorksheet('Labels'));
    expect(labels).toHaveLength(suite.world().endpointLabels.filter((label) => aids.has(label.aid)).length);
    expect(
      labels
        .filter((row) => row.Label === 'Windows laptops')
        .reduce((sum, row) => sum + Number(row['Agents matching']), 0),
    ).toBe(windows.length);
    expect(labels.find((row) => row.Label === 'Windows laptops')?.Filters).toBe('platform in [windows]');
    const scheduled = rowsOf(workbook.getWorksheet('Scheduled Tests'));
    const tests = suite.world().endpointTests.filter((test) => aids.has(test.aid));
    expect(scheduled.map((row) => String(row['Test id'])).sort()).toEqual(tests.map((test) => test.testId).sort());
    const specific = tests.find((test) => test.agentSelectorConfig?.agentSelectorType === 'specific-agents');
    const named = suite
      .world()
      .endpointAgents.filter(
        (agent) =>
          specific?.agentSelectorConfig?.agentSelectorType === 'specific-agents' &&
          specific.agentSelectorConfig.agents.includes(agent.id),
      )
      .map((agent) => agent.name);
    expect(scheduled.find((row) => String(row['Test id']) === specific?.testId)?.['Agent selection']).toBe(
      `Agents: ${named.join(', ')} (at most 3 machines)`,
    );
    const dynamic = rowsOf(workbook.getWorksheet('Dynamic Tests'));
    expect(dynamic).toHaveLength(chosen.length);
    expect(dynamic[0]?.['Agent selection']).toBe('Labels: Windows laptops (at most 50 machines)');
  });

  it('Dashboard Report: every dashboard and widget of the chosen groups, owners named, the sparse ones flagged', async () => {
    const chosen = suite.customer.groups.slice(0, 2);
    const { workbook, report } = await workbookOf('dashboard-report', chosen);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'Dashboards',
      'Widgets',
      'Widget Types',
    ]);
    const aids = new Set(chosen.map((group) => group.aid));
    const dashboards = suite.world().dashboards.filter((dashboard) => aids.has(dashboard.aid));
    const listed = rowsOf(workbook.getWorksheet('Dashboards'));
    expect(listed.map((row) => row['Dashboard id']).sort()).toEqual(
      dashboards.map((dashboard) => dashboard.dashboardId).sort(),
    );
    expect(rowsOf(workbook.getWorksheet('Widgets'))).toHaveLength(
      dashboards.reduce((sum, dashboard) => sum + dashboard.widgets.length, 0),
    );
    const payroll = listed.find((row) => row.Dashboard === 'Payroll at a glance');
    const owner = suite
      .world()
      .users.find(
        (user) => user.uid === dashboards.find((dashboard) => dashboard.title === 'Payroll at a glance')?.createdBy,
      );
    expect(payroll?.Owner).toBe(`${owner?.name} <${owner?.email}>`);
    expect(payroll?.['Last change']).toBeInstanceOf(Date);
    const page = (await reportFile(suite.client, report, '.html', true)).toString('utf8');
    expect(page).toMatch(/<b>Payroll at a glance<\/b> in [^:]+: 1 widget\(s\)/);
    expect(page).not.toContain('<b>Expenses</b>');
  });

  it('the 12-tab workbook: its tabs, every test once, one row per test and agent, dates as dates', async () => {
    const { workbook } = await workbookOf('config-spreadsheet', suite.customer.groups);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Summary',
      'Account Groups',
      'Users and Roles',
      'Cloud and Enterprise Agents',
      'Tests',
      'Test Agents',
      'Alert Rules',
      'Alert Suppression Windows',
      'Dashboards and Widgets',
      'Tags',
      'Endpoint Agents and Tests',
      'Usage and Quotas',
    ]);
    const aids = new Set(suite.customer.groups.map((group) => group.aid));
    const tests = suite.world().tests.filter((test) => aids.has(test.aid));
    const listed = rowsOf(workbook.getWorksheet('Tests'));
    expect(listed.map((row) => String(row['Test id'])).sort()).toEqual(tests.map((test) => test.testId).sort());
    expect(listed.every((row) => row.Created instanceof Date)).toBe(true);
    expect(rowsOf(workbook.getWorksheet('Test Agents'))).toHaveLength(
      tests.reduce((sum, test) => sum + test.agentIds.length, 0),
    );
    expect(rowsOf(workbook.getWorksheet('Alert Rules'))).toHaveLength(
      suite.world().alertRules.filter((rule) => aids.has(rule.aid)).length,
    );
    expect(rowsOf(workbook.getWorksheet('Account Groups')).map((row) => row['Account group'])).toEqual(
      suite.customer.groups.map((group) => group.accountGroupName),
    );
    for (const sheet of workbook.worksheets) {
      expect(sheet.views[0]?.state, sheet.name).toBe('frozen');
      expect(sheet.autoFilter, sheet.name).toBeTruthy();
    }
  });
});
