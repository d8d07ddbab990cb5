import { z } from 'zod';
import { fieldWords, HEALTH_CHECK_IDS, HEALTH_STATUSES, type HealthCheck, type WatchSpeakWhen } from '@ce/contract';
import { Markdown, mdLines, mdSafe } from '../../report-kit/markdown.js';

/**
 * What a watch run found and what changed since the watch's previous run (decision 0031), and the one message
 * that says it. Pure: the run job reads, this compares and words.
 */

/** A check as a run keeps it: what the next run compares with (the report's tables are not kept). */
export interface KeptCheck {
  id: string;
  title: string;
  status: HealthCheck['status'];
  weight: number;
  items: { type: string; id: string; name: string; detail: string }[];
}

/** A run's kept checks (`watch_runs.findings`), read back. */
export const keptChecksSchema = z.array(
  z.object({
    id: z.enum(HEALTH_CHECK_IDS),
    title: z.string(),
    status: z.enum(HEALTH_STATUSES),
    weight: z.number(),
    items: z.array(z.object({ type: z.string(), id: z.string(), name: z.string(), detail: z.string() })),
  }),
);

/** What lists read back of a run's kept changes (`watch_runs.changes`); a part that does not parse is empty. */
export const keptChangesSchema = z.object({
  checks: z.array(z.object({ title: z.string(), before: z.string(), after: z.string() })).catch([]),
  drift: z.array(z.unknown()).catch([]),
  openFindings: z.number().nullable().catch(null),
  waived: z.array(z.string()).catch([]),
});

export interface KeptFindings {
  score: number;
  checks: KeptCheck[];
}

/** One item that changed in an account group since the previous backup, in words. */
export interface DriftLine {
  accountGroupName: string;
  kind: string;
  name: string;
  change: 'added' | 'removed' | 'changed' | 'renamed';
  previousName?: string;
  fields: { path: string; before: string | null; after: string | null }[];
  /** A removed item: the items that named it and no longer do (not listed again as changed). */
  takenOutOf?: string[];
}

export interface Finding {
  checkId: string;
  check: string;
  status: HealthCheck['status'];
  name: string;
  detail: string;
}

export interface WatchChanges {
  /** No earlier run to compare with: this run sets the baseline. */
  first: boolean;
  score: { before: number | null; after: number | null };
  /** Checks whose status moved (what moved the score). */
  checks: { id: string; title: string; before: string; after: string }[];
  newFindings: Finding[];
  resolvedFindings: Finding[];
  drift: DriftLine[];
  /** Open findings now (waived ones out); null without a health check. */
  openFindings: number | null;
  /** The findings waived now (`checkId:itemKey`, or `checkId:*` for a whole check): listed apart, said nowhere. */
  waived: string[];
}

/** A waiver as a run applies it: a check's item (`type:id`), or the whole check (null). */
export interface Waived {
  checkId: string;
  itemKey: string | null;
}

/**
 * The checks as a watch counts them: waived items left out, and a check waived whole, or left with no open item
 * by its waivers, passing. Answers the waived findings' keys too.
 */
export function withoutWaived(checks: KeptCheck[], waivers: Waived[]): { checks: KeptCheck[]; waived: string[] } {
  const waived: string[] = [];
  const counted = checks.map((check) => {
    if (check.status === 'pass' || check.status === 'unknown') return check;
    if (waivers.some((waiver) => waiver.checkId === check.id && waiver.itemKey === null)) {
      waived.push(`${check.id}:*`);
      return { ...check, status: 'pass' as const, items: [] };
    }
    const keys = new Set(waivers.filter((waiver) => waiver.checkId === check.id).map((waiver) => waiver.itemKey));
    const items = check.items.filter((item) => !keys.has(itemKey(item)));
    for (const item of check.items) if (keys.has(itemKey(item))) waived.push(`${check.id}:${itemKey(item)}`);
    if (items.length === check.items.length) return check;
    return { ...check, items, status: items.length === 0 ? ('pass' as const) : check.status };
  });
  return { checks: counted, waived };
}

const itemKey = (item: { type: string; id: string }) => `${item.type}:${item.id}`;

/** Keeps of a health check's checks what the next run compares with. */
export function keptChecks(checks: HealthCheck[]): KeptCheck[] {
  return checks.map(({ id, title, status, weight, items }) => ({
    id,
    title,
    status,
    weight,
    items: items.map(({ type, id: itemId, name, detail }) => ({ type, id: itemId, name, detail })),
  }));
}

/**
 * The changes since `previous` (null: the first run). Findings are items of checks that do not pass, new or
 * resolved by their type and id (a detail such as "60 days ago" moves every day and is no change); a check unknown
 * on either side compares nothing item by item.
 */
export function compareRuns(
  previous: KeptFindings | null,
  current: KeptFindings | null,
  drift: DriftLine[],
  first: boolean,
  waived: string[] = [],
): WatchChanges {
  const open = (checks: KeptCheck[] = []) =>
    checks.filter((check) => check.status === 'warn' || check.status === 'fail');
  const changes: WatchChanges = {
    first,
    score: { before: previous?.score ?? null, after: current?.score ?? null },
    checks: [],
    newFindings: [],
    resolvedFindings: [],
    drift,
    openFindings: current ? open(current.checks).reduce((sum, check) => sum + check.items.length, 0) : null,
    waived,
  };
  // A finding waived since the previous run is not resolved: it is listed apart.
  const waivedNow = (checkId: string, key: string) =>
    waived.includes(`${checkId}:*`) || waived.includes(`${checkId}:${key}`);
  if (!previous || !current) return changes;
  const before = new Map(previous.checks.map((check) => [check.id, check]));
  for (const check of current.checks) {
    const earlier = before.get(check.id);
    if (!earlier) continue;
    // A check that passes now only because its findings are waived did not move.
    if (
      earlier.status !== check.status &&
      !(check.status === 'pass' && changes.waived.some((key) => key.startsWith(`${check.id}:`)))
    )
      changes.checks.push({ id: check.id, title: check.title, before: earlier.status, after: check.status });
    if (earlier.status === 'unknown' || check.status === 'unknown') continue;
    const finding = (state: KeptCheck, item: KeptCheck['items'][number]): Finding => ({
      checkId: state.id,
      check: state.title,
      status: state.status,
      name: item.name,
      detail: item.detail,
    });
    const then = new Map((earlier.status === 'pass' ? [] : earlier.items).map((item) => [itemKey(item), item]));
    const now = new Map((check.status === 'pass' ? [] : check.items).map((item) => [itemKey(item), item]));
    for (const [key, item] of now) if (!then.has(key)) changes.newFindings.push(finding(check, item));
    for (const [key, item] of then)
      if (!now.has(key) && !waivedNow(check.id, key)) changes.resolvedFindings.push(finding(earlier, item));
  }
  return changes;
}

/** Whether anything changed at all (what "any change" speaks on). */
export const anyChange = (changes: WatchChanges): boolean =>
  changes.checks.length + changes.newFindings.length + changes.resolvedFindings.length + changes.drift.length > 0 ||
  changes.score.before !== changes.score.after;

const SEVERITY = { pass: 0, unknown: 0, warn: 1, fail: 2 } as const;

/**
 * What the run says: `changes` (the message of what changed), `quiet` (the weekly "all quiet" line) or nothing.
 * The first run always speaks: it says the watch works and what it starts from.
 */
export function whatToSay(
  changes: WatchChanges,
  when: WatchSpeakWhen,
  quietLineDue: boolean,
): 'baseline' | 'changes' | 'quiet' | null {
  if (changes.first) return 'baseline';
  const { before, after } = changes.score;
  const speaks =
    (when.anyChange && anyChange(changes)) ||
    (when.scoreDrop !== null && before !== null && after !== null && before - after >= when.scoreDrop) ||
    (when.newFindingsAtLeast !== null &&
      changes.newFindings.some((finding) => SEVERITY[finding.status] >= SEVERITY[when.newFindingsAtLeast ?? 'fail'])) ||
    (when.drift && changes.drift.length > 0);
  if (speaks) return 'changes';
  return when.weeklyQuietLine && quietLineDue ? 'quiet' : null;
}

const KIND_WORDS: Record<string, string> = {
  test: 'test',
  'alert-rule': 'alert rule',
  'suppression-window': 'maintenance window',
  dashboard: 'dashboard',
  tag: 'tag',
  'endpoint-label': 'endpoint label',
  'endpoint-test': 'endpoint test',
  'endpoint-scheduled-test': 'endpoint scheduled test',
  'endpoint-dynamic-test': 'endpoint dynamic test',
};

/** One drift line in words: "test 'DNS - example.com' removed", "alert rule 'Latency' renamed from 'Old'". */
export function driftWords(line: DriftLine): Markdown {
  const kind = KIND_WORDS[line.kind] ?? line.kind.replaceAll('-', ' ');
  if (line.change === 'renamed') {
    const fields = line.fields.filter((field) => field.path !== 'testName' && field.path !== 'ruleName');
    return mdSafe`${kind} '${line.previousName ?? ''}' renamed to '${line.name}'${fields.length ? `; ${fields.map(fieldWords).join('; ')}` : ''}`;
  }
  if (line.change === 'changed')
    return mdSafe`${kind} '${line.name}' changed: ${line.fields.map(fieldWords).join('; ')}`;
  const also = line.takenOutOf?.length ? `, taken out of ${line.takenOutOf.join(', ')}` : '';
  return mdSafe`${kind} '${line.name}' ${line.change}${also}`;
}

const textList = (value: string | null): string[] | null => {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string') ? parsed : null;
  } catch {
    return null;
  }
};

const label = (line: DriftLine) => `${KIND_WORDS[line.kind] ?? line.kind.replaceAll('-', ' ')} '${line.name}'`;

/**
 * Folds the consequences of a removal into it: an item changed only because it no longer names a removed item (a
 * rule's tests, a tag's assignments) is said once, on the removal ("test 'X' removed, taken out of alert rule 'A'").
 */
export function foldReferences(lines: DriftLine[]): DriftLine[] {
  const removed = lines.filter((line) => line.change === 'removed');
  if (removed.length === 0) return lines;
  const takenOut = new Map<DriftLine, string[]>();
  const kept = lines.filter((line) => {
    if (line.change !== 'changed' || line.fields.length === 0) return true;
    const causes = new Set<DriftLine>();
    const onlyRemovals = line.fields.every((field) => {
      const [before, after] = [textList(field.before), textList(field.after)];
      if (!before || !after || after.some((entry) => !before.includes(entry))) return false;
      return before
        .filter((entry) => !after.includes(entry))
        .every((entry) => {
          const cause = removed.find((item) => entry === item.name || entry.endsWith(`: ${item.name}`));
          if (cause) causes.add(cause);
          return cause !== undefined;
        });
    });
    if (!onlyRemovals) return true;
    for (const cause of causes) takenOut.set(cause, [...(takenOut.get(cause) ?? []), label(line)]);
    return false;
  });
  return kept.map((line) => (takenOut.has(line) ? { ...line, takenOutOf: takenOut.get(line) } : line));
}

export interface MessageContext {
  organizationName: string;
  accountGroups: string[];
  /** The full report, behind sign-in (the PDF is attached where the channel takes files). */
  reportUrl: string | null;
  /** The drift's page. */
  driftUrl: string | null;
  nextRunAt: Date | null;
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
  if (say === 'baseline')
    return mdLines([
      head,
      mdSafe`Watch started.${after !== null ? mdSafe` Score ${after}/100, ${changes.openFindings ?? 0} open findings.` : ''}${
        after === null ? mdSafe` First backup made.` : ''
      } From now on only what changes is said.`,
      links,
    ]).text;
  const moved = before !== null && after !== null && before !== after;
  return mdLines([
    head,
    moved ? mdSafe`Score ${before} → ${after} (${after - before > 0 ? '+' : ''}${after - before})` : null,
    ...changes.checks.map((check) => mdSafe`- ${check.title}: ${check.before} → ${check.after}`),
    changes.newFindings.length > 0 ? mdSafe`**New findings (${changes.newFindings.length})**` : null,
    ...changes.newFindings.map((finding) => mdSafe`- ${finding.check}: ${finding.name} (${finding.detail})`),
    changes.resolvedFindings.length > 0 ? mdSafe`**Resolved (${changes.resolvedFindings.length})**` : null,
    ...changes.resolvedFindings.map((finding) => mdSafe`- ${finding.check}: ${finding.name}`),
    changes.drift.length > 0 ? mdSafe`**Changed since the last backup (${changes.drift.length})**` : null,
    ...changes.drift.map((line) => mdSafe`- ${line.accountGroupName}: ${driftWords(line)}`),
    links,
  ]).text;
}
