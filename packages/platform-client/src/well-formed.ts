/**
 * Text PostgreSQL can store. A JavaScript string may hold a lone surrogate (a platform answer can carry `\ud800` as
 * a JSON escape: a test renamed so) or U+0000; json and jsonb refuse both escapes, and text refuses U+0000, so one
 * odd character in a customer's test name would fail every write of the answer that holds it. Both become U+FFFD,
 * the character that marks what could not be read, wherever they are: in values and in keys.
 */
const REPLACEMENT = '\uFFFD';

/** ES2024's string methods (Node 20 and later); the project's TypeScript library stops at ES2023. */
interface Es2024String {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const es2024 = (text: string): Es2024String => text as unknown as Es2024String;

/** The string with its lone surrogates and U+0000 as U+FFFD (the same string when it has neither). */
export function wellFormedText(text: string): string {
  const formed = es2024(text).isWellFormed() ? text : es2024(text).toWellFormed();
  return formed.includes('\u0000') ? formed.replaceAll('\u0000', REPLACEMENT) : formed;
}

const isBad = (text: string): boolean => !es2024(text).isWellFormed() || text.includes('\u0000');

/**
 * A JSON value with every string and key made well-formed (see `wellFormedText`); the very value when nothing needed
 * it, so the common case copies nothing.
 */
export function wellFormed<T>(value: T): T {
  return formedValue(value) as T;
}

function formedValue(value: unknown): unknown {
  if (typeof value === 'string') return isBad(value) ? wellFormedText(value) : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((element: unknown, index) => {
      const formed = formedValue(element);
      if (formed !== element) (copy ??= [...value])[index] = formed;
    });
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object' || !isPlain(value)) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, element]): [string, unknown] => {
    const formed = formedValue(element);
    if (formed !== element || isBad(key)) changed = true;
    return [wellFormedText(key), formed];
  });
  return changed ? Object.fromEntries(entries) : value;
}

/** A plain object, as JSON.parse makes them: dates, buffers and class instances are left as they are. */
function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** An escape JSON text writes for a lone surrogate or U+0000 (a pair's halves are written as they are). */
const BAD_ESCAPE = /\\u(?:d[89a-f][0-9a-f]{2}|0000)/i;

/** A JSON answer's text parsed, its strings made well-formed when the text escapes anything that needs it. */
export function parseWellFormed(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  return BAD_ESCAPE.test(text) ? wellFormed(parsed) : parsed;
}

/**
 * `JSON.stringify` for a json or jsonb column: well-formed (see `wellFormedText`) so PostgreSQL takes it. Stringifies
 * once when nothing needs it (the regular case); otherwise mends what was written (whatever `toJSON` gave included).
 */
export function wellFormedJson(value: unknown): string {
  const text = JSON.stringify(value);
  return BAD_ESCAPE.test(text) ? JSON.stringify(parseWellFormed(text)) : text;
}

/**
 * An answer's body, parsed when it is JSON, its strings well-formed: what the platform answers is stored (the read
 * journal, findings, backups), and one odd character in a test's name must not stop every write of it.
 */
export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return parseWellFormed(text);
  } catch {
    return wellFormedText(text);
  }
}
