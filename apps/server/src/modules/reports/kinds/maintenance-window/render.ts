import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { renderPdf } from '../../../../report-kit/pdf.js';
import type { WindowRow, WindowState } from './rules.js';
import { utcMinute } from '../../../../report-kit/dates.js';

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
    `<h1>Maintenance window report</h1><p class="meta">${escapeHtml(organization)} · ${rows.length} window(s): ${counts.join(', ')} · ${utcMinute(now)}</p>${body}`,
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
        text: `${organization} · ${rows.length} window(s) · ${utcMinute(now)}`,
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
