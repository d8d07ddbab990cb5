/** The first list in an answer: the answer itself, or its first property holding a list. */
export function firstList(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object')
    for (const value of Object.values(body as Record<string, unknown>)) if (Array.isArray(value)) return value;
  return null;
}

/** Text a spreadsheet could take for a formula gets a leading apostrophe (formula injection). */
const neutralize = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
const cell = (value: unknown) => {
  const text = neutralize(
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value),
  );
  // Every cell quoted: in a locale whose list separator is ';', `x;=HYPERLINK(...)` stays one cell, never a formula.
  return `"${text.replace(/"/g, '""')}"`;
};

/**
 * The answer's first list as CSV: one row per item, a column per key seen (nested values as JSON), or null
 * when the answer holds no list.
 */
export function toCsv(body: unknown): string | null {
  const list = firstList(body);
  if (!list) return null;
  const rows = list.map((item) =>
    item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : { value: item },
  );
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== '_links');
  return (
    [columns.map(cell).join(','), ...rows.map((row) => columns.map((column) => cell(row[column])).join(','))].join(
      '\r\n',
    ) + '\r\n'
  );
}
