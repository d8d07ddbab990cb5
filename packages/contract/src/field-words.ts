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

const isScalarList = (value: unknown): value is (string | number | boolean)[] =>
  Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item));

const quoted = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/**
 * A difference in words, whole (never cut mid-value): a list says what was added to it and removed from it
 * ("agents: added 'Tokyo', removed 'London'"), anything else its value before and after ("interval: 300 → 1800").
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
  return `${path}: ${before ?? '(none)'} → ${after ?? '(none)'}`;
}
