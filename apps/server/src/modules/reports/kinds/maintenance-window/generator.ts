import { mdSafe } from '../../../../report-kit/markdown.js';
import { windowsWithDetail } from '../../../../report-kit/platform-reads.js';
import { groupByGroupReport, type ReportContext } from '../../report-generator.js';
import { maintenanceHtml, maintenancePdf } from './render.js';
import { describeRepeat, formatDuration, windowState, type WindowRow, type WindowState } from './rules.js';

/** Accounts are optional for this report: without a choice, every account group of the organization. */
async function groupsOf(context: ReportContext) {
  if (context.accountGroups.length) return context.accountGroups;
  return (await context.platform.accountGroups.list(context.signal))
    .filter((group) => group.orgId === context.organization.id || group.organizationName === context.organization.name)
    .map((group) => ({ aid: group.aid, accountGroupName: group.accountGroupName }));
}

const ORDER: Record<WindowState, number> = { now: 0, upcoming: 1, expired: 2 };

/** The organization's alert suppression windows: what they cover, when they run, whether they are in effect. */
export const maintenanceWindowGenerator = groupByGroupReport({
  kind: 'maintenance-windows',
  groups: groupsOf,
  async read({ platform, signal, now }, group): Promise<WindowRow[]> {
    return (await windowsWithDetail(platform, group.aid, signal)).map((window) => ({
      accountGroupName: group.accountGroupName,
      name: window.name,
      schedule: window.startDate ? window.startDate.replace('T', ' ').replace(/:\d\dZ$/, '') : '—',
      repeat: describeRepeat(window),
      duration: formatDuration(window.duration),
      tests: (window.tests ?? []).map((test) => String(test.testName ?? test.testId)),
      state: windowState(window, now),
      enabled: window.isEnabled !== false,
    }));
  },
  async write({ organization, now }, groups) {
    const rows = groups.flat().sort((a, b) => ORDER[a.state] - ORDER[b.state] || a.schedule.localeCompare(b.schedule));
    const inState = (state: WindowState) => rows.filter((row) => row.state === state).length;
    return {
      summary: mdSafe`**Maintenance window report** for **${organization.name}**: ${rows.length} window(s), ${inState('now')} in effect now, ${inState('upcoming')} upcoming.`,
      files: {
        html: maintenanceHtml(organization.name, rows, now),
        pdf: await maintenancePdf(organization.name, rows, now),
      },
    };
  },
});
