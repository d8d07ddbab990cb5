import { HEALTH_LIMITS } from '@ce/contract';
import { mdSafe } from '../../../../report-kit/markdown.js';
import { dashboardsWithWidgets, readable, required } from '../../../../report-kit/platform-reads.js';
import { groupByGroupReport } from '../../report-generator.js';
import { inventoryHtml, inventoryWorkbook } from './render.js';
import { text, widgetsOf, type InventoryRow } from './rules.js';

/**
 * The dashboards of the chosen account groups: widgets by type and data source, owner, last change, and
 * the dashboards with fewer than two widgets. Per group: the dashboards (each read alone only when listed
 * without widgets) and the users, to name owners (their ids are shown when users may not be read).
 */
export const dashboardReportGenerator = groupByGroupReport({
  kind: 'dashboards',
  async read({ platform, signal }, group): Promise<InventoryRow[]> {
    const [dashboards, users] = await Promise.all([
      readable(`the dashboards of ${group.accountGroupName}`, 'View dashboards', () =>
        dashboardsWithWidgets(platform, group.aid, signal),
      ),
      readable(
        `the users of ${group.accountGroupName}`,
        'View all users',
        async () => (await platform.accountGroups.get(group.aid, ['user'], signal)).users ?? [],
      ),
    ]);
    const names = new Map(
      users.ok ? users.value.map((user) => [user.uid, `${user.name ?? user.email} <${user.email}>`]) : [],
    );
    return required(dashboards).map((dashboard) => {
      const owner = text(dashboard.dashboardCreatedBy) || text(dashboard.createdBy);
      return {
        accountGroup: group.accountGroupName,
        dashboard,
        owner: names.get(owner) ?? owner,
        modified: text(dashboard.dashboardModifiedDate) || text(dashboard.modifiedDate),
      };
    });
  },
  async write({ organization, accountGroups, now }, groups) {
    const rows = groups.flat();
    const sparse = rows.filter((row) => widgetsOf(row.dashboard).length < HEALTH_LIMITS.minWidgets).length;
    return {
      summary: mdSafe`**Dashboard Report** for **${organization.name}** is ready: ${rows.length} dashboard(s) in ${accountGroups.length} account group(s), ${sparse} with fewer than ${HEALTH_LIMITS.minWidgets} widgets.`,
      files: {
        xlsx: await inventoryWorkbook(organization.name, rows, now),
        html: inventoryHtml(organization.name, rows, now),
      },
    };
  },
});
