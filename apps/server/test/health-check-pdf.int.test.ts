import { describe, expect, it } from 'vitest';
import { HEALTH_CHECK_IDS, healthFindingsSchema, type HealthFindings, type HealthTable } from '@ce/contract';
import { reportFile, reportSuite, requestReport } from './build-test-app.js';
import { pdfPages } from './support/pdf-text.js';

/** How a table's cell reads in the PDF. */
const shown = (value: string | number | null) =>
  value === null ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value;

describe('the health check as a PDF (the file sent to Webex and to customers)', () => {
  const suite = reportSuite('pglite', 'tam@demo.local', { rateLimitPerMinute: 100_000 });
  let made: { findings: HealthFindings; pages: string[][]; lines: string[]; html: string } | undefined;
  /** One AHC v7 health check of the sandbox customer, its findings and its PDF read back as text. */
  const report = async () => {
    if (made) return made;
    const request = await requestReport(suite.client, suite.customer, 'ahc-v7');
    expect(request.status, request.error ?? '').toBe('done');
    const findings = healthFindingsSchema.parse(
      JSON.parse((await reportFile(suite.client, request, 'findings.json')).toString('utf8')),
    );
    const pages = pdfPages(await reportFile(suite.client, request, '.pdf'));
    const html = (await reportFile(suite.client, request, '.html')).toString('utf8');
    made = { findings, pages, lines: pages.flat(), html };
    return made;
  };

  it('opens with the score, the grade and the worst findings on its first page', async () => {
    const { findings, pages } = await report();
    const first = pages[0]?.join('\n') ?? '';
    expect(first).toContain(`Score ${findings.score.value}/100`);
    expect(first).toContain(`grade ${findings.score.grade}`);
    // The worst first: failures, then warnings, heavier checks first; five of them.
    const worst = findings.checks
      .filter((check) => check.status === 'fail' || check.status === 'warn')
      .sort((a, b) => Number(a.status === 'warn') - Number(b.status === 'warn') || b.weight - a.weight);
    expect(worst.length).toBeGreaterThan(0);
    expect(first).toContain('Top findings');
    for (const check of worst.slice(0, 5)) expect(first).toContain(check.title);
  });

  it('has every column of every table, the key column with each part of a wide one', async () => {
    const { findings, lines } = await report();
    const text = lines.join('\n');
    const tables = Object.values(findings.tables).filter(
      (table): table is HealthTable => table !== undefined && !table.unavailable,
    );
    expect(tables.map((table) => table.title)).toEqual(
      expect.arrayContaining(['Deployment summary', 'Users and roles']),
    );
    for (const table of tables) {
      expect(lines, table.title).toContain(table.title);
      // Each header whole on one line: a header cut or wrapped is a column a reader cannot name.
      for (const column of table.columns)
        expect(lines.some((line) => line.split(' | ').includes(column), `${table.title}: ${column}`)).toBe(true);
      // Each row's values, every column of it, on the lines its key starts (one line, or one per part).
      for (const row of table.rows.slice(0, 20)) {
        // The lines whose first cell is the key, or the longest start of it (a key that wraps).
        const key = shown(row[0] ?? null);
        const rowLines = lines
          .map((line) => line.split(' | '))
          .filter(([first = '']) => first && key.startsWith(first));
        const longest = Math.max(...rowLines.map(([first = '']) => first.length));
        const values = rowLines.filter(([first = '']) => first.length === longest).flatMap((cells) => cells.slice(1));
        for (const [index, value] of row.entries())
          if (index > 0) expect(values, `${table.title}: ${table.columns[index]} of ${key}`).toContain(shown(value));
      }
    }
    expect(text).toContain('Last sign-in');
    expect(text).toContain('Days since sign-in');
    // The inactive users' evidence: the days since each signed in, on the user's row.
    const users = findings.tables.users_roles;
    const planted = users?.rows.find((row) => typeof row[5] === 'number' && row[5] >= 60);
    expect(planted).toBeDefined();
    expect(lines.find((line) => line.includes(` | ${planted?.[2]} | `))).toContain(
      ` | ${planted?.[4]} | ${shown(planted?.[5] ?? null)}`,
    );
  });

  it('names things, never by an internal id, and its chart labels every bar by its check', async () => {
    const { findings, pages, lines, html } = await report();
    const text = lines.join('\n');
    // The HTML report says the same in words (its anchors may use the ids: a reader does not see them).
    const htmlText = html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]*>/g, ' ');
    for (const id of HEALTH_CHECK_IDS) expect(htmlText, id).not.toContain(id);
    for (const id of HEALTH_CHECK_IDS) expect(text, id).not.toContain(id);
    expect(text).not.toMatch(/\b[0-9a-f]{24}\b/);
    for (const check of findings.checks)
      for (const item of check.items) {
        // By its name (a long one wraps in its cell: word by word).
        for (const word of item.name.split(' ')) expect(text, item.name).toContain(word);
        expect(text, `${item.type} ${item.id}`).not.toContain(`${item.type} ${item.id}`);
      }
    const chartPage = pages.find((page) => page.includes('Items found per check')) ?? [];
    const labels = chartPage
      .slice(chartPage.indexOf('Items found per check') + 1, chartPage.indexOf('Changes since the last run') >>> 0)
      .flatMap((line) => line.split(' | '));
    for (const check of findings.checks) expect(labels, check.title).toContain(check.title);
  });
});
