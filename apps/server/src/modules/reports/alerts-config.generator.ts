import ExcelJS from 'exceljs';
import type { AlertRule, PlatformTest } from '@ce/platform-client';
import { escapeHtml, htmlDocument } from './render/html.js';
import { escapeMarkdown } from '../../platform/markdown.js';
import { sheetName as excelSheetName } from './render/stream-workbook.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from './report-generator.js';

export interface AlertRuleRow {
  ruleName: string;
  alertType: string;
  expression: string;
  severity: string;
  direction: string;
  rounds: string;
  isDefault: boolean;
  tests: string[];
  notifications: string[];
}

export interface GroupFindings {
  accountGroupName: string;
  rows: AlertRuleRow[];
  unassigned: string[];
  withoutNotification: string[];
  sameExpression: string[][];
}

function notificationsOf(rule: AlertRule): string[] {
  const notifications = (rule.notifications ?? {}) as Record<string, unknown>;
  const email = notifications.email as { recipients?: unknown[] } | undefined;
  const channels = ['thirdParty', 'webhook', 'customWebhook'].flatMap((key) => {
    const list = notifications[key];
    return Array.isArray(list)
      ? list.map(
          (item) =>
            `${key}: ${String((item as { integrationName?: unknown; integrationId?: unknown }).integrationName ?? (item as { integrationId?: unknown }).integrationId ?? 'integration')}`,
        )
      : [];
  });
  return [...(email?.recipients ?? []).map((recipient) => `email: ${String(recipient)}`), ...channels];
}

/** Turns one account group's rules into rows and findings. */
export function analyseGroup(accountGroupName: string, rules: AlertRule[], tests: PlatformTest[]): GroupFindings {
  const testNames = new Map(tests.map((test) => [test.testId, test.testName]));
  const rows = rules.map((rule) => {
    const testIds = rule.testIds ?? rule.tests?.map((test) => test.testId) ?? [];
    return {
      ruleName: rule.ruleName,
      alertType: rule.alertType ?? '',
      expression: rule.expression ?? '',
      severity: rule.severity ?? '',
      direction: rule.direction ?? '',
      rounds: `${rule.roundsViolatingRequired ?? '?'} of ${rule.roundsViolatingOutOf ?? '?'}`,
      isDefault: rule.isDefault === true,
      tests: testIds.map((testId) => testNames.get(testId) ?? `test ${testId}`),
      notifications: notificationsOf(rule),
    };
  });
  const byExpression = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.alertType}|${row.expression.replace(/\s+/g, '')}`;
    byExpression.set(key, [...(byExpression.get(key) ?? []), row.ruleName]);
  }
  return {
    accountGroupName,
    rows,
    unassigned: rows.filter((row) => row.tests.length === 0).map((row) => row.ruleName),
    withoutNotification: rows.filter((row) => row.notifications.length === 0).map((row) => row.ruleName),
    sameExpression: [...byExpression.values()].filter((names) => names.length > 1),
  };
}

const SHEET_COLUMNS = [
  { header: 'Rule', key: 'ruleName', width: 34 },
  { header: 'Alert type', key: 'alertType', width: 20 },
  { header: 'Expression', key: 'expression', width: 44 },
  { header: 'Severity', key: 'severity', width: 10 },
  { header: 'Direction', key: 'direction', width: 14 },
  { header: 'Rounds violating (required of)', key: 'rounds', width: 16 },
  { header: 'Default', key: 'isDefault', width: 9 },
  { header: 'Tests assigned', key: 'tests', width: 44 },
  { header: 'Notifications', key: 'notifications', width: 36 },
];

/** Excel sheet names (see render/stream-workbook.ts); a nameless account group is called so. */
export const sheetName = (name: string, taken: Set<string>) => excelSheetName(name, taken, 'Account group');

export async function alertsWorkbook(organization: string, groups: GroupFindings[], now: Date): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'CE Toolkit';
  workbook.created = now;
  const taken = new Set<string>(['summary']);
  const summary = workbook.addWorksheet('Summary');
  summary.columns = [
    { header: 'Account group', key: 'group', width: 36 },
    { header: 'Alert rules', key: 'rules', width: 12 },
    { header: 'Assigned to no test', key: 'unassigned', width: 20 },
    { header: 'Without notification', key: 'silent', width: 20 },
    { header: 'Rules sharing an expression', key: 'duplicates', width: 26 },
  ];
  summary.getRow(1).font = { bold: true };
  for (const group of groups) {
    summary.addRow({
      group: group.accountGroupName,
      rules: group.rows.length,
      unassigned: group.unassigned.length,
      silent: group.withoutNotification.length,
      duplicates: group.sameExpression.reduce((sum, names) => sum + names.length, 0),
    });
    const sheet = workbook.addWorksheet(sheetName(group.accountGroupName, taken));
    sheet.columns = SHEET_COLUMNS;
    sheet.getRow(1).font = { bold: true };
    for (const row of group.rows) {
      sheet.addRow({
        ...row,
        isDefault: row.isDefault ? 'yes' : 'no',
        tests: row.tests.join(', '),
        notifications: row.notifications.join(', '),
      });
    }
  }
  summary.addRow({});
  summary.addRow({ group: `${organization}, generated ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC` });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function findingsHtml(group: GroupFindings): string {
  const items = [
    ...group.unassigned.map((name) => `Rule <b>${escapeHtml(name)}</b> is assigned to no test.`),
    ...group.withoutNotification.map((name) => `Rule <b>${escapeHtml(name)}</b> notifies nobody.`),
    ...group.sameExpression.map(
      (names) => `Rules ${names.map((name) => `<b>${escapeHtml(name)}</b>`).join(', ')} share the same expression.`,
    ),
  ];
  return items.length ? items.map((item) => `<div class="finding">${item}</div>`).join('') : '<p>No findings.</p>';
}

/** Every alert rule of each selected account group, as a spreadsheet and an HTML summary with findings. */
export const alertsConfigGenerator: ReportGenerator = async (context) => {
  const total = context.accountGroups.length + 1;
  const groups: GroupFindings[] = [];
  for (const [index, group] of context.accountGroups.entries()) {
    const [summaries, tests] = await Promise.all([
      context.platform.alertRules.list(group.aid, context.signal),
      context.platform.tests.list(group.aid, context.signal),
    ]);
    const rules = await Promise.all(
      summaries.map((rule) => context.platform.alertRules.get(rule.ruleId, group.aid, context.signal)),
    );
    groups.push(analyseGroup(group.accountGroupName, rules, tests));
    await context.progress(index + 1, total);
  }
  const stem = fileStem('alerts-configuration', context.organization.name, context.now);
  const workbook = await alertsWorkbook(context.organization.name, groups, context.now);
  const ruleCount = groups.reduce((sum, group) => sum + group.rows.length, 0);
  const html = htmlDocument(
    `Alerts configuration: ${context.organization.name}`,
    `<h1>Alerts configuration report</h1><p class="meta">${escapeHtml(context.organization.name)} · ${groups.length} account group(s) · ${ruleCount} alert rule(s) · ${escapeHtml(context.now.toISOString().slice(0, 10))}</p>
${groups.map((group) => `<h2>${escapeHtml(group.accountGroupName)} (${group.rows.length} rules)</h2>${findingsHtml(group)}`).join('\n')}`,
  );
  await context.progress(total, total);
  const findingCount = groups.reduce(
    (sum, group) => sum + group.unassigned.length + group.withoutNotification.length + group.sameExpression.length,
    0,
  );
  return {
    summaryMarkdown: [
      `**Alerts configuration report** for **${escapeMarkdown(context.organization.name)}** is ready.`,
      `${groups.length} account group(s), ${ruleCount} alert rule(s), ${findingCount} finding(s).`,
      ...groups.map(
        (group) =>
          `- ${escapeMarkdown(group.accountGroupName)}: ${group.rows.length} rules, ${group.unassigned.length} on no test, ${group.withoutNotification.length} without notification`,
      ),
    ].join('\n'),
    artifacts: [
      { filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook },
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
    ],
  };
};
