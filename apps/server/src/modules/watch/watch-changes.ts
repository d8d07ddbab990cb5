import { z } from 'zod';
import { fieldWords, HEALTH_CHECK_IDS, HEALTH_STATUSES, type HealthCheck, type WatchSpeakWhen } from '@ce/contract';
import { type Markdown, mdSafe } from '../../report-kit/markdown.js';
import type { ChangeActor } from './change-attribution.js';
import { measuredMoveSchema, type MeasuredMove } from './measured-moves.js';

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
  /** How many of the health check's findings its waivers took out (a whole check's items each count). */
  waivedItems: z.number().nullable().catch(null),
  othersWaivers: z.array(z.string()).catch([]),
  measured: z.array(measuredMoveSchema).catch([]),
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
  /** A removed item: the items that still name it by its id, left as they were (not listed as changed). */
  stillNamedBy?: string[];
  /** Who made the change: us, the customer, or unknown (change-attribution.ts); absent on runs before it was told. */
  by?: ChangeActor;
}

export interface Finding {
  checkId: string;
  check: string;
  status: HealthCheck['status'];
  /** The item's type and id ("user:123"): one person named by two checks is one item. */
  itemKey: string;
  name: string;
  detail: string;
}

/** A waiver someone other than the watch's owner made of one of its findings: said once, in the next message. */
export interface WaiverNotice {
  check: string;
  /** The waived item's name; null for the whole check. */
  name: string | null;
  /** Who waived it (their email address); null for a user since deleted. */
  by: string | null;
  reason: string;
  /** When the waiver ends (ISO 8601). */
  until: string;
}

export interface WatchChanges {
  /** No earlier run to compare with: this run sets the baseline. */
  first: boolean;
  /**
   * The account groups changed since the previous run (an edit of the watch): this run is a new baseline, said as
   * such, not the added groups' state as changes at the customer. Absent on runs kept before it was recorded.
   */
  regrouped?: { added: string[]; removed: string[] } | null;
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
  /** Waivers of this watch's findings made by others since the previous run: said, with who, why and until when. */
  waivedByOthers: WaiverNotice[];
  /** The ids of the waivers by others in force over this watch's findings (the next run says only newer ones). */
  othersWaivers: string[];
  /** What the platform measured that moved since the previous run (measured-moves.ts). */
  measured: MeasuredMove[];
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
    waivedByOthers: [],
    othersWaivers: [],
    measured: [],
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
      itemKey: itemKey(item),
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
  changes.checks.length +
    changes.newFindings.length +
    changes.resolvedFindings.length +
    changes.drift.length +
    changes.measured.length >
    0 || changes.score.before !== changes.score.after;

const SEVERITY = { pass: 0, unknown: 0, warn: 1, fail: 2 } as const;

type Groups = readonly { aid: string; accountGroupName: string }[];

/** The groups added and removed between two runs' account groups (by id); null when they are the same. */
export function regroupedSince(
  previous: Groups | null,
  current: Groups,
): { added: string[]; removed: string[] } | null {
  if (previous === null) return null;
  const before = new Set(previous.map((group) => group.aid));
  const now = new Set(current.map((group) => group.aid));
  const added = current.filter((group) => !before.has(group.aid)).map((group) => group.accountGroupName);
  const removed = previous.filter((group) => !now.has(group.aid)).map((group) => group.accountGroupName);
  return added.length + removed.length > 0 ? { added, removed } : null;
}

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
  // A finding of the watch waived by someone else is always said: its owner hears who, why and until when.
  if (changes.waivedByOthers.length > 0) return 'changes';
  const { before, after } = changes.score;
  const speaks =
    (when.anyChange && anyChange(changes)) ||
    (when.scoreDrop !== null && before !== null && after !== null && before - after >= when.scoreDrop) ||
    // A measure that moved the wrong way weighs as a new finding of its status does.
    (when.newFindingsAtLeast !== null &&
      [...changes.newFindings, ...changes.measured].some(
        (finding) => SEVERITY[finding.status] >= SEVERITY[when.newFindingsAtLeast ?? 'fail'],
      )) ||
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
  const also = [
    line.takenOutOf?.length ? `, taken out of ${line.takenOutOf.join(', ')}` : '',
    line.stillNamedBy?.length ? `, still named by ${line.stillNamedBy.join(', ')}` : '',
  ].join('');
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

const label = (line: { kind: string; name: string }) =>
  `${KIND_WORDS[line.kind] ?? line.kind.replaceAll('-', ' ')} '${line.name}'`;

/** One item's drift as a run says it, in its account group ("still named by dashboard 'Overview'" with a removal). */
export function driftLine(
  accountGroupName: string,
  change: Pick<DriftLine, 'kind' | 'name' | 'change' | 'previousName' | 'fields'> & {
    stillNamedBy?: { kind: string; name: string }[];
  },
): DriftLine {
  return {
    accountGroupName,
    kind: change.kind,
    name: change.name,
    change: change.change,
    ...(change.previousName !== undefined ? { previousName: change.previousName } : {}),
    fields: change.fields,
    ...(change.stillNamedBy?.length ? { stillNamedBy: change.stillNamedBy.map(label) } : {}),
  };
}

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
