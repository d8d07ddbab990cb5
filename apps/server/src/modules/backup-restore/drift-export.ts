import type { Drift } from '@ce/contract';
import { escapeHtml, htmlDocument } from '../../report-kit/html.js';
import { streamWorkbook } from '../../report-kit/stream-workbook.js';

const WORDS = { added: 'Added', removed: 'Removed', changed: 'Changed', renamed: 'Renamed' } as const;

/** A comparison as rows: one per changed field, or one per added or removed item. */
function rows(drift: Drift): string[][] {
  return drift.changes.flatMap((change) =>
    change.fields.length
      ? change.fields.map((field) => [
          change.kind,
          change.name,
          WORDS[change.change],
          field.path,
          field.before ?? '',
          field.after ?? '',
        ])
      : [[change.kind, change.name, WORDS[change.change], '', '', '']],
  );
}

/** The comparison as a workbook: counts per kind, then every change (text formula-safe). */
export function driftWorkbook(title: string, drift: Drift): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Kind', width: 26 },
      { header: 'Added', width: 10 },
      { header: 'Removed', width: 10 },
      { header: 'Changed', width: 10 },
      { header: 'Unchanged', width: 12 },
    ]);
    for (const [kind, count] of Object.entries(drift.counts))
      summary.row([kind, count.added, count.removed, count.changed, count.unchanged]);
    summary.done();
    const changes = sheet('Changes', [
      { header: 'Kind', width: 22 },
      { header: 'Item', width: 36 },
      { header: 'Change', width: 10 },
      { header: 'Field', width: 28 },
      { header: `Before (${title})`, width: 40 },
      { header: `After (${drift.against})`, width: 40 },
    ]);
    for (const row of rows(drift)) changes.row(row);
    changes.done();
  });
}

/** The comparison as a self-contained HTML page (every value escaped). */
export function driftHtml(title: string, drift: Drift): string {
  const counts = Object.entries(drift.counts)
    .map(
      ([kind, count]) =>
        `<tr><td>${escapeHtml(kind)}</td><td>${count.added}</td><td>${count.removed}</td><td>${count.changed}</td><td>${count.unchanged}</td></tr>`,
    )
    .join('');
  const changes = rows(drift)
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return htmlDocument(
    `Drift: ${title}`,
    `<h1>Drift of ${escapeHtml(title)}</h1><p class="meta">Compared with ${escapeHtml(drift.against)}</p>` +
      `<h2>Counts</h2><table><tr><th>Kind</th><th>Added</th><th>Removed</th><th>Changed</th><th>Unchanged</th></tr>${counts}</table>` +
      `<h2>Changes</h2><table><tr><th>Kind</th><th>Item</th><th>Change</th><th>Field</th><th>Before</th><th>After</th></tr>${changes || '<tr><td colspan="6">No change.</td></tr>'}</table>`,
  );
}
