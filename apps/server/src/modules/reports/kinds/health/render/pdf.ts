import { AHC_TABLES, type HealthFindings } from '@ce/contract';
import { pdfTable as kitTable, PDF_CONTENT_WIDTH, renderReportPdf } from '../../../../../report-kit/pdf.js';
import { cell, checkTitle, findingsChartSvg, scoreTrendSvg, SHOWN_ROWS, title, when, worstChecks } from './common.js';

/** The worst findings the first page names. */
const TOP_FINDINGS = 5;

function pdfTable(
  columns: string[],
  rows: (string | number | null)[][],
  width: number = PDF_CONTENT_WIDTH.portrait,
): Record<string, unknown> {
  const cells = rows.slice(0, SHOWN_ROWS).map((row) => row.map((value) => String(cell(value))));
  return kitTable(columns, cells, { maxRows: SHOWN_ROWS, margin: [0, 4, 0, 4], width });
}

/**
 * The health check's PDF (the file sent to Webex and to the customer): its first page says the score, the grade and
 * the worst findings; things are named, never by the product's or the platform's ids; the tables are on landscape
 * pages, every column of them shown (a table wider than the page is split by columns, the account group repeated).
 */
export function healthPdf(findings: HealthFindings): Promise<Buffer> {
  const heading = (text: string, level: 1 | 2 = 1, pageBreak = level === 1) => ({
    text,
    fontSize: level === 1 ? 15 : 12,
    bold: true,
    tocItem: true,
    tocMargin: [level === 1 ? 0 : 12, 0, 0, 0],
    margin: [0, level === 1 ? (pageBreak ? 0 : 16) : 10, 0, 4],
    ...(pageBreak ? { pageBreak: 'before' } : {}),
  });
  const trend = scoreTrendSvg(findings);
  const worst = worstChecks(findings, TOP_FINDINGS);
  const made = findings.checks.filter((check) => check.status !== 'unknown').length;
  const more = (count: number) =>
    count > SHOWN_ROWS ? [{ text: `${count - SHOWN_ROWS} more in the spreadsheet.`, color: '#475569' }] : [];
  return renderReportPdf({
    title: title(findings),
    organization: findings.organization.name,
    coverIsSummary: true,
    cover: [
      { text: findings.accountGroups.map((group) => group.accountGroupName).join(', '), margin: [0, 6, 0, 0] },
      { text: `Generated ${when(findings.generatedAt)}`, color: '#475569', margin: [0, 6, 0, 0] },
      {
        text: `Score ${findings.score.value}/100 · grade ${findings.score.grade}`,
        fontSize: 18,
        bold: true,
        margin: [0, 28, 0, 0],
      },
      { text: `${made} of ${findings.checks.length} checks made.`, color: '#475569', margin: [0, 4, 0, 0] },
      { text: 'Top findings', fontSize: 14, bold: true, margin: [0, 24, 0, 4] },
      worst.length
        ? pdfTable(
            ['Finding', 'Status', 'Items', 'For example'],
            worst.map((check) => [check.title, check.status, check.items.length, check.items[0]?.name ?? '']),
          )
        : { text: `All ${made} checks that could be made pass.` },
      ...worst.flatMap((check) => [
        { text: check.title, bold: true, margin: [0, 8, 0, 0] },
        { text: `Remediation: ${check.remediation}`, color: '#334155' },
      ]),
    ],
    body: [
      // The contents leave room on their page: the summary follows them there.
      heading('Summary', 1, false),
      {
        text: "Each check has a weight (the configuration checks' add up to 100, the measured checks', when made, another 100). A check that passes earns its weight, a warning half of it, a failure nothing; a check that could not be made (unknown) is left out, and the score is what was earned over the weights of the checks made. Grades: A from 90, B from 80, C from 70, D from 60, F below.",
        margin: [0, 0, 0, 6],
      },
      pdfTable(
        ['Check', 'Status', 'Items', 'Weight'],
        findings.checks.map((check) => [check.title, check.status, check.items.length, check.weight]),
      ),
      { svg: findingsChartSvg(findings), width: PDF_CONTENT_WIDTH.portrait },
      heading('Changes since the last run', 2),
      findings.changes.previousAt
        ? findings.changes.items.length
          ? pdfTable(
              ['Change', 'Check', 'Detail'],
              findings.changes.items.map((change) => [
                change.change,
                checkTitle(findings, change.checkId),
                change.detail,
              ]),
            )
          : { text: `No change since ${when(findings.changes.previousAt)}.` }
        : { text: 'This is the first stored run of this kind for this organization.' },
      ...(trend ? [{ svg: trend, width: 480 }] : []),
      heading('Findings'),
      ...findings.checks.flatMap((check) => [
        heading(`${check.title} (${check.status})`, 2),
        { text: `Threshold: ${check.threshold} · weight ${check.weight}`, color: '#475569' },
        { text: check.definition, margin: [0, 2, 0, 2] },
        ...(check.reason ? [{ text: `Could not be determined: ${check.reason}`, color: '#92400e' }] : []),
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
              check.savings
                ? pdfTable(
                    ['Item', 'Account group', 'Detail', 'Cloud units this period'],
                    check.items.map((item) => [
                      item.name,
                      item.accountGroup ?? '',
                      item.detail,
                      item.cloudUnits ?? null,
                    ]),
                  )
                : pdfTable(
                    ['Item', 'Account group', 'Detail'],
                    check.items.map((item) => [item.name, item.accountGroup ?? '', item.detail]),
                  ),
              ...more(check.items.length),
            ]
          : []),
        ...(check.status === 'warn' || check.status === 'fail' ? [{ text: `Remediation: ${check.remediation}` }] : []),
      ]),
      // The tables on landscape pages: the widest (the deployment summary) has fourteen columns.
      { ...heading('Tables'), pageOrientation: 'landscape' },
      ...AHC_TABLES.flatMap((key) => {
        const table = findings.tables[key];
        if (!table) return [];
        return [
          heading(table.title, 2),
          table.unavailable
            ? { text: table.unavailable, color: '#92400e' }
            : table.rows.length
              ? pdfTable(table.columns, table.rows, PDF_CONTENT_WIDTH.landscape)
              : { text: 'Nothing to show.' },
          ...more(table.rows.length),
        ];
      }),
    ],
  });
}
