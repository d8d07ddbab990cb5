import type { HealthFindings } from '@ce/contract';
import { escapeMarkdown } from '../../../../../report-kit/markdown.js';
import { title, worstChecks } from './common.js';

/** The chat message: the score, the three worst findings and what changed. */
export function healthSummaryMarkdown(findings: HealthFindings): string {
  const worst = worstChecks(findings, 3);
  const made = findings.checks.filter((check) => check.status !== 'unknown').length;
  const changed = findings.changes.items;
  return [
    `**${escapeMarkdown(title(findings))}** for **${escapeMarkdown(findings.organization.name)}**: score **${findings.score.value}/100** (grade ${findings.score.grade}).`,
    worst.length
      ? `Worst findings:\n${worst.map((check) => `- ${check.status.toUpperCase()} ${escapeMarkdown(check.title)}: ${check.items.length} item(s)${check.items[0] ? `, e.g. ${escapeMarkdown(check.items[0].name)}` : ''}`).join('\n')}`
      : `All ${made} checks that could be made pass.`,
    findings.changes.previousAt
      ? `Since the last run: ${changed.filter((change) => change.change === 'new').length} new, ${changed.filter((change) => change.change === 'resolved').length} resolved, ${changed.filter((change) => change.change === 'changed').length} changed.`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}
