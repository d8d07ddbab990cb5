import { HEALTH_LIMITS } from '@ce/contract';
import type { PlatformDashboard } from '@ce/platform-client';
import { dashboardsWithWidgets, readable, required } from './platform-reads.js';
import { escapeHtml, htmlDocument } from './render/html.js';
import { escapeMarkdown } from '../../platform/markdown.js';
import { streamWorkbook } from './render/stream-workbook.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from './report-generator.js';

export interface InventoryRow {
  accountGroup: string;
  dashboard: PlatformDashboard;
  owner: string;
  modified: string;
}

const widgetsOf = (dashboard: PlatformDashboard) => dashboard.widgets ?? [];
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** How many widgets of each type (or data source), most first. */
export function countBy(rows: InventoryRow[], key: (widget: Record<string, unknown>) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const widget of widgetsOf(row.dashboard)) {
      const value = key(widget) || 'not stated';
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function inventoryHtml(organization: string, rows: InventoryRow[], now: Date): string {
  const sparse = rows.filter((row) => widgetsOf(row.dashboard).length < HEALTH_LIMITS.minWidgets);
  const tally = (title: string, counts: [string, number][]) =>
    `<h2>${escapeHtml(title)}</h2><table><thead><tr><th>${escapeHtml(title.replace('Widgets by ', ''))}</th><th>Widgets</th></tr></thead><tbody>${counts
      .map(([name, count]) => `<tr><td>${escapeHtml(name)}</td><td>${count}</td></tr>`)
      .join('')}</tbody></table>`;
  return htmlDocument(
    `Dashboards: ${organization}`,
    `<h1>Dashboard Report</h1>
<p class="meta">${escapeHtml(organization)} · ${rows.length} dashboard(s), ${rows.reduce((sum, row) => sum + widgetsOf(row.dashboard).length, 0)} widget(s) · ${escapeHtml(now.toISOString().slice(0, 16).replace('T', ' '))} UTC</p>
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
    summary.row([`${organization}, generated ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`]);
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
        [
          ...new Set(widgetsOf(row.dashboard).map((widget) => text((widget as Record<string, unknown>).dataSource))),
        ].join(', '),
        row.owner,
        row.modified ? new Date(row.modified) : null,
        (row.dashboard as { isPrivate?: boolean }).isPrivate === true,
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
        const fields = widget as Record<string, unknown>;
        widgets.row([
          row.accountGroup,
          row.dashboard.title,
          widget.id ?? null,
          widget.type,
          widget.title ?? '',
          text(fields.dataSource),
          text(fields.metricGroup),
          text(fields.metric),
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

/**
 * The dashboards of the chosen account groups: widgets by type and data source, owner, last change, and
 * the dashboards with fewer than two widgets. Per group: the dashboards (each read alone only when listed
 * without widgets) and the users, to name owners (their ids are shown when users may not be read).
 */
export const dashboardReportGenerator: ReportGenerator = async (context) => {
  const rows: InventoryRow[] = [];
  const total = context.accountGroups.length + 1;
  for (const [index, group] of context.accountGroups.entries()) {
    const [dashboards, users] = await Promise.all([
      readable(`the dashboards of ${group.accountGroupName}`, 'View dashboards', () =>
        dashboardsWithWidgets(context.platform, group.aid, context.signal),
      ),
      readable(
        `the users of ${group.accountGroupName}`,
        'View all users',
        async () => (await context.platform.accountGroups.get(group.aid, ['user'], context.signal)).users ?? [],
      ),
    ]);
    const names = new Map(
      users.ok ? users.value.map((user) => [user.uid, `${user.name ?? user.email} <${user.email}>`]) : [],
    );
    for (const dashboard of required(dashboards)) {
      const fields = dashboard as Record<string, unknown>;
      const owner = text(fields.dashboardCreatedBy) || text(fields.createdBy);
      rows.push({
        accountGroup: group.accountGroupName,
        dashboard,
        owner: names.get(owner) ?? owner,
        modified: text(fields.dashboardModifiedDate) || text(fields.modifiedDate),
      });
    }
    await context.progress(index + 1, total);
  }
  const stem = fileStem('dashboards', context.organization.name, context.now);
  const workbook = await inventoryWorkbook(context.organization.name, rows, context.now);
  const html = inventoryHtml(context.organization.name, rows, context.now);
  await context.progress(total, total);
  const sparse = rows.filter((row) => widgetsOf(row.dashboard).length < HEALTH_LIMITS.minWidgets).length;
  return {
    summaryMarkdown: `**Dashboard Report** for **${escapeMarkdown(context.organization.name)}** is ready: ${rows.length} dashboard(s) in ${context.accountGroups.length} account group(s), ${sparse} with fewer than ${HEALTH_LIMITS.minWidgets} widgets.`,
    artifacts: [
      { filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook },
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
    ],
  };
};
