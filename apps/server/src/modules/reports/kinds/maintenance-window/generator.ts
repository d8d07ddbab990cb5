import { escapeMarkdown } from '../../../../report-kit/markdown.js';
import { fileStem, type ReportGenerator } from '../../report-generator.js';
import { maintenanceHtml, maintenancePdf } from './render.js';
import { describeRepeat, formatDuration, windowState, type WindowRow, type WindowState } from './rules.js';

/** The organization's alert suppression windows: what they cover, when they run, whether they are in effect. */
export const maintenanceWindowGenerator: ReportGenerator = async (context) => {
  // Accounts are optional for this report: without a choice, every account group of the organization.
  const groups = context.accountGroups.length
    ? context.accountGroups
    : (await context.platform.accountGroups.list(context.signal))
        .filter(
          (group) => group.orgId === context.organization.id || group.organizationName === context.organization.name,
        )
        .map((group) => ({ aid: group.aid, accountGroupName: group.accountGroupName }));
  const total = groups.length + 1;
  const rows: WindowRow[] = [];
  for (const [index, group] of groups.entries()) {
    const windows = await context.platform.alertSuppressionWindows.list(group.aid, context.signal);
    const detailed = await Promise.all(
      windows.map((window) =>
        context.platform.alertSuppressionWindows.get(window.alertSuppressionWindowId, group.aid, context.signal),
      ),
    );
    for (const window of detailed) {
      rows.push({
        accountGroupName: group.accountGroupName,
        name: window.name,
        schedule: window.startDate ? window.startDate.replace('T', ' ').replace(/:\d\dZ$/, '') : '—',
        repeat: describeRepeat(window),
        duration: formatDuration(window.duration),
        tests: (window.tests ?? []).map((test) => String(test.testName ?? test.testId)),
        state: windowState(window, context.now),
        enabled: window.isEnabled !== false,
      });
    }
    await context.progress(index + 1, total);
  }
  const order: Record<WindowState, number> = { now: 0, upcoming: 1, expired: 2 };
  rows.sort((a, b) => order[a.state] - order[b.state] || a.schedule.localeCompare(b.schedule));
  const stem = fileStem('maintenance-windows', context.organization.name, context.now);
  const html = maintenanceHtml(context.organization.name, rows, context.now);
  const pdf = await maintenancePdf(context.organization.name, rows, context.now);
  await context.progress(total, total);
  return {
    summaryMarkdown: `**Maintenance window report** for **${escapeMarkdown(context.organization.name)}**: ${rows.length} window(s), ${rows.filter((row) => row.state === 'now').length} in effect now, ${rows.filter((row) => row.state === 'upcoming').length} upcoming.`,
    artifacts: [
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
      { filename: `${stem}.pdf`, contentType: 'application/pdf', content: pdf },
    ],
  };
};
