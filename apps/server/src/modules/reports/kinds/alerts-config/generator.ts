import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { escapeMarkdown } from '../../../../report-kit/markdown.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from '../../report-generator.js';
import { alertsWorkbook, findingsHtml } from './render.js';
import { analyseGroup, type GroupFindings } from './rules.js';

/** Every alert rule of each selected account group, as a spreadsheet and an HTML summary with findings. */
export const alertsConfigGenerator: ReportGenerator = async (context) => {
  const total = context.accountGroups.length + 1;
  const groups: GroupFindings[] = [];
  for (const [index, group] of context.accountGroups.entries()) {
    const [summaries, tests] = await Promise.all([
      context.platform.alertRules.list(group.aid, context.signal),
      context.platform.tests.list(group.aid, context.signal),
    ]);
    const rules = await Promise.all(
      summaries.map((rule) => context.platform.alertRules.get(rule.ruleId, group.aid, context.signal)),
    );
    groups.push(analyseGroup(group.accountGroupName, rules, tests));
    await context.progress(index + 1, total);
  }
  const stem = fileStem('alerts-configuration', context.organization.name, context.now);
  const workbook = await alertsWorkbook(context.organization.name, groups, context.now);
  const ruleCount = groups.reduce((sum, group) => sum + group.rows.length, 0);
  const html = htmlDocument(
    `Alerts configuration: ${context.organization.name}`,
    `<h1>Alerts configuration report</h1><p class="meta">${escapeHtml(context.organization.name)} · ${groups.length} account group(s) · ${ruleCount} alert rule(s) · ${escapeHtml(context.now.toISOString().slice(0, 10))}</p>
${groups.map((group) => `<h2>${escapeHtml(group.accountGroupName)} (${group.rows.length} rules)</h2>${findingsHtml(group)}`).join('\n')}`,
  );
  await context.progress(total, total);
  const findingCount = groups.reduce(
    (sum, group) => sum + group.unassigned.length + group.withoutNotification.length + group.sameExpression.length,
    0,
  );
  return {
    summaryMarkdown: [
      `**Alerts configuration report** for **${escapeMarkdown(context.organization.name)}** is ready.`,
      `${groups.length} account group(s), ${ruleCount} alert rule(s), ${findingCount} finding(s).`,
      ...groups.map(
        (group) =>
          `- ${escapeMarkdown(group.accountGroupName)}: ${group.rows.length} rules, ${group.unassigned.length} on no test, ${group.withoutNotification.length} without notification`,
      ),
    ].join('\n'),
    artifacts: [
      { filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook },
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
    ],
  };
};
