/**
 * A change set: what a tool that writes into a customer's account will do, item by item, decided before
 * anything is written (planning never writes). Each item names its target account group, its action, what
 * is there now and what will be written, and the references it resolved or dropped, with reasons.
 */
export type ChangeAction = 'create' | 'update' | 'delete' | 'skip';

/** A reference carried across (a test, an integration), found by name in the target. */
export interface ResolvedReference {
  kind: string;
  name: string;
  from: string;
  to: string;
}

/** A reference left behind, and why. */
export interface DroppedReference {
  kind: string;
  name: string;
  reason: string;
}

/** One field that differs between what is there and what would be written. */
export interface FieldDifference {
  field: string;
  before: unknown;
  after: unknown;
}

export interface ChangeItem<T> {
  kind: string;
  targetAid: string;
  /** The item's name as the user knows it (the rule's, the test's). */
  name: string;
  action: ChangeAction;
  /** What the target holds now (an update or a delete), or null. */
  before: T | null;
  /** What will be written (a create or an update), or null. */
  after: T | null;
  resolved: ResolvedReference[];
  dropped: DroppedReference[];
  /** For an update: the fields that change. */
  differences: FieldDifference[];
  /** Why an item is skipped, in words. */
  reason?: string;
}

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>)
            .filter(([, item]) => item !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;

/** The fields of `after` whose values differ from `before`, compared as data (key order ignored). */
export function differencesOf<T extends object>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
): FieldDifference[] {
  return fields.flatMap((field) => {
    const [was, will] = [canonical(before[field]), canonical(after[field])];
    return JSON.stringify(was) === JSON.stringify(will) ? [] : [{ field, before: was, after: will }];
  });
}
