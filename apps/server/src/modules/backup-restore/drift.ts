import { configLeaves } from '@ce/contract';
import { BACKUP_KINDS, canonicalJson, type BackupItem, type BackupKind } from './archive.js';
import { backupKind } from './kinds/index.js';

/** An item's id on the platform: its kind's first server field (`id` for a kind restore does not write). */
export const platformIdOf = (item: BackupItem): string | null => {
  const { restore, serverFields } = backupKind(item.kind);
  return String(item.server[restore ? serverFields[0] : 'id'] ?? '') || null;
};

/** One field that differs, by its path in the item's configuration ("agents", "alertRules", "url"). */
export interface FieldChange {
  path: string;
  before: string | null;
  after: string | null;
}

export interface DriftChange {
  kind: BackupKind;
  key: string;
  name: string;
  /**
   * From the first side to the second: added (only in the second), removed (only in the first), changed, or
   * renamed (the same item on the platform, its id the same, under another name: `key` is the first side's).
   */
  change: 'added' | 'removed' | 'changed' | 'renamed';
  /** A renamed item's name on the first side. */
  previousName?: string;
  fields: FieldChange[];
  /**
   * A removed item that items of the second side still name by its id (a dashboard's widget keeps a deleted test's
   * id in its filter): those items, unchanged by it, said on the removal's line rather than as changes of their own.
   */
  stillNamedBy?: { kind: BackupKind; name: string }[];
}

type Count = { added: number; removed: number; changed: number; unchanged: number };
/** Counts by kind, every kind in the kinds' order. */
export type DriftCounts = Record<string, Count>;

/** A value as the comparison shows it: text as it is, anything else as compact JSON. */
const shown = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(JSON.parse(canonicalJson(value)));

/** The fields of `after`'s configuration that differ from `before`'s, compared as data (key order ignored). */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const [was, will] = [configLeaves(before), configLeaves(after)];
  const paths = [...new Set([...was.keys(), ...will.keys()])].sort();
  return paths.flatMap((path) => {
    const [from, to] = [was.get(path), will.get(path)];
    return canonicalJson(from ?? null) === canonicalJson(to ?? null)
      ? []
      : [{ path, before: shown(from), after: shown(to) }];
  });
}

/** Whether a list is of text in the order a reading sorts it (the names a rule or a widget's filter lists). */
const sortedText = (list: unknown[]): list is string[] =>
  list.every((entry, index) => typeof entry === 'string' && (index === 0 || String(list[index - 1]) <= entry));

/**
 * A configuration with every string that is a renamed item's key on the second side written as the first side's
 * (a sorted list of names sorted again once written so).
 */
function withFirstKeys(config: Record<string, unknown>, keys: ReadonlyMap<string, string>): Record<string, unknown> {
  const rewrite = (value: unknown): unknown =>
    typeof value === 'string'
      ? (keys.get(value) ?? value)
      : Array.isArray(value)
        ? sortedText(value)
          ? value.map((entry) => keys.get(entry) ?? entry).sort()
          : value.map(rewrite)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, each]) => [key, rewrite(each)]))
          : value;
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, rewrite(value)]));
}

/**
 * How the second side names a removed item it still refers to by id: the readings name a reference to an item the
 * group no longer has by its id ("#<id>"; a rule's, a window's or a tag's test as "test <id>").
 */
const danglingNames = (item: BackupItem): string[] => {
  const id = platformIdOf(item);
  if (!id) return [];
  return item.kind === 'test' ? [`#${id}`, `test ${id}`] : [`#${id}`];
};

/**
 * The second side's configuration as compared with the first's: renamed items' keys written as the first side's,
 * and a removed item the second side still names by its id (where the first side named it by key) written by its
 * key again, so an item left as it was on the platform is no change; which items still name each removed one.
 */
function danglingReferences(removed: BackupItem[], firstKeys: ReadonlyMap<string, string>) {
  const byName = new Map(removed.flatMap((item) => danglingNames(item).map((text) => [text, item] as const)));
  const stillNamedBy = new Map<BackupItem, { kind: BackupKind; name: string }[]>();
  const configOf = (item: BackupItem, other: BackupItem): Record<string, unknown> => {
    let keys = firstKeys;
    if (byName.size > 0) {
      const [was, is] = [canonicalJson(item.config), canonicalJson(other.config)];
      const named = [...byName].filter(
        ([text, gone]) => is.includes(JSON.stringify(text)) && was.includes(JSON.stringify(gone.key)),
      );
      if (named.length > 0) keys = new Map([...firstKeys, ...named.map(([text, gone]) => [text, gone.key] as const)]);
      for (const gone of new Set(named.map(([, gone]) => gone)))
        stillNamedBy.set(gone, [...(stillNamedBy.get(gone) ?? []), { kind: other.kind, name: other.name }]);
    }
    return keys.size > 0 ? withFirstKeys(other.config, keys) : other.config;
  };
  return { configOf, stillNamedBy };
}

/**
 * Compares two sides of an account group's configuration (a backup and the live group, or two backups),
 * item by item by kind and key; server-managed fields are not part of an item's configuration, so ids,
 * dates and links never count as a change.
 */
export function drift(first: BackupItem[], second: BackupItem[]): { changes: DriftChange[]; counts: DriftCounts } {
  const id = (item: BackupItem) => `${item.kind}\u0000${item.key}`;
  const before = new Map(first.map((item) => [id(item), item]));
  const after = new Map(second.map((item) => [id(item), item]));
  const counts = new Map(BACKUP_KINDS.map((kind) => [kind, { added: 0, removed: 0, changed: 0, unchanged: 0 }]));
  const tally = (kind: BackupKind, change: keyof Count) => {
    const count = counts.get(kind);
    if (count) count[change] += 1;
  };
  const changes: DriftChange[] = [];
  // An item only on one side under one key and only on the other under another, with the same platform id, was
  // renamed: one change, not a removal and an addition. What names it (a rule its test) names the same item.
  const byId = (item: BackupItem) => `${item.kind}\u0000${platformIdOf(item) ?? ''}`;
  const added = new Map(
    [...after].filter(([key, item]) => !before.has(key) && platformIdOf(item)).map(([, item]) => [byId(item), item]),
  );
  const renamedTo = new Map<BackupItem, BackupItem>();
  for (const [key, item] of before) {
    const other = after.has(key) || !platformIdOf(item) ? undefined : added.get(byId(item));
    if (other) renamedTo.set(item, other);
  }
  const firstKeys = new Map([...renamedTo].map(([was, is]) => [is.key, was.key]));
  const compared = danglingReferences(
    [...before].filter(([key, item]) => !after.has(key) && !renamedTo.has(item)).map(([, item]) => item),
    firstKeys,
  );
  for (const [key, item] of before) {
    const other = after.get(key) ?? renamedTo.get(item);
    if (!other) continue;
    const fields = fieldChanges(item.config, compared.configOf(item, other));
    if (other.key !== item.key) {
      tally(item.kind, 'changed');
      changes.push({
        kind: item.kind,
        key: item.key,
        name: other.name,
        previousName: item.name,
        change: 'renamed',
        fields,
      });
    } else if (fields.length === 0) tally(item.kind, 'unchanged');
    else {
      tally(item.kind, 'changed');
      changes.push({ kind: item.kind, key: item.key, name: other.name, change: 'changed', fields });
    }
  }
  for (const [key, item] of before)
    if (!after.has(key) && !renamedTo.has(item)) {
      tally(item.kind, 'removed');
      const namedBy = compared.stillNamedBy.get(item);
      changes.push({
        kind: item.kind,
        key: item.key,
        name: item.name,
        change: 'removed',
        fields: [],
        ...(namedBy ? { stillNamedBy: namedBy } : {}),
      });
    }
  const renamedInto = new Set(renamedTo.values());
  for (const [key, item] of after)
    if (!before.has(key) && !renamedInto.has(item)) {
      tally(item.kind, 'added');
      changes.push({ kind: item.kind, key: item.key, name: item.name, change: 'added', fields: [] });
    }
  const order = (change: DriftChange) => BACKUP_KINDS.indexOf(change.kind);
  changes.sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key));
  return { changes, counts: Object.fromEntries(counts) };
}
