/**
 * The pack's text as every file of it can carry it. A customer names its tests, rules, agents and people as it likes,
 * and the platform hands the names back as they were typed: a control character or a lone surrogate in one makes a
 * deck's slide XML invalid (PowerPoint then refuses the file, "needs repair"), and the PDF and Webex show garbage.
 * The pack is made safe once, where it is assembled, so the deck, its PDF, its JSON and the Webex message say the same.
 */

/**
 * What XML 1.0 forbids in a document (C0 controls other than tab, line feed and carriage return; U+FFFE and U+FFFF),
 * and the C1 controls and DEL a reader shows as boxes.
 */
// eslint-disable-next-line no-control-regex -- these are the characters being removed
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;
/** Half of a surrogate pair without its other half: no character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string every file of the pack can carry: a lone surrogate becomes U+FFFD (the replacement character, where the
 * text was broken), the forbidden characters are left out. Pure.
 */
export function printableText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(FORBIDDEN, '');
}

/**
 * A plain JSON value (the pack: strings, numbers, booleans, nulls, arrays and plain objects) with every string made
 * printable, keys too; read back through JSON, as the pack is stored. Pure.
 */
export function printableValue<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_key, item: unknown) =>
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).map(([key, inner]) => [printableText(key), inner]))
        : typeof item === 'string'
          ? printableText(item)
          : item,
    ),
  );
}
