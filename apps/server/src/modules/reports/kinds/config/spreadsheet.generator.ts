import { mdSafe } from '../../../../report-kit/markdown.js';
import { streamWorkbook } from '../../../../report-kit/stream-workbook.js';
import { reportFiles, type ReportGenerator } from '../../report-generator.js';
import { readGroupConfig, readOrganizationConfig, type ConfigPart, type GroupConfig } from './read.js';
import { suppressionWindowsSheet, alertRulesSheet } from './sheets/alerts.js';
import { dashboardsSheet, tagsSheet } from './sheets/dashboards-and-tags.js';
import { endpointSheet, usageSheet } from './sheets/endpoint-and-usage.js';
import { accountGroupsSheet, summarySheet } from './sheets/overview.js';
import { count, type ConfigBook, type ConfigSheet } from './sheets/sheet.js';
import { testAgentsSheet, testsSheet } from './sheets/tests.js';
import { agentsSheet, usersSheet } from './sheets/users-and-agents.js';

const ALL_PARTS: ReadonlySet<ConfigPart> = new Set([
  'tests',
  'agents',
  'rules',
  'tags',
  'windows',
  'dashboards',
  'users',
  'endpoint',
]);

/** The workbook's twelve tabs, in order. */
const CONFIG_SHEETS: readonly ConfigSheet[] = [
  summarySheet,
  accountGroupsSheet,
  usersSheet,
  agentsSheet,
  testsSheet,
  testAgentsSheet,
  alertRulesSheet,
  suppressionWindowsSheet,
  dashboardsSheet,
  tagsSheet,
  endpointSheet,
  usageSheet,
];

/**
 * The 12-tab configuration workbook of the chosen account groups: each list read once per group, then
 * the organization's usage and quotas; written tab by tab with the streaming writer (headers frozen,
 * filters on, widths set, dates as dates).
 */
export const configSpreadsheetGenerator: ReportGenerator = async (context) => {
  const groups: GroupConfig[] = [];
  const total = context.accountGroups.length + 2;
  for (const [index, group] of context.accountGroups.entries()) {
    groups.push(await readGroupConfig(context.platform, group, ALL_PARTS, context.signal));
    await context.progress(index + 1, total);
  }
  const organization = await readOrganizationConfig(context.platform, context.signal);
  await context.progress(total - 1, total);

  const book: ConfigBook = { groups, organization, organizationName: context.organization.name, now: context.now };
  const workbook = await streamWorkbook((sheet) => {
    for (const tab of CONFIG_SHEETS) {
      const writer = sheet(tab.name, tab.columns);
      tab.write(writer, book);
      writer.done();
    }
  }, context.now);

  await context.progress(total, total);
  const testCount = groups.reduce((sum, group) => sum + (count(group.tests) ?? 0), 0);
  return {
    summaryMarkdown:
      mdSafe`**Configuration Spreadsheet** (12 tabs) for **${context.organization.name}** is ready: ${groups.length} account group(s), ${testCount} test(s).`
        .text,
    artifacts: reportFiles(context, 'configuration', { xlsx: workbook }),
  };
};
