/** One field that differs, as drift and restore plans carry it: its path, and each side as text or compact JSON. */
export interface FieldDifference {
  path: string;
  before: string | null;
  after: string | null;
}

const parsed = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

type Scalar = string | number | boolean;
type Entry = Record<string, unknown>;

const isScalar = (value: unknown): value is Scalar => ['string', 'number', 'boolean'].includes(typeof value);
const isScalarList = (value: unknown): value is Scalar[] => Array.isArray(value) && value.every(isScalar);
const isEntry = (value: unknown): value is Entry =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const isEntryList = (value: unknown): value is Entry[] => Array.isArray(value) && value.every(isEntry);

const quoted = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/** A value as compact JSON with its keys sorted, so two equal values read the same (text stays as it is). */
function sortedJson(value: unknown): string {
  const sorted = (each: unknown): unknown =>
    Array.isArray(each)
      ? each.map(sorted)
      : isEntry(each)
        ? Object.fromEntries(
            Object.keys(each)
              .sort()
              .map((key) => [key, sorted(each[key])]),
          )
        : each;
  return JSON.stringify(sorted(value)) ?? 'null';
}
const text = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : sortedJson(value);

/** What names an element of a list of objects, in this order: its id, then its name or title (as the platform has them). */
const IDENTITY = ['id', 'name', 'title', 'testName', 'ruleName', 'label', 'key', 'type'] as const;

/** The field that tells the elements of two lists apart: the first of IDENTITY every element has, each once per side. */
function identityOf(lists: Entry[][]): string | null {
  return (
    IDENTITY.find((field) =>
      lists.every((list) => {
        const values = list.map((entry) => entry[field]);
        return values.every(isScalar) && new Set(values).size === values.length;
      }),
    ) ?? null
  );
}

/** The noun of one element of a list: "widgets" → "widget", "alertRules" → "alertRule". */
const singular = (path: string) => {
  const last = path.split('.').at(-1) ?? path;
  return last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') ? last.slice(0, -1) : last;
};

/**
 * The leaves of an object by path ("filters.TEST"): objects are walked, arrays and scalars are leaves. What a
 * difference is made of, here and in the server's drift.
 */
export function configLeaves(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (isEntry(value)) {
    for (const [key, item] of Object.entries(value)) configLeaves(item, prefix ? `${prefix}.${key}` : key, into);
    if (Object.keys(value).length === 0 && prefix) into.set(prefix, value);
  } else if (value !== undefined) into.set(prefix, value);
  return into;
}

/** How one element changed, field by field in words ("metric: A → B, filters.TEST: added 'x'"). */
function entryWords(before: Entry, after: Entry): string {
  const [was, is] = [configLeaves(before), configLeaves(after)];
  return [...new Set([...was.keys(), ...is.keys()])]
    .sort()
    .filter((path) => sortedJson(was.get(path) ?? null) !== sortedJson(is.get(path) ?? null))
    .map((path) => fieldWords({ path, before: text(was.get(path)), after: text(is.get(path)) }))
    .join(', ');
}

/**
 * What a list of objects gained, lost and changed, element by element, each named by what identifies it
 * ("widget 'Availability' added; widget 'Latency' removed; widget 'Loss': metric: A → B"). Elements nothing
 * identifies are matched as wholes (added, removed), or by place when both lists are as long.
 */
function entryListWords(path: string, was: Entry[], is: Entry[]): string[] {
  const noun = singular(path);
  const identity = identityOf([was, is]);
  if (identity) {
    const named = (entry: Entry) => `${noun} ${quoted(entry[identity])}`;
    const before = new Map(was.map((entry) => [entry[identity], entry]));
    const after = new Map(is.map((entry) => [entry[identity], entry]));
    return [
      ...is.filter((entry) => !before.has(entry[identity])).map((entry) => `${named(entry)} added`),
      ...was.filter((entry) => !after.has(entry[identity])).map((entry) => `${named(entry)} removed`),
      ...is.flatMap((entry) => {
        const old = before.get(entry[identity]);
        if (!old || sortedJson(old) === sortedJson(entry)) return [];
        return [`${named(entry)}: ${entryWords(old, entry)}`];
      }),
    ];
  }
  if (was.length === is.length)
    return is.flatMap((entry, index) => {
      const old = was[index] ?? {};
      return sortedJson(old) === sortedJson(entry) ? [] : [`${noun} ${index + 1}: ${entryWords(old, entry)}`];
    });
  const [before, after] = [was.map(sortedJson), is.map(sortedJson)];
  return [
    ...after.filter((entry) => !before.includes(entry)).map((entry) => `${noun} ${entry} added`),
    ...before.filter((entry) => !after.includes(entry)).map((entry) => `${noun} ${entry} removed`),
  ];
}

/**
 * A difference in words, whole (never cut mid-value): a list says what was added to it and removed from it
 * ("agents: added 'Tokyo', removed 'London'"), a list of objects the same element by element
 * ("widgets: widget 'Availability' added; widget 'Loss': metric: A → B"), anything else its value before and
 * after ("interval: 300 → 1800").
 */
export function fieldWords({ path, before, after }: FieldDifference): string {
  const [was, is] = [parsed(before), parsed(after)];
  if (isScalarList(was) && isScalarList(is)) {
    const added = is.filter((item) => !was.includes(item));
    const removed = was.filter((item) => !is.includes(item));
    const parts = [
      added.length > 0 && `added ${added.map(quoted).join(', ')}`,
      removed.length > 0 && `removed ${removed.map(quoted).join(', ')}`,
    ].filter((part): part is string => typeof part === 'string');
    return `${path}: ${parts.length > 0 ? parts.join('; ') : 'the same items in another order'}`;
  }
  // A list of objects on either side (the other side a list too, or none: a list that came or went).
  const [wasList, isList] = [was ?? [], is ?? []];
  if (isEntryList(wasList) && isEntryList(isList) && (Array.isArray(was) || Array.isArray(is))) {
    const parts = entryListWords(path, wasList, isList);
    return `${path}: ${parts.length > 0 ? parts.join('; ') : 'the same items in another order'}`;
  }
  return `${path}: ${before ?? '(none)'} → ${after ?? '(none)'}`;
}
