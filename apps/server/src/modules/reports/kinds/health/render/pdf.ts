import { AHC_TABLES, type HealthFindings } from '@ce/contract';
import { pdfTable as kitTable, renderReportPdf } from '../../../../../report-kit/pdf.js';
import { cell, findingsChartSvg, scoreTrendSvg, SHOWN_ROWS, title, when } from './common.js';

function pdfTable(columns: string[], rows: (string | number | null)[][]): Record<string, unknown> {
  const cells = rows.slice(0, SHOWN_ROWS).map((row) => row.map((value) => String(cell(value))));
  return kitTable(columns, cells, { maxRows: SHOWN_ROWS, margin: [0, 4, 0, 4] });
}

export function healthPdf(findings: HealthFindings): Promise<Buffer> {
  const heading = (text: string, level: 1 | 2 = 1) => ({
    text,
    fontSize: level === 1 ? 15 : 12,
    bold: true,
    tocItem: true,
    tocMargin: [level === 1 ? 0 : 12, 0, 0, 0],
    margin: [0, level === 1 ? 0 : 10, 0, 4],
    ...(level === 1 ? { pageBreak: 'before' } : {}),
  });
  const trend = scoreTrendSvg(findings);
  const more = (count: number) =>
    count > SHOWN_ROWS ? [{ text: `${count - SHOWN_ROWS} more in the spreadsheet.`, color: '#475569' }] : [];
  return renderReportPdf({
    title: title(findings),
    organization: findings.organization.name,
    cover: [
      { text: findings.accountGroups.map((group) => group.accountGroupName).join(', '), margin: [0, 6, 0, 0] },
      { text: `Generated ${when(findings.generatedAt)}`, color: '#475569', margin: [0, 6, 0, 0] },
      {
        text: `Score ${findings.score.value}/100 · grade ${findings.score.grade}`,
        fontSize: 18,
        bold: true,
        margin: [0, 40, 0, 0],
      },
    ],
    body: [
      heading('Summary'),
      {
        text: 'Each check has a weight (they add up to 100). A check that passes earns its weight, a warning half of it, a failure nothing; a check that could not be made (unknown) is left out, and the score is what was earned over the weights of the checks made. Grades: A from 90, B from 80, C from 70, D from 60, F below.',
        margin: [0, 0, 0, 6],
      },
      pdfTable(
        ['Check', 'Status', 'Items', 'Weight'],
        findings.checks.map((check) => [check.title, check.status, check.items.length, check.weight]),
      ),
      { svg: findingsChartSvg(findings), width: 500 },
      heading('Changes since the last run', 2),
      findings.changes.previousAt
        ? findings.changes.items.length
          ? pdfTable(
              ['Change', 'Check', 'Detail'],
              findings.changes.items.map((change) => [change.change, change.checkId, change.detail]),
            )
          : { text: `No change since ${when(findings.changes.previousAt)}.` }
        : { text: 'This is the first stored run of this kind for this organization.' },
      ...(trend ? [{ svg: trend, width: 480 }] : []),
      heading('Findings'),
      ...findings.checks.flatMap((check) => [
        heading(`${check.title} (${check.status})`, 2),
        { text: `Check ${check.id} · threshold: ${check.threshold} · weight ${check.weight}`, color: '#475569' },
        { text: check.definition, margin: [0, 2, 0, 2] },
        ...(check.reason ? [{ text: check.reason, color: '#92400e' }] : []),
        ...(check.savings
          ? [
              {
                text: `Fixing it saves ${check.savings.cloudUnits.toLocaleString('en-US')} cloud units a billing period.`,
                bold: true,
              },
            ]
          : []),
        ...(check.items.length
          ? [
              pdfTable(
                ['Item', 'Account group', 'Detail'],
                check.items.map((item) => [
                  `${item.name} (${item.type} ${item.id})`,
                  item.accountGroup ?? '',
                  item.detail,
                ]),
              ),
              ...more(check.items.length),
            ]
          : []),
        ...(check.status === 'warn' || check.status === 'fail' ? [{ text: `Remediation: ${check.remediation}` }] : []),
      ]),
      heading('Tables'),
      ...AHC_TABLES.flatMap((key) => {
        const table = findings.tables[key];
        if (!table) return [];
        return [
          heading(table.title, 2),
          table.unavailable
            ? { text: table.unavailable, color: '#92400e' }
            : table.rows.length
              ? pdfTable(table.columns, table.rows)
              : { text: 'Nothing to show.' },
          ...more(table.rows.length),
        ];
      }),
    ],
  });
}
