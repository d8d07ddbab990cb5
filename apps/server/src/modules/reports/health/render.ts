import {
  AHC_TABLES,
  REPORT_KINDS,
  type HealthCheck,
  type HealthFindings,
  type HealthStatus,
  type HealthTable,
} from '@ce/contract';
import { barChartSvg, lineChartSvg } from '../render/charts.js';
import { escapeHtml, htmlDocument } from '../render/html.js';
import { escapeMarkdown } from '../../../platform/markdown.js';
import { renderPdf } from '../render/pdf.js';
import { streamWorkbook } from '../render/stream-workbook.js';

/** HTML and PDF show this many rows of a table or evidence items of a check; the spreadsheet has them all. */
export const SHOWN_ROWS = 200;

const STATUS_COLOURS: Record<HealthStatus, { fill: string; text: string }> = {
  pass: { fill: '#dcfce7', text: '#166534' },
  warn: { fill: '#fef3c7', text: '#92400e' },
  fail: { fill: '#fee2e2', text: '#991b1b' },
  unknown: { fill: '#e2e8f0', text: '#334155' },
};
const SEVERITY: Record<HealthStatus, number> = { fail: 0, warn: 1, unknown: 2, pass: 3 };

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const title = (findings: HealthFindings) => `${REPORT_KINDS[findings.kind].label} account health check`;
const cell = (value: string | number | null) =>
  value === null ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value;

/** The worst findings first: failures, then warnings, heavier checks first. */
export function worstChecks(findings: HealthFindings, count: number): HealthCheck[] {
  return findings.checks
    .filter((check) => check.status === 'fail' || check.status === 'warn')
    .sort((a, b) => SEVERITY[a.status] - SEVERITY[b.status] || b.weight - a.weight)
    .slice(0, count);
}

function scoreTrendSvg(findings: HealthFindings): string | null {
  if (findings.changes.trend.length < 2) return null;
  return lineChartSvg({
    title: 'Score over the stored runs',
    categories: findings.changes.trend.map((point) => point.at.slice(0, 10)),
    values: findings.changes.trend.map((point) => point.score),
    max: 100,
  });
}

function findingsChartSvg(findings: HealthFindings): string {
  return barChartSvg({
    title: 'Items found per check',
    categories: findings.checks.map((check) => check.id),
    series: [{ name: 'Items', values: findings.checks.map((check) => check.items.length) }],
    width: 760,
  });
}

// HTML ---------------------------------------------------------------------------------------------------

const badge = (status: HealthStatus) =>
  `<span class="badge" style="background:${STATUS_COLOURS[status].fill};color:${STATUS_COLOURS[status].text}">${status}</span>`;

function tableHtml(table: HealthTable): string {
  if (table.unavailable) return `<p class="finding">${escapeHtml(table.unavailable)}</p>`;
  if (!table.rows.length) return '<p>Nothing to show.</p>';
  const more =
    table.rows.length > SHOWN_ROWS
      ? `<p class="meta">${table.rows.length - SHOWN_ROWS} more rows in the spreadsheet.</p>`
      : '';
  return `<table><thead><tr>${table.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${table.rows
  .slice(0, SHOWN_ROWS)
  .map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(cell(value))}</td>`).join('')}</tr>`)
  .join('\n')}
</tbody></table>${more}`;
}

function checkHtml(check: HealthCheck): string {
  const items = check.items.length
    ? `<table><thead><tr><th>Item</th><th>Account group</th><th>Detail</th>${check.savings ? '<th>Cloud units this period</th>' : ''}</tr></thead><tbody>
${check.items
  .slice(0, SHOWN_ROWS)
  .map(
    (item) =>
      `<tr><td>${escapeHtml(item.name)} <span class="meta">(${escapeHtml(item.type)} ${escapeHtml(item.id)})</span></td><td>${escapeHtml(item.accountGroup ?? '')}</td><td>${escapeHtml(item.detail)}</td>${check.savings ? `<td>${cell(item.cloudUnits ?? null)}</td>` : ''}</tr>`,
  )
  .join(
    '\n',
  )}</tbody></table>${check.items.length > SHOWN_ROWS ? `<p class="meta">${check.items.length - SHOWN_ROWS} more in the spreadsheet and findings.json.</p>` : ''}`
    : '';
  return `<section id="${check.id}"><h3>${escapeHtml(check.title)} ${badge(check.status)}</h3>
<p class="meta">Check <code>${check.id}</code> · threshold: ${escapeHtml(check.threshold)} · weight ${check.weight}</p>
<p><b>How it is checked:</b> ${escapeHtml(check.definition)}</p>
${check.reason ? `<p class="finding">${escapeHtml(check.reason)}</p>` : ''}
${check.savings ? `<p><b>Fixing it saves</b> ${check.savings.cloudUnits.toLocaleString('en-US')} cloud units a billing period (what these items used so far this period).</p>` : ''}
${items}
${check.status === 'pass' || check.status === 'unknown' ? '' : `<p><b>Remediation:</b> ${escapeHtml(check.remediation)}</p>`}</section>`;
}

export function healthHtml(findings: HealthFindings): string {
  const trend = scoreTrendSvg(findings);
  const changes = findings.changes.previousAt
    ? findings.changes.items.length
      ? `<table><thead><tr><th>Change</th><th>Check</th><th>Detail</th></tr></thead><tbody>${findings.changes.items
          .slice(0, SHOWN_ROWS)
          .map(
            (change) =>
              `<tr><td>${change.change}</td><td>${change.checkId}</td><td>${escapeHtml(change.detail)}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '<p>No change.</p>'
    : '<p>This is the first stored run of this kind for this organization.</p>';
  const tables = AHC_TABLES.flatMap((key) => {
    const table = findings.tables[key];
    return table ? [`<h3 id="table-${key}">${escapeHtml(table.title)}</h3>${tableHtml(table)}`] : [];
  });
  return htmlDocument(
    `${title(findings)}: ${findings.organization.name}`,
    `<h1>${escapeHtml(title(findings))}</h1>
<p class="meta">${escapeHtml(findings.organization.name)} · ${findings.accountGroups.map((group) => escapeHtml(group.accountGroupName)).join(', ')} · ${when(findings.generatedAt)}</p>
<h2>Score: ${findings.score.value}/100, grade ${findings.score.grade}</h2>
<p>Each check has a weight (below, they add up to 100). A check that passes earns its weight, a warning half of it,
a failure nothing; a check that could not be made (unknown) is left out, and the score is what was earned over the
weights of the checks made. Grades: A from 90, B from 80, C from 70, D from 60, F below.</p>
<table><thead><tr><th>Check</th><th>Status</th><th>Items</th><th>Weight</th></tr></thead><tbody>
${findings.checks.map((check) => `<tr><td><a href="#${check.id}">${escapeHtml(check.title)}</a></td><td>${badge(check.status)}</td><td>${check.items.length}</td><td>${check.weight}</td></tr>`).join('\n')}
</tbody></table>
${findingsChartSvg(findings)}
<h2>Changes since the last run</h2>
${findings.changes.previousAt ? `<p class="meta">Compared with the run of ${when(findings.changes.previousAt)}.</p>` : ''}
${changes}
${trend ?? ''}
<h2>Findings</h2>
${findings.checks.map(checkHtml).join('\n')}
<h2>Tables</h2>
${tables.join('\n') || '<p>No table was chosen.</p>'}`,
  );
}

// PDF ----------------------------------------------------------------------------------------------------

function pdfTable(columns: string[], rows: (string | number | null)[][]): Record<string, unknown> {
  return {
    table: {
      headerRows: 1,
      widths: columns.map(() => '*'),
      body: [
        columns.map((text) => ({ text, bold: true, fillColor: '#f1f5f9' })),
        ...rows.slice(0, SHOWN_ROWS).map((row) => row.map((value) => String(cell(value)))),
      ],
    },
    layout: 'lightHorizontalLines',
    fontSize: 8,
    margin: [0, 4, 0, 4],
  };
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
  return renderPdf({
    info: { title: `${title(findings)}: ${findings.organization.name}`, creator: 'CE Toolkit' },
    pageOrientation: 'portrait',
    footer: (page: number, pages: number) => ({
      text: `${page} / ${pages}`,
      alignment: 'center',
      fontSize: 8,
      color: '#64748b',
    }),
    content: [
      // Cover
      { text: title(findings), fontSize: 24, bold: true, margin: [0, 160, 0, 8] },
      { text: findings.organization.name, fontSize: 16 },
      { text: findings.accountGroups.map((group) => group.accountGroupName).join(', '), margin: [0, 6, 0, 0] },
      { text: `Generated ${when(findings.generatedAt)}`, color: '#475569', margin: [0, 6, 0, 0] },
      {
        text: `Score ${findings.score.value}/100 · grade ${findings.score.grade}`,
        fontSize: 18,
        bold: true,
        margin: [0, 40, 0, 0],
      },
      { toc: { title: { text: 'Contents', fontSize: 15, bold: true } }, pageBreak: 'before' },
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

// XLSX ---------------------------------------------------------------------------------------------------

/** The spreadsheet, written row by row with the streaming writer: Summary, Findings, Changes, one sheet per table. */
export function healthWorkbook(findings: HealthFindings): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Check', width: 40 },
      { header: 'Id', width: 22 },
      { header: 'Status', width: 10 },
      { header: 'Threshold', width: 30 },
      { header: 'Weight', width: 8 },
      { header: 'Items', width: 8 },
      { header: 'Definition', width: 80 },
    ]);
    summary.row([
      `Score ${findings.score.value}/100, grade ${findings.score.grade}`,
      '',
      '',
      '',
      '',
      '',
      `${findings.organization.name}, ${when(findings.generatedAt)}`,
    ]);
    for (const check of findings.checks)
      summary.row([
        check.title,
        check.id,
        check.status,
        check.threshold,
        check.weight,
        check.items.length,
        check.reason ? `${check.definition} ${check.reason}` : check.definition,
      ]);
    summary.done();

    const found = sheet('Findings', [
      { header: 'Check', width: 22 },
      { header: 'Status', width: 10 },
      { header: 'Type', width: 12 },
      { header: 'Id', width: 26 },
      { header: 'Name', width: 40 },
      { header: 'Account group', width: 28 },
      { header: 'Detail', width: 60 },
      { header: 'Cloud units this period', width: 14 },
    ]);
    for (const check of findings.checks)
      for (const item of check.items)
        found.row([
          check.id,
          check.status,
          item.type,
          item.id,
          item.name,
          item.accountGroup ?? '',
          item.detail,
          item.cloudUnits,
        ]);
    found.done();

    const changes = sheet('Changes', [
      { header: 'Change', width: 10 },
      { header: 'Check', width: 22 },
      { header: 'Type', width: 12 },
      { header: 'Id', width: 26 },
      { header: 'Detail', width: 80 },
    ]);
    for (const change of findings.changes.items)
      changes.row([change.change, change.checkId, change.item?.type ?? '', change.item?.id ?? '', change.detail]);
    changes.done();

    for (const key of AHC_TABLES) {
      const table = findings.tables[key];
      if (!table) continue;
      const writer = sheet(
        table.title,
        table.columns.map((header) => ({ header, width: Math.min(40, Math.max(12, header.length + 2)) })),
      );
      if (table.unavailable) writer.row([table.unavailable]);
      for (const row of table.rows) writer.row(row);
      writer.done();
    }
  }, new Date(findings.generatedAt));
}

// Webex --------------------------------------------------------------------------------------------------

/** The chat message: the score, the three worst findings and what changed. */
export function healthSummaryMarkdown(findings: HealthFindings): string {
  const worst = worstChecks(findings, 3);
  const made = findings.checks.filter((check) => check.status !== 'unknown').length;
  const changed = findings.changes.items;
  return [
    `**${escapeMarkdown(title(findings))}** for **${escapeMarkdown(findings.organization.name)}**: score **${findings.score.value}/100** (grade ${findings.score.grade}).`,
    worst.length
      ? `Worst findings:\n${worst.map((check) => `- ${check.status.toUpperCase()} ${escapeMarkdown(check.title)}: ${check.items.length} item(s)${check.items[0] ? `, e.g. ${escapeMarkdown(check.items[0].name)}` : ''}`).join('\n')}`
      : `All ${made} checks that could be made pass.`,
    findings.changes.previousAt
      ? `Since the last run: ${changed.filter((change) => change.change === 'new').length} new, ${changed.filter((change) => change.change === 'resolved').length} resolved, ${changed.filter((change) => change.change === 'changed').length} changed.`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}
