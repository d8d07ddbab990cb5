import { barChartSvg } from '../../../../report-kit/charts.js';
import { utcMinuteOf } from '../../../../report-kit/dates.js';
import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { renderPdf } from '../../../../report-kit/pdf.js';
import { streamWorkbook } from '../../../../report-kit/stream-workbook.js';
import { BUSIEST, SHOWN_EVENTS, type ActivityEvent, type ActivitySummary, type Tally } from './rules.js';

const dayChart = (summary: ActivitySummary) =>
  barChartSvg({
    title: 'Events per day',
    categories: summary.byDay.map((entry) => entry.day.slice(5)),
    series: [{ name: 'Events', values: summary.byDay.map((entry) => entry.count) }],
    width: 760,
  });

function tallyHtml(title: string, what: string, tallies: Tally[], limit = tallies.length): string {
  if (!tallies.length) return '';
  return `<h2>${escapeHtml(title)}</h2><table><thead><tr><th>${escapeHtml(what)}</th><th>Events</th><th>First</th><th>Last</th></tr></thead><tbody>
${tallies
  .slice(0, limit)
  .map(
    (entry) =>
      `<tr><td>${escapeHtml(entry.key)}</td><td>${entry.count}</td><td>${escapeHtml(utcMinuteOf(entry.first))}</td><td>${escapeHtml(utcMinuteOf(entry.last))}</td></tr>`,
  )
  .join('\n')}</tbody></table>`;
}

export function activityHtml(organization: string, summary: ActivitySummary, events: ActivityEvent[]): string {
  const listed = events.slice(0, SHOWN_EVENTS);
  return htmlDocument(
    `TAM activity: ${organization}`,
    `<h1>TAM activity report</h1>
<p class="meta">${escapeHtml(organization)} · ${escapeHtml(utcMinuteOf(summary.from))} to ${escapeHtml(utcMinuteOf(summary.to))} · ${summary.total} event(s), ${summary.byUser.length} user(s), ${summary.byGroup.length} account group(s)</p>
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
${listed.map((event) => `<tr><td>${escapeHtml(utcMinuteOf(event.date))}</td><td>${escapeHtml(event.user)}</td><td>${escapeHtml(event.accountGroup)}</td><td>${escapeHtml(event.event)}</td><td>${escapeHtml(event.resources)}</td><td>${escapeHtml(event.ipAddress)}</td></tr>`).join('\n')}
</tbody></table>${events.length > listed.length ? `<p class="meta">${events.length - listed.length} more events in the spreadsheet.</p>` : ''}`
    : '<p>No event.</p>'
}`,
  );
}

export function activityPdf(organization: string, summary: ActivitySummary, events: ActivityEvent[]): Promise<Buffer> {
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
    tallies.slice(0, limit).map((entry) => [entry.key, entry.count, utcMinuteOf(entry.first), utcMinuteOf(entry.last)]);
  const heading = (text: string) => ({ text, fontSize: 13, bold: true, margin: [0, 8, 0, 2] });
  return renderPdf({
    info: { title: `TAM activity: ${organization}`, creator: 'CE Toolkit' },
    content: [
      { text: 'TAM activity report', fontSize: 16, bold: true },
      {
        text: `${organization} · ${utcMinuteOf(summary.from)} to ${utcMinuteOf(summary.to)} · ${summary.total} event(s)`,
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
          .map((event) => [utcMinuteOf(event.date), event.user, event.accountGroup, event.event, event.resources]),
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
    const measures: [string, string | number | Date][] = [
      ['Organization', organization],
      ['From', new Date(summary.from)],
      ['To', new Date(summary.to)],
      ['Events', summary.total],
      ['Users', summary.byUser.length],
      ['Account groups', summary.byGroup.length],
      ['Event types', summary.byType.length],
    ];
    for (const row of measures) summarySheet.row(row);
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
