/**
 * Text a spreadsheet program could take for a formula (= + - @, or a tab or carriage return before one) is
 * written with a leading apostrophe, the usual defence against formula injection (OWASP "CSV injection").
 * Every file the product writes passes its text cells through here.
 */
export function neutralize<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
