import { Markdown, mdLines, mdSafe } from '../../report-kit/markdown.js';
import { actorWords } from './change-attribution.js';
import { driftWords, type Finding, type WaiverNotice, type WatchChanges } from './watch-changes.js';

/** A watch run's Webex message in words: what changed, the baseline, or the weekly quiet line (one message a run). */

export interface MessageContext {
  organizationName: string;
  accountGroups: string[];
  /** The full report, behind sign-in (the PDF is attached where the channel takes files). */
  reportUrl: string | null;
  /** The drift's page. */
  driftUrl: string | null;
  nextRunAt: Date | null;
  /** The owner's time zone: the day a change of ours was made is said in it. */
  timeZone?: string;
}

/**
 * Findings as the message lists them: one line per item, the checks that name it together ("- Cy: Inactive users
 * (never signed in); Login frequency (no sign-in for 120 days)"), a finding of one check as "- Check: name".
 */
function findingLines(findings: Finding[], withDetail: boolean): Markdown[] {
  const byItem = new Map<string, Finding[]>();
  for (const finding of findings) byItem.set(finding.itemKey, [...(byItem.get(finding.itemKey) ?? []), finding]);
  return [...byItem.values()].map(([first, ...more]) => {
    if (!first) return mdSafe``;
    const detail = (finding: Finding) => (withDetail ? mdSafe` (${finding.detail})` : mdSafe``);
    if (more.length === 0) return mdSafe`- ${first.check}: ${first.name}${detail(first)}`;
    const checks = [first, ...more].map((finding) => mdSafe`${finding.check}${detail(finding)}`);
    return mdSafe`- ${first.name}: ${new Markdown(checks.map((check) => check.text).join(withDetail ? '; ' : ', '))}`;
  });
}

/** The waivers of the watch's findings others made since the previous run: who, why and until when. */
function waiverLines(notices: WaiverNotice[]): (Markdown | null)[] {
  if (notices.length === 0) return [];
  return [
    mdSafe`**Waived by someone else (${notices.length})**`,
    ...notices.map(
      (notice) =>
        mdSafe`- ${notice.check}: ${notice.name ?? 'the whole check'}, waived by ${notice.by ?? 'a former user'} until ${notice.until.slice(0, 10)}: “${notice.reason}”`,
    ),
  ];
}

/** The message of one run: exactly what changed, or the baseline, or the quiet line. */
export function watchMessage(
  say: 'baseline' | 'changes' | 'quiet',
  changes: WatchChanges,
  context: MessageContext,
): string {
  const { before, after } = changes.score;
  const head = mdSafe`**Account Watch: ${context.organizationName}** (${context.accountGroups.join(', ')})`;
  const links = mdLines([
    context.reportUrl ? mdSafe`Full report: ${new Markdown(context.reportUrl)}` : null,
    context.driftUrl && changes.drift.length > 0 ? mdSafe`Drift: ${new Markdown(context.driftUrl)}` : null,
  ]);
  if (say === 'quiet')
    return mdLines([
      head,
      mdSafe`All quiet: nothing changed this week${after !== null ? mdSafe` (score ${after}/100)` : ''}.`,
    ]).text;
  const regrouped = changes.regrouped;
  if (say === 'baseline' && regrouped)
    return mdLines([
      head,
      mdSafe`Account groups changed since the last run (${new Markdown(
        [
          regrouped.added.length ? mdSafe`added: ${regrouped.added.join(', ')}`.text : '',
          regrouped.removed.length ? mdSafe`removed: ${regrouped.removed.join(', ')}`.text : '',
        ]
          .filter(Boolean)
          .join('; '),
      )}): this run is the new starting point.${
        after !== null ? mdSafe` Score ${after}/100, ${changes.openFindings ?? 0} open findings.` : ''
      } From now on only what changes is said.`,
      ...waiverLines(changes.waivedByOthers),
      links,
    ]).text;
  if (say === 'baseline')
    return mdLines([
      head,
      mdSafe`Watch started.${after !== null ? mdSafe` Score ${after}/100, ${changes.openFindings ?? 0} open findings.` : ''}${
        after === null ? mdSafe` First backup made.` : ''
      } From now on only what changes is said.`,
      ...waiverLines(changes.waivedByOthers),
      links,
    ]).text;
  const moved = before !== null && after !== null && before !== after;
  return mdLines([
    head,
    moved ? mdSafe`Score ${before} → ${after} (${after - before > 0 ? '+' : ''}${after - before})` : null,
    ...changes.checks.map((check) => mdSafe`- ${check.title}: ${check.before} → ${check.after}`),
    changes.measured.length > 0 ? mdSafe`**What moved (${changes.measured.length})**` : null,
    ...changes.measured.map((move) => mdSafe`- ${move.line}`),
    changes.newFindings.length > 0 ? mdSafe`**New findings (${changes.newFindings.length})**` : null,
    ...findingLines(changes.newFindings, true),
    changes.resolvedFindings.length > 0 ? mdSafe`**Resolved (${changes.resolvedFindings.length})**` : null,
    ...findingLines(changes.resolvedFindings, false),
    ...waiverLines(changes.waivedByOthers),
    changes.drift.length > 0 ? mdSafe`**Changed since the last backup (${changes.drift.length})**` : null,
    // Each change with who made it: us (our journal), the customer (the platform's audit log), or unknown.
    ...changes.drift.map(
      (line) =>
        mdSafe`- ${line.accountGroupName}: ${driftWords(line)}${line.by ? ` — ${actorWords(line.by, context.timeZone)}` : ''}`,
    ),
    links,
  ]).text;
}
