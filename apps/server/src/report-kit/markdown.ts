/**
 * Escapes text for Webex markdown: organization, account-group, rule, file and server names come from
 * customers, platforms and packets, and may hold characters that would format the message, make links
 * (`[Reset your password](https://evil.example)`) or inject HTML.
 */
export function escapeMarkdown(value: unknown): string {
  return String(value ?? '')
    .replace(/[\r\n]+/g, ' ')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (character) => `\\${character}`);
}

/** Markdown that is already safe: written by the product, with every inserted value escaped. */
export class Markdown {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const inserted = (value: unknown): string => (value instanceof Markdown ? value.text : escapeMarkdown(value));

/**
 * A message template whose inserted values are always escaped (Markdown values, already safe, are kept):
 * mdSafe`**Packet capture for case ${caseNumber}**` cannot turn a case number into a link.
 */
export function mdSafe(strings: TemplateStringsArray, ...values: unknown[]): Markdown {
  return new Markdown(
    strings.reduce((text, part, index) => text + part + (index < values.length ? inserted(values[index]) : ''), ''),
  );
}

/** Lines of a message, the empty ones left out. */
export function mdLines(lines: (Markdown | null | false | undefined)[]): Markdown {
  return new Markdown(
    lines
      .filter((line): line is Markdown => line instanceof Markdown && line.text !== '')
      .map((line) => line.text)
      .join('\n'),
  );
}
