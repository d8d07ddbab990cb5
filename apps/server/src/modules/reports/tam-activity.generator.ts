import { tamActivityOptionsSchema } from '@ce/contract';
import type { AuditEvent } from '@ce/platform-client';
import { barChartSvg } from './render/charts.js';
import { escapeHtml, htmlDocument } from './render/html.js';
import { escapeMarkdown } from '../../platform/markdown.js';
import { renderPdf } from './render/pdf.js';
import { streamWorkbook } from './render/stream-workbook.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from './report-generator.js';

const DAY_MS = 86_400_000;
/** HTML and PDF list this many events; the spreadsheet has them all. */
export const SHOWN_EVENTS = 300;
/** The busiest users and account groups shown first. */
const BUSIEST = 10;

export interface ActivityEvent {
  date: string;
  event: string;
  user: string;
  accountGroup: string;
  ipAddress: string;
  resources: string;
}

export interface Tally {
  key: string;
  count: number;
  first: string;
  last: string;
}

export interface ActivitySummary {
  from: string;
  to: string;
  total: number;
  byUser: Tally[];
  byGroup: Tally[];
  byType: Tally[];
  /** Every day of the window, oldest first, with its count (days without events count 0). */
  byDay: { day: string; count: number }[];
}

function tally(events: ActivityEvent[], keyOf: (event: ActivityEvent) => string): Tally[] {
  const tallies = new Map<string, Tally>();
  for (const event of events) {
    const key = keyOf(event);
    const known = tallies.get(key);
    if (!known) tallies.set(key, { key, count: 1, first: event.date, last: event.date });
    else {
      known.count += 1;
      if (event.date < known.first) known.first = event.date;
      if (event.date > known.last) known.last = event.date;
    }
  }
  return [...tallies.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The summaries of the report: per user, account group, event type and day, over [to - days, to]. */
export function summarise(events: ActivityEvent[], to: Date, days: number): ActivitySummary {
  const from = new Date(to.getTime() - days * DAY_MS);
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.date.slice(0, 10), (counts.get(event.date.slice(0, 10)) ?? 0) + 1);
  const byDay: ActivitySummary['byDay'] = [];
  for (let time = Date.parse(from.toISOString().slice(0, 10)); time <= to.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    byDay.push({ day, count: counts.get(day) ?? 0 });
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total: events.length,
    byUser: tally(events, (event) => event.user),
    byGroup: tally(events, (event) => event.accountGroup),
    byType: tally(events, (event) => event.event),
    byDay,
  };
}

const toEvent = (event: AuditEvent, groupName: (aid: string) => string): ActivityEvent => ({
  date: event.date,
  event: event.event,
  user: event.user ?? event.uid ?? 'unknown',
  accountGroup: event.accountGroupName || groupName(event.aid ?? ''),
  ipAddress: event.ipAddress ?? '',
  resources: (event.resources ?? [])
    .map((resource) => [resource.type, resource.name].filter(Boolean).join(': '))
    .join(', '),
});

const dayChart = (summary: ActivitySummary) =>
  barChartSvg({
    title: 'Events per day',
    categories: summary.byDay.map((entry) => entry.day.slice(5)),
    series: [{ name: 'Events', values: summary.byDay.map((entry) => entry.count) }],
    width: 760,
  });

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function tallyHtml(title: string, what: string, tallies: Tally[], limit = tallies.length): string {
  if (!tallies.length) return '';
  return `<h2>${escapeHtml(title)}</h2><table><thead><tr><th>${escapeHtml(what)}</th><th>Events</th><th>First</th><th>Last</th></tr></thead><tbody>
${tallies
  .slice(0, limit)
  .map(
    (entry) =>
      `<tr><td>${escapeHtml(entry.key)}</td><td>${entry.count}</td><td>${escapeHtml(when(entry.first))}</td><td>${escapeHtml(when(entry.last))}</td></tr>`,
  )
  .join('\n')}</tbody></table>`;
}

export function activityHtml(organization: string, summary: ActivitySummary, events: ActivityEvent[]): string {
  const listed = events.slice(0, SHOWN_EVENTS);
  return htmlDocument(
    `TAM activity: ${organization}`,
    `<h1>TAM activity report</h1>
<p class="meta">${escapeHtml(organization)} · ${escapeHtml(when(summary.from))} to ${escapeHtml(when(summary.to))} · ${summary.total} event(s), ${summary.byUser.length} user(s), ${summary.byGroup.length} account group(s)</p>
${summary.total ? dayChart(summary) : '<p>No activity in this window.</p>'}
${tallyHtml('Busiest users', 'User', summary.byUser, BUSIEST)}
${tallyHtml('Busiest account groups', 'Account group', summary.byGroup, BUSIEST)}
${tallyHtml('By event type', 'Event', summary.byType)}
${tallyHtml('By user', 'User', summary.byUser)}
${tallyHtml('By account group', 'Account group', summary.byGroup)}
<h2>Events</h2>
${
  listed.length
    ? `<table><thead><tr><th>Date (UTC)</th><th>User</th><th>Account group</th><th>Event</th><th>Resources</th><th>Address</th></tr></thead><tbody>
${listed.map((event) => `<tr><td>${escapeHtml(when(event.date))}</td><td>${escapeHtml(event.user)}</td><td>${escapeHtml(event.accountGroup)}</td><td>${escapeHtml(event.event)}</td><td>${escapeHtml(event.resources)}</td><td>${escapeHtml(event.ipAddress)}</td></tr>`).join('\n')}
</tbody></table>${events.length > listed.length ? `<p class="meta">${events.length - listed.length} more events in the spreadsheet.</p>` : ''}`
    : '<p>No event.</p>'
}`,
  );
}

function activityPdf(organization: string, summary: ActivitySummary, events: ActivityEvent[]): Promise<Buffer> {
  const table = (columns: string[], rows: (string | number)[][]) => ({
    table: {
      headerRows: 1,
      widths: columns.map(() => '*'),
      body: [
        columns.map((text) => ({ text, bold: true, fillColor: '#f1f5f9' })),
        ...rows.map((row) => row.map(String)),
      ],
    },
    layout: 'lightHorizontalLines',
    margin: [0, 4, 0, 8],
  });
  const tallyRows = (tallies: Tally[], limit = tallies.length) =>
    tallies.slice(0, limit).map((entry) => [entry.key, entry.count, when(entry.first), when(entry.last)]);
  const heading = (text: string) => ({ text, fontSize: 13, bold: true, margin: [0, 8, 0, 2] });
  return renderPdf({
    info: { title: `TAM activity: ${organization}`, creator: 'CE Toolkit' },
    content: [
      { text: 'TAM activity report', fontSize: 16, bold: true },
      {
        text: `${organization} · ${when(summary.from)} to ${when(summary.to)} · ${summary.total} event(s)`,
        color: '#475569',
        margin: [0, 2, 0, 8],
      },
      ...(summary.total ? [{ svg: dayChart(summary), width: 700 }] : [{ text: 'No activity in this window.' }]),
      heading('Busiest users'),
      table(['User', 'Events', 'First', 'Last'], tallyRows(summary.byUser, BUSIEST)),
      heading('Busiest account groups'),
      table(['Account group', 'Events', 'First', 'Last'], tallyRows(summary.byGroup, BUSIEST)),
      heading('By event type'),
      table(['Event', 'Events', 'First', 'Last'], tallyRows(summary.byType)),
      heading('Events'),
      table(
        ['Date (UTC)', 'User', 'Account group', 'Event', 'Resources'],
        events
          .slice(0, SHOWN_EVENTS)
          .map((event) => [when(event.date), event.user, event.accountGroup, event.event, event.resources]),
      ),
      ...(events.length > SHOWN_EVENTS
        ? [{ text: `${events.length - SHOWN_EVENTS} more events in the spreadsheet.`, color: '#475569' }]
        : []),
    ],
  });
}

/** The workbook, written row by row with the streaming writer: Summary, the four tallies, and every event. */
export function activityWorkbook(
  organization: string,
  summary: ActivitySummary,
  events: ActivityEvent[],
): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summarySheet = sheet('Summary', [
      { header: 'Measure', width: 30 },
      { header: 'Value', width: 50 },
    ]);
    for (const row of [
      ['Organization', organization],
      ['From', new Date(summary.from)],
      ['To', new Date(summary.to)],
      ['Events', summary.total],
      ['Users', summary.byUser.length],
      ['Account groups', summary.byGroup.length],
      ['Event types', summary.byType.length],
    ] as [string, string | number | Date][])
      summarySheet.row(row);
    summarySheet.done();
    const tallySheet = (name: string, what: string, tallies: Tally[]) => {
      const writer = sheet(name, [
        { header: what, width: 44 },
        { header: 'Events', width: 10 },
        { header: 'First', width: 20 },
        { header: 'Last', width: 20 },
      ]);
      for (const entry of tallies) writer.row([entry.key, entry.count, new Date(entry.first), new Date(entry.last)]);
      writer.done();
    };
    tallySheet('By user', 'User', summary.byUser);
    tallySheet('By account group', 'Account group', summary.byGroup);
    tallySheet('By event type', 'Event', summary.byType);
    const days = sheet('By day', [
      { header: 'Day', width: 14 },
      { header: 'Events', width: 10 },
    ]);
    for (const entry of summary.byDay) days.row([new Date(`${entry.day}T00:00:00Z`), entry.count]);
    days.done();
    const list = sheet('Events', [
      { header: 'Date (UTC)', width: 20 },
      { header: 'User', width: 40 },
      { header: 'Account group', width: 30 },
      { header: 'Event', width: 24 },
      { header: 'Resources', width: 40 },
      { header: 'Address', width: 16 },
    ]);
    for (const event of events)
      list.row([new Date(event.date), event.user, event.accountGroup, event.event, event.resources, event.ipAddress]);
    list.done();
  }, new Date(summary.to));
}

/**
 * The TAM activity report: the organization's audit log (`/audit-user-events` across every account group
 * the token may see, followed page by page) over the last 7, 14 or 21 days, kept to the chosen account
 * groups when some were chosen, summarised per user, account group, event type and day.
 */
export const tamActivityGenerator: ReportGenerator = async (context) => {
  const { daysRange } = tamActivityOptionsSchema.parse(context.options);
  const groups = await context.platform.accountGroups.list(context.signal);
  const inOrganization = groups.filter(
    (group) => group.orgId === context.organization.id || group.organizationName === context.organization.name,
  );
  const names = new Map(inOrganization.map((group) => [group.aid, group.accountGroupName]));
  const wanted = new Set(
    (context.accountGroups.length ? context.accountGroups : inOrganization).map((group) => group.aid),
  );
  await context.progress(1, 3);
  const events: ActivityEvent[] = [];
  for await (const event of context.platform.auditUserEvents.list({
    aid: inOrganization[0]?.aid,
    range: { window: `${daysRange}d` },
    useAllPermittedAids: true,
    signal: context.signal,
  }))
    if (wanted.has(event.aid ?? '')) events.push(toEvent(event, (aid) => names.get(aid) ?? aid));
  events.sort((a, b) => b.date.localeCompare(a.date));
  await context.progress(2, 3);
  const summary = summarise(events, context.now, daysRange);
  const stem = fileStem('tam-activity', context.organization.name, context.now);
  const [workbook, pdf] = [
    await activityWorkbook(context.organization.name, summary, events),
    await activityPdf(context.organization.name, summary, events),
  ];
  const html = activityHtml(context.organization.name, summary, events);
  await context.progress(3, 3);
  const top = (tallies: Tally[]) =>
    tallies
      .slice(0, 3)
      .map((entry) => `${escapeMarkdown(entry.key)} (${entry.count})`)
      .join(', ');
  return {
    summaryMarkdown: [
      `**TAM activity report** for **${escapeMarkdown(context.organization.name)}**, last ${daysRange} days: ${summary.total} event(s) by ${summary.byUser.length} user(s) in ${summary.byGroup.length} account group(s).`,
      summary.total ? `Busiest users: ${top(summary.byUser)}. Busiest groups: ${top(summary.byGroup)}.` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    artifacts: [
      { filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook },
      { filename: `${stem}.pdf`, contentType: 'application/pdf', content: pdf },
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
    ],
  };
};
