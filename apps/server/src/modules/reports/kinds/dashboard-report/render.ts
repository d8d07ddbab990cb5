import { HEALTH_LIMITS } from '@ce/contract';
import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { streamWorkbook } from '../../../../report-kit/stream-workbook.js';
import { countBy, text, widgetsOf, type InventoryRow } from './rules.js';
import { utcMinute } from '../../../../report-kit/dates.js';

export function inventoryHtml(organization: string, rows: InventoryRow[], now: Date): string {
  const sparse = rows.filter((row) => widgetsOf(row.dashboard).length < HEALTH_LIMITS.minWidgets);
  const tally = (title: string, counts: [string, number][]) =>
    `<h2>${escapeHtml(title)}</h2><table><thead><tr><th>${escapeHtml(title.replace('Widgets by ', ''))}</th><th>Widgets</th></tr></thead><tbody>${counts
      .map(([name, count]) => `<tr><td>${escapeHtml(name)}</td><td>${count}</td></tr>`)
      .join('')}</tbody></table>`;
  return htmlDocument(
    `Dashboards: ${organization}`,
    `<h1>Dashboard Report</h1>
<p class="meta">${escapeHtml(organization)} · ${rows.length} dashboard(s), ${rows.reduce((sum, row) => sum + widgetsOf(row.dashboard).length, 0)} widget(s) · ${utcMinute(now)}</p>
<h2>Dashboards with fewer than ${HEALTH_LIMITS.minWidgets} widgets (${sparse.length})</h2>
${sparse.length ? sparse.map((row) => `<div class="finding"><b>${escapeHtml(row.dashboard.title)}</b> in ${escapeHtml(row.accountGroup)}: ${widgetsOf(row.dashboard).length} widget(s)</div>`).join('') : '<p>None.</p>'}
<h2>Dashboards</h2>
<table><thead><tr><th>Account group</th><th>Dashboard</th><th>Widgets</th><th>Widget types</th><th>Owner</th><th>Last change</th></tr></thead><tbody>
${rows
  .map(
    (row) =>
      `<tr><td>${escapeHtml(row.accountGroup)}</td><td>${escapeHtml(row.dashboard.title)}</td><td>${widgetsOf(row.dashboard).length}</td><td>${escapeHtml([...new Set(widgetsOf(row.dashboard).map((widget) => widget.type))].join(', '))}</td><td>${escapeHtml(row.owner)}</td><td>${escapeHtml(row.modified.slice(0, 10))}</td></tr>`,
  )
  .join('\n')}</tbody></table>
${tally(
  'Widgets by type',
  countBy(rows, (widget) => text(widget.type)),
)}
${tally(
  'Widgets by data source',
  countBy(rows, (widget) => text(widget.dataSource)),
)}`,
  );
}

export function inventoryWorkbook(organization: string, rows: InventoryRow[], now: Date): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Account group', width: 34 },
      { header: 'Dashboards', width: 12 },
      { header: 'Widgets', width: 10 },
      { header: `Fewer than ${HEALTH_LIMITS.minWidgets} widgets`, width: 18 },
    ]);
    for (const group of [...new Set(rows.map((row) => row.accountGroup))]) {
      const mine = rows.filter((row) => row.accountGroup === group);
      summary.row([
        group,
        mine.length,
        mine.reduce((sum, row) => sum + widgetsOf(row.dashboard).length, 0),
        mine.filter((row) => widgetsOf(row.dashboard).length < HEALTH_LIMITS.minWidgets).length,
      ]);
    }
    summary.row([`${organization}, generated ${utcMinute(now)}`]);
    summary.done();
    const dashboards = sheet('Dashboards', [
      { header: 'Account group', width: 30 },
      { header: 'Dashboard id', width: 26 },
      { header: 'Dashboard', width: 34 },
      { header: 'Widgets', width: 9 },
      { header: 'Widget types', width: 40 },
      { header: 'Data sources', width: 34 },
      { header: 'Owner', width: 30 },
      { header: 'Last change', width: 18 },
      { header: 'Private', width: 8 },
    ]);
    for (const row of rows)
      dashboards.row([
        row.accountGroup,
        row.dashboard.dashboardId,
        row.dashboard.title,
        widgetsOf(row.dashboard).length,
        [...new Set(widgetsOf(row.dashboard).map((widget) => widget.type))].join(', '),
        [...new Set(widgetsOf(row.dashboard).map((widget) => text(widget.dataSource)))].join(', '),
        row.owner,
        row.modified ? new Date(row.modified) : null,
        row.dashboard.isPrivate === true,
      ]);
    dashboards.done();
    const widgets = sheet('Widgets', [
      { header: 'Account group', width: 30 },
      { header: 'Dashboard', width: 34 },
      { header: 'Widget id', width: 14 },
      { header: 'Type', width: 22 },
      { header: 'Title', width: 30 },
      { header: 'Data source', width: 28 },
      { header: 'Metric group', width: 20 },
      { header: 'Metric', width: 24 },
    ]);
    for (const row of rows)
      for (const widget of widgetsOf(row.dashboard)) {
        widgets.row([
          row.accountGroup,
          row.dashboard.title,
          widget.id ?? null,
          widget.type,
          widget.title ?? '',
          text(widget.dataSource),
          text(widget.metricGroup),
          text(widget.metric),
        ]);
      }
    widgets.done();
    const types = sheet('Widget Types', [
      { header: 'Widget type', width: 28 },
      { header: 'Widgets', width: 10 },
    ]);
    for (const entry of countBy(rows, (widget) => text(widget.type))) types.row(entry);
    types.done();
  }, now);
}
