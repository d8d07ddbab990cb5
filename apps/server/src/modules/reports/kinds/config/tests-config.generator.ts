import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { mdLines, mdSafe } from '../../../../report-kit/markdown.js';
import { isRecord, recordsOf } from '../../../../core/json.js';
import { streamWorkbook, type CellValue } from '../../../../report-kit/stream-workbook.js';
import { required } from '../../../../report-kit/platform-reads.js';
import { groupByGroupReport } from '../../report-generator.js';
import { readGroupConfig, type ConfiguredTest, type ConfigPart } from './read.js';
import { utcMinute } from '../../../../report-kit/dates.js';

/** Fields every test has: the sheet's first columns. What else a test carries is its type's configuration. */
const COMMON = [
  'testId',
  'testName',
  'type',
  'interval',
  'enabled',
  'alertsEnabled',
  'description',
  'createdBy',
  'createdDate',
  'modifiedBy',
  'modifiedDate',
  'liveShare',
  'savedEvent',
] as const;
const NOT_CONFIGURATION = new Set<string>([...COMMON, '_links', 'agents', 'alertRules', 'tags', 'labels']);
/** HTML lists this many tests per type; the spreadsheet has them all. */
export const SHOWN_TESTS = 200;

/** A configuration value as a cell: lists joined, objects by their names, dates as dates. */
export function configValue(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map((item) => String(configValue(item) ?? '')).join(', ');
  if (isRecord(value)) {
    const named = value.serverName ?? value.name ?? value.agentName ?? value.ruleName;
    return named !== undefined ? String(named) : JSON.stringify(value);
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return new Date(value);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : String(value);
}

/** The type-specific fields the tests of one type carry, in the order first met. */
export function configFields(tests: ConfiguredTest[]): string[] {
  const fields = new Set<string>();
  for (const { test } of tests) for (const key of Object.keys(test)) if (!NOT_CONFIGURATION.has(key)) fields.add(key);
  return [...fields];
}

export interface TestRow {
  accountGroup: string;
  configured: ConfiguredTest;
}

const sharing = (test: ConfiguredTest['test']) => {
  const shared = recordsOf(test.sharedWithAccounts);
  if (shared.length) return shared.map((account) => account.name ?? account.aid).join(', ');
  return test.liveShare ? 'live share' : 'not shared';
};

/** One sheet per test type (its own configuration columns) after a summary per account group and type. */
export async function testsWorkbook(organization: string, rows: TestRow[], now: Date): Promise<Buffer> {
  const types = [...new Set(rows.map((row) => row.configured.test.type))].sort();
  const groups = [...new Set(rows.map((row) => row.accountGroup))];
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Account group', width: 36 },
      ...types.map((type) => ({ header: type, width: 14 })),
      { header: 'All tests', width: 10 },
    ]);
    for (const group of groups) {
      const mine = rows.filter((row) => row.accountGroup === group);
      summary.row([
        group,
        ...types.map((type) => mine.filter((row) => row.configured.test.type === type).length),
        mine.length,
      ]);
    }
    summary.row([`${organization}, generated ${utcMinute(now)}`]);
    summary.done();
    for (const type of types) {
      const ofType = rows.filter((row) => row.configured.test.type === type);
      const fields = configFields(ofType.map((row) => row.configured));
      const writer = sheet(type, [
        { header: 'Account group', width: 28 },
        ...COMMON.map((field) => ({ header: field, width: field === 'description' ? 30 : 16 })),
        ...fields.map((field) => ({ header: field, width: 20 })),
        { header: 'agents', width: 50 },
        { header: 'alertRules', width: 40 },
        { header: 'tags', width: 30 },
        { header: 'sharing', width: 16 },
      ]);
      for (const { accountGroup, configured } of ofType) {
        const test = configured.test;
        writer.row([
          accountGroup,
          ...COMMON.map((field) => configValue(test[field])),
          ...fields.map((field) => configValue(test[field])),
          configured.agents
            .map((agent) => `${agent.agentName} (${agent.agentType}, ${agent.location || 'no location'})`)
            .join('; '),
          configured.rules.map((rule) => rule.ruleName).join('; '),
          configured.tags.join('; '),
          sharing(configured.test),
        ]);
      }
      writer.done();
    }
  }, now);
}

export function testsHtml(organization: string, rows: TestRow[], now: Date): string {
  const types = [...new Set(rows.map((row) => row.configured.test.type))].sort();
  const sections = types.map((type) => {
    const ofType = rows.filter((row) => row.configured.test.type === type);
    const fields = configFields(ofType.map((row) => row.configured));
    const shown = ofType.slice(0, SHOWN_TESTS);
    return `<h2>${escapeHtml(type)} (${ofType.length})</h2>
<table><thead><tr><th>Account group</th><th>Test</th><th>Interval</th><th>Enabled</th>${fields.map((field) => `<th>${escapeHtml(field)}</th>`).join('')}<th>Agents</th><th>Alert rules</th><th>Tags</th><th>Sharing</th></tr></thead><tbody>
${shown
  .map(({ accountGroup, configured }) => {
    const test = configured.test;
    const cell = (value: unknown) => {
      const shown = configValue(value);
      return escapeHtml(shown instanceof Date ? shown.toISOString().slice(0, 10) : (shown ?? ''));
    };
    return `<tr><td>${escapeHtml(accountGroup)}</td><td>${escapeHtml(configured.test.testName)} <span class="meta">${escapeHtml(configured.test.testId)}</span></td><td>${cell(test.interval)}</td><td>${cell(test.enabled)}</td>${fields.map((field) => `<td>${cell(test[field])}</td>`).join('')}<td>${configured.agents.map((agent) => escapeHtml(`${agent.agentName} (${agent.agentType})`)).join('<br>')}</td><td>${configured.rules.map((rule) => escapeHtml(rule.ruleName)).join('<br>')}</td><td>${configured.tags.map(escapeHtml).join('<br>')}</td><td>${escapeHtml(sharing(configured.test))}</td></tr>`;
  })
  .join(
    '\n',
  )}</tbody></table>${ofType.length > shown.length ? `<p class="meta">${ofType.length - shown.length} more in the spreadsheet.</p>` : ''}`;
  });
  return htmlDocument(
    `CA & EA tests configuration: ${organization}`,
    `<h1>CA &amp; EA Tests Config Report v7</h1>
<p class="meta">${escapeHtml(organization)} · ${rows.length} test(s) in ${new Set(rows.map((row) => row.accountGroup)).size} account group(s) · ${utcMinute(now)}</p>
${sections.join('\n') || '<p>No test in the chosen account groups.</p>'}`,
  );
}

const PARTS: ReadonlySet<ConfigPart> = new Set(['tests']);

/**
 * Every cloud and enterprise agent test of the chosen account groups with its type's full configuration,
 * its agents (name, type, location), alert rules, tags and sharing: one sheet per test type, and HTML.
 */
export const testsConfigGenerator = groupByGroupReport({
  kind: 'tests-config-v7',
  async read({ platform, signal }, group): Promise<TestRow[]> {
    const config = await readGroupConfig(platform, group, PARTS, signal);
    return required(config.tests).map((configured) => ({ accountGroup: group.accountGroupName, configured }));
  },
  async write({ organization, accountGroups, now }, groups) {
    const rows = groups.flat();
    const types = [...new Set(rows.map((row) => row.configured.test.type))].sort();
    return {
      summary: mdLines([
        mdSafe`**CA & EA Tests Config Report v7** for **${organization.name}** is ready: ${rows.length} test(s) in ${accountGroups.length} account group(s).`,
        ...types.map((type) => mdSafe`- ${type}: ${rows.filter((row) => row.configured.test.type === type).length}`),
      ]),
      files: {
        xlsx: await testsWorkbook(organization.name, rows, now),
        html: testsHtml(organization.name, rows, now),
      },
    };
  },
});
