import { HEALTH_LIMITS } from '@ce/contract';
import { escapeMarkdown } from '../../../../report-kit/markdown.js';
import { dashboardsWithWidgets, readable, required } from '../../../../report-kit/platform-reads.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from '../../report-generator.js';
import { inventoryHtml, inventoryWorkbook } from './render.js';
import { text, widgetsOf, type InventoryRow } from './rules.js';

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
      const owner = text(dashboard.dashboardCreatedBy) || text(dashboard.createdBy);
      rows.push({
        accountGroup: group.accountGroupName,
        dashboard,
        owner: names.get(owner) ?? owner,
        modified: text(dashboard.dashboardModifiedDate) || text(dashboard.modifiedDate),
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
