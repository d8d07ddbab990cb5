import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { mdLines, mdSafe } from '../../../../report-kit/markdown.js';
import { rulesWithDetail } from '../../../../report-kit/platform-reads.js';
import { groupByGroupReport } from '../../report-generator.js';
import { alertsWorkbook, findingsHtml } from './render.js';
import { analyseGroup } from './rules.js';

/** Every alert rule of each selected account group, as a spreadsheet and an HTML summary with findings. */
export const alertsConfigGenerator = groupByGroupReport({
  kind: 'alerts-configuration',
  async read({ platform, signal }, group) {
    const [rules, tests] = await Promise.all([
      rulesWithDetail(platform, group.aid, signal),
      platform.tests.list(group.aid, signal),
    ]);
    return analyseGroup(group.accountGroupName, rules, tests);
  },
  async write({ organization, now }, groups) {
    const ruleCount = groups.reduce((sum, group) => sum + group.rows.length, 0);
    const findingCount = groups.reduce(
      (sum, group) => sum + group.unassigned.length + group.withoutNotification.length + group.sameExpression.length,
      0,
    );
    const html = htmlDocument(
      `Alerts configuration: ${organization.name}`,
      `<h1>Alerts configuration report</h1><p class="meta">${escapeHtml(organization.name)} · ${groups.length} account group(s) · ${ruleCount} alert rule(s) · ${escapeHtml(now.toISOString().slice(0, 10))}</p>
${groups.map((group) => `<h2>${escapeHtml(group.accountGroupName)} (${group.rows.length} rules)</h2>${findingsHtml(group)}`).join('\n')}`,
    );
    return {
      summary: mdLines([
        mdSafe`**Alerts configuration report** for **${organization.name}** is ready.`,
        mdSafe`${groups.length} account group(s), ${ruleCount} alert rule(s), ${findingCount} finding(s).`,
        ...groups.map(
          (group) =>
            mdSafe`- ${group.accountGroupName}: ${group.rows.length} rules, ${group.unassigned.length} on no test, ${group.withoutNotification.length} without notification`,
        ),
      ]),
      files: { xlsx: await alertsWorkbook(organization.name, groups, now), html },
    };
  },
});
