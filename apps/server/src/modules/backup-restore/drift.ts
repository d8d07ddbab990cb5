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
}

type Count = { added: number; removed: number; changed: number; unchanged: number };
/** Counts by kind, every kind in the kinds' order. */
export type DriftCounts = Record<string, Count>;

/** A value as the comparison shows it: text as it is, anything else as compact JSON. */
const shown = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(JSON.parse(canonicalJson(value)));

/** The leaves of a configuration by path: objects are walked, arrays and scalars are leaves. */
function leaves(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) leaves(item, prefix ? `${prefix}.${key}` : key, into);
    if (Object.keys(value).length === 0 && prefix) into.set(prefix, value);
  } else if (value !== undefined) into.set(prefix, value);
  return into;
}

/** The fields of `after`'s configuration that differ from `before`'s, compared as data (key order ignored). */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const [was, will] = [leaves(before), leaves(after)];
  const paths = [...new Set([...was.keys(), ...will.keys()])].sort();
  return paths.flatMap((path) => {
    const [from, to] = [was.get(path), will.get(path)];
    return canonicalJson(from ?? null) === canonicalJson(to ?? null)
      ? []
      : [{ path, before: shown(from), after: shown(to) }];
  });
}

/**
 * The keys the second side gives items the first side holds under another key (renamed: the same platform id), as
 * the first side's keys: what other items name them by (a rule's tests, a dashboard's test filters).
 */
function renamedKeys(first: BackupItem[], second: BackupItem[]): Map<string, string> {
  const firstById = new Map(
    first.flatMap((item) => {
      const id = platformIdOf(item);
      return id ? [[`${item.kind}\u0000${id}`, item.key] as const] : [];
    }),
  );
  const renamed = new Map<string, string>();
  for (const item of second) {
    const id = platformIdOf(item);
    const was = id ? firstById.get(`${item.kind}\u0000${id}`) : undefined;
    if (was !== undefined && was !== item.key) renamed.set(item.key, was);
  }
  return renamed;
}

/** A configuration with every reference to a renamed item written with the first side's key. */
function namedAsFirst(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return renamed.get(value) ?? value;
  if (Array.isArray(value)) return value.map((each) => namedAsFirst(each, renamed));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, namedAsFirst(each, renamed)]));
  return value;
}

const configNamedAsFirst = (config: Record<string, unknown>, renamed: ReadonlyMap<string, string>) =>
  Object.fromEntries(Object.entries(config).map(([key, value]) => [key, namedAsFirst(value, renamed)]));

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
  const removed: BackupItem[] = [];
  // An item that names a renamed one (a rule its test) names the same item: no change of its own.
  const renamed = renamedKeys(first, second);
  const compared = (item: BackupItem, other: BackupItem) =>
    fieldChanges(item.config, renamed.size ? configNamedAsFirst(other.config, renamed) : other.config);
  for (const [key, item] of before) {
    const other = after.get(key);
    if (!other) {
      removed.push(item);
      continue;
    }
    const fields = compared(item, other);
    if (fields.length === 0) tally(item.kind, 'unchanged');
    else {
      tally(item.kind, 'changed');
      changes.push({ kind: item.kind, key: item.key, name: other.name, change: 'changed', fields });
    }
  }
  // An item only on one side under one name and only on the other under another, with the same platform id, was
  // renamed: one change, not a removal and an addition.
  const byId = (item: BackupItem) => `${item.kind}\u0000${platformIdOf(item) ?? ''}`;
  const added = new Map(
    [...after].filter(([key, item]) => !before.has(key) && platformIdOf(item)).map(([, item]) => [byId(item), item]),
  );
  const renamedTo = new Set<BackupItem>();
  for (const item of removed) {
    const other = platformIdOf(item) ? added.get(byId(item)) : undefined;
    if (other) {
      renamedTo.add(other);
      tally(item.kind, 'changed');
      const fields = compared(item, other);
      changes.push({
        kind: item.kind,
        key: item.key,
        name: other.name,
        previousName: item.name,
        change: 'renamed',
        fields,
      });
    } else {
      tally(item.kind, 'removed');
      changes.push({ kind: item.kind, key: item.key, name: item.name, change: 'removed', fields: [] });
    }
  }
  for (const [key, item] of after)
    if (!before.has(key) && !renamedTo.has(item)) {
      tally(item.kind, 'added');
      changes.push({ kind: item.kind, key: item.key, name: item.name, change: 'added', fields: [] });
    }
  const order = (change: DriftChange) => BACKUP_KINDS.indexOf(change.kind);
  changes.sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key));
  return { changes, counts: Object.fromEntries(counts) };
}
