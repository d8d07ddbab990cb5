import { escapeHtml } from '../../../../report-kit/html.js';
import { sheetName as excelSheetName } from '../../../../report-kit/stream-workbook.js';
import type { GroupFindings } from './rules.js';
import { utcMinute } from '../../../../report-kit/dates.js';

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
  const { default: ExcelJS } = await import('exceljs');
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
  summary.addRow({ group: `${organization}, generated ${utcMinute(now)}` });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function findingsHtml(group: GroupFindings): string {
  const items = [
    ...group.unassigned.map((name) => `Rule <b>${escapeHtml(name)}</b> is assigned to no test.`),
    ...group.withoutNotification.map((name) => `Rule <b>${escapeHtml(name)}</b> notifies nobody.`),
    ...group.sameExpression.map(
      (names) => `Rules ${names.map((name) => `<b>${escapeHtml(name)}</b>`).join(', ')} share the same expression.`,
    ),
  ];
  return items.length ? items.map((item) => `<div class="finding">${item}</div>`).join('') : '<p>No findings.</p>';
}
