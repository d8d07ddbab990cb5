import { AHC_TABLES, type HealthCheck, type HealthFindings, type HealthStatus, type HealthTable } from '@ce/contract';
import { escapeHtml, htmlDocument } from '../../../../../report-kit/html.js';
import {
  cell,
  checkTitle,
  findingsChartSvg,
  scoreTrendSvg,
  SHOWN_ROWS,
  STATUS_COLOURS,
  title,
  when,
} from './common.js';

// HTML ---------------------------------------------------------------------------------------------------

const badge = (status: HealthStatus) =>
  `<span class="badge" style="background:${STATUS_COLOURS[status].fill};color:${STATUS_COLOURS[status].text}">${status}</span>`;

function tableHtml(table: HealthTable): string {
  if (table.unavailable) return `<p class="finding">${escapeHtml(table.unavailable)}</p>`;
  if (!table.rows.length) return '<p>Nothing to show.</p>';
  const more =
    table.rows.length > SHOWN_ROWS
      ? `<p class="meta">${table.rows.length - SHOWN_ROWS} more rows in the spreadsheet.</p>`
      : '';
  return `<table><thead><tr>${table.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${table.rows
  .slice(0, SHOWN_ROWS)
  .map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(cell(value))}</td>`).join('')}</tr>`)
  .join('\n')}
</tbody></table>${more}`;
}

function checkHtml(check: HealthCheck): string {
  const items = check.items.length
    ? `<table><thead><tr><th>Item</th><th>Account group</th><th>Detail</th>${check.savings ? '<th>Cloud units this period</th>' : ''}</tr></thead><tbody>
${check.items
  .slice(0, SHOWN_ROWS)
  .map(
    (item) =>
      `<tr><td>${escapeHtml(item.name)}</td><td>${escapeHtml(item.accountGroup ?? '')}</td><td>${escapeHtml(item.detail)}</td>${check.savings ? `<td>${cell(item.cloudUnits ?? null)}</td>` : ''}</tr>`,
  )
  .join(
    '\n',
  )}</tbody></table>${check.items.length > SHOWN_ROWS ? `<p class="meta">${check.items.length - SHOWN_ROWS} more in the spreadsheet and findings.json.</p>` : ''}`
    : '';
  return `<section id="${check.id}"><h3>${escapeHtml(check.title)} ${badge(check.status)}</h3>
<p class="meta">Threshold: ${escapeHtml(check.threshold)} · weight ${check.weight}</p>
<p><b>How it is checked:</b> ${escapeHtml(check.definition)}</p>
${check.reason ? `<p class="finding">Could not be determined: ${escapeHtml(check.reason)}</p>` : ''}
${check.savings ? `<p><b>Fixing it saves</b> ${check.savings.cloudUnits.toLocaleString('en-US')} cloud units a billing period (what these items used so far this period).</p>` : ''}
${items}
${check.status === 'pass' || check.status === 'unknown' ? '' : `<p><b>Remediation:</b> ${escapeHtml(check.remediation)}</p>`}</section>`;
}

export function healthHtml(findings: HealthFindings): string {
  const trend = scoreTrendSvg(findings);
  const changes = findings.changes.previousAt
    ? findings.changes.items.length
      ? `<table><thead><tr><th>Change</th><th>Check</th><th>Detail</th></tr></thead><tbody>${findings.changes.items
          .slice(0, SHOWN_ROWS)
          .map(
            (change) =>
              `<tr><td>${change.change}</td><td>${escapeHtml(checkTitle(findings, change.checkId))}</td><td>${escapeHtml(change.detail)}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '<p>No change.</p>'
    : '<p>This is the first stored run of this kind for this organization.</p>';
  const tables = AHC_TABLES.flatMap((key) => {
    const table = findings.tables[key];
    return table ? [`<h3 id="table-${key}">${escapeHtml(table.title)}</h3>${tableHtml(table)}`] : [];
  });
  return htmlDocument(
    `${title(findings)}: ${findings.organization.name}`,
    `<h1>${escapeHtml(title(findings))}</h1>
<p class="meta">${escapeHtml(findings.organization.name)} · ${findings.accountGroups.map((group) => escapeHtml(group.accountGroupName)).join(', ')} · ${when(findings.generatedAt)}</p>
<h2>Score: ${findings.score.value}/100, grade ${findings.score.grade}</h2>
<p>Each check has a weight (below: the configuration checks' add up to 100, the measured checks', when made, another 100). A check that passes earns its weight, a warning half of it,
a failure nothing; a check that could not be made (unknown) is left out, and the score is what was earned over the
weights of the checks made. Grades: A from 90, B from 80, C from 70, D from 60, F below.</p>
<table><thead><tr><th>Check</th><th>Status</th><th>Items</th><th>Weight</th></tr></thead><tbody>
${findings.checks.map((check) => `<tr><td><a href="#${check.id}">${escapeHtml(check.title)}</a></td><td>${badge(check.status)}</td><td>${check.items.length}</td><td>${check.weight}</td></tr>`).join('\n')}
</tbody></table>
${findingsChartSvg(findings)}
<h2>Changes since the last run</h2>
${findings.changes.previousAt ? `<p class="meta">Compared with the run of ${when(findings.changes.previousAt)}.</p>` : ''}
${changes}
${trend ?? ''}
<h2>Findings</h2>
${findings.checks.map(checkHtml).join('\n')}
<h2>Tables</h2>
${tables.join('\n') || '<p>No table was chosen.</p>'}`,
  );
}
