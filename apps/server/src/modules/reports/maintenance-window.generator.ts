import type { SuppressionWindow } from '@ce/platform-client';
import { escapeHtml, htmlDocument } from './render/html.js';
import { escapeMarkdown } from '../../platform/markdown.js';
import { renderPdf } from './render/pdf.js';
import { fileStem, type ReportGenerator } from './report-generator.js';

export type WindowState = 'now' | 'upcoming' | 'expired';

export interface WindowRow {
  accountGroupName: string;
  name: string;
  schedule: string;
  repeat: string;
  duration: string;
  tests: string[];
  state: WindowState;
  enabled: boolean;
}

const DAY_NAMES: Record<string, string> = {
  sun: 'Sun',
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
};

export function formatDuration(seconds: number | undefined): string {
  if (!seconds) return '—';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return [hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean).join(' ') || `${seconds} s`;
}

function describeRepeat(window: SuppressionWindow): string {
  const repeat = window.repeat as { type?: string; intervalLength?: number; daysOfWeek?: string[] } | undefined;
  if (!repeat?.type) return 'Once';
  const every =
    repeat.intervalLength && repeat.intervalLength > 1
      ? `every ${repeat.intervalLength} ${repeat.type}s`
      : `every ${repeat.type}`;
  const days = repeat.daysOfWeek?.length
    ? ` on ${repeat.daysOfWeek.map((day) => DAY_NAMES[day] ?? day).join(', ')}`
    : '';
  const end = window.endRepeat as { type?: string; count?: number; date?: string } | undefined;
  const until = end?.type === 'count' ? `, ${end.count} times` : end?.type === 'date' ? `, until ${end.date}` : '';
  return `${every.charAt(0).toUpperCase()}${every.slice(1)}${days}${until}`;
}

/** Now, upcoming or expired: from the platform's status, or from the dates when it gives none. */
export function windowState(window: SuppressionWindow, now: Date): WindowState {
  if (window.status === 'active') return 'now';
  if (window.status === 'ended') return 'expired';
  const start = Date.parse(window.startDate ?? '');
  const end = start + (window.duration ?? 0) * 1000;
  if (!window.repeat && Number.isFinite(end) && end < now.getTime()) return 'expired';
  if (Number.isFinite(start) && start <= now.getTime() && end >= now.getTime()) return 'now';
  return 'upcoming';
}

const STATE_LABEL: Record<WindowState, string> = { now: 'In effect now', upcoming: 'Upcoming', expired: 'Expired' };

export function maintenanceHtml(organization: string, rows: WindowRow[], now: Date): string {
  const body = rows.length
    ? `<table><thead><tr><th>Account group</th><th>Window</th><th>Starts (UTC)</th><th>Repeat</th><th>Duration</th><th>Tests covered</th><th>State</th></tr></thead><tbody>
${rows
  .map(
    (row) =>
      `<tr><td>${escapeHtml(row.accountGroupName)}</td><td>${escapeHtml(row.name)}${row.enabled ? '' : ' (disabled)'}</td><td>${escapeHtml(row.schedule)}</td><td>${escapeHtml(row.repeat)}</td><td>${escapeHtml(row.duration)}</td><td>${row.tests.length ? row.tests.map(escapeHtml).join('<br>') : '—'}</td><td><span class="badge ${row.state}">${STATE_LABEL[row.state]}</span></td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : '<p>This organization has no alert suppression window.</p>';
  const counts = (['now', 'upcoming', 'expired'] as const).map(
    (state) => `${rows.filter((row) => row.state === state).length} ${STATE_LABEL[state].toLowerCase()}`,
  );
  return htmlDocument(
    `Maintenance windows: ${organization}`,
    `<h1>Maintenance window report</h1><p class="meta">${escapeHtml(organization)} · ${rows.length} window(s): ${counts.join(', ')} · ${escapeHtml(now.toISOString().slice(0, 16).replace('T', ' '))} UTC</p>${body}`,
  );
}

export function maintenancePdf(organization: string, rows: WindowRow[], now: Date): Promise<Buffer> {
  const header = ['Account group', 'Window', 'Starts (UTC)', 'Repeat', 'Duration', 'Tests covered', 'State'].map(
    (text) => ({ text, bold: true, fillColor: '#f1f5f9' }),
  );
  return renderPdf({
    info: { title: `Maintenance windows: ${organization}`, creator: 'CE Toolkit' },
    content: [
      { text: 'Maintenance window report', fontSize: 16, bold: true },
      {
        text: `${organization} · ${rows.length} window(s) · ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        color: '#475569',
        margin: [0, 2, 0, 10],
      },
      rows.length
        ? {
            table: {
              headerRows: 1,
              widths: [90, 100, 70, 110, 45, '*', 55],
              body: [
                header,
                ...rows.map((row) => [
                  row.accountGroupName,
                  row.name,
                  row.schedule,
                  row.repeat,
                  row.duration,
                  row.tests.join('\n') || '—',
                  STATE_LABEL[row.state],
                ]),
              ],
            },
            layout: 'lightHorizontalLines',
          }
        : { text: 'This organization has no alert suppression window.' },
    ],
  });
}

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
        tests: (window.tests ?? []).map((test) => String((test as { testName?: unknown }).testName ?? test.testId)),
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
