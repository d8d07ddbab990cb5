import {
  DEFAULT_TASK_TYPE,
  TRACKER_COLUMNS,
  TRACKER_LIMITS,
  TRACKER_MESSAGES,
  UNKNOWN_ENGAGEMENT,
  type ParsedSheet,
  type TrackerRow,
} from '@ce/contract';
import { headerKey, SheetError, type Cell } from './sheet-reader.js';

type Column = (typeof TRACKER_COLUMNS)[number];
const DAY_MS = 86_400_000;
/** Excel's day 0 is 1899-12-30 (its 1900 leap-year bug included). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const FIRST_YEAR = 2000;
const LAST_YEAR = 2100;

const iso = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Letters, digits and the usual punctuation; control characters (but tab and line breaks) are dropped. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (text: string) => text.replace(CONTROL, '').replace(/\r\n?/g, '\n').trim();

function text(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return iso(cell.getTime());
  return clean(String(cell));
}

/** A date cell, an Excel serial number, or text in the usual forms; null when it is none of these. */
export function dateOf(cell: Cell): number | null {
  if (cell instanceof Date)
    return Number.isNaN(cell.getTime()) ? null : Date.UTC(cell.getUTCFullYear(), cell.getUTCMonth(), cell.getUTCDate());
  if (typeof cell === 'number') return Number.isFinite(cell) ? EXCEL_EPOCH + Math.floor(cell) * DAY_MS : null;
  const value = text(cell);
  if (/^\d+(\.\d+)?$/.test(value)) return dateOf(Number(value));
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s].*)?$/.exec(value);
  if (match) return validDate(Number(match[1]), Number(match[2]), Number(match[3]));
  // 03/26/2025 is month first (the template's locale); 26.03.2025 and 26/03/2025 with a day over 12 are day first.
  match = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/.exec(value);
  if (match) {
    const [a, b, year] = [Number(match[1]), Number(match[3]), Number(match[4])];
    return match[2] === '.' || a > 12 ? validDate(year, b, a) : validDate(year, a, b);
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) || !/[a-z]/i.test(value) ? null : dateOf(new Date(parsed));
}

function validDate(year: number, month: number, day: number): number | null {
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? time : null;
}

function hoursOf(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  const value = text(cell).replace(/\s*h(ours?|rs?)?$/i, '');
  if (!/^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/.test(value)) return null;
  return Number(value.replace(',', '.'));
}

/**
 * The spec's rules over the rows of a file: the header row names the columns; rows without an engagement
 * id group under 'Unknown'; task_type defaults to 'General' and due_date to today; hours that are not a
 * number count as 0; dates outside the chosen week are kept. Everything odd is said as a warning with its
 * row number. Rows sort by engagement (in the file's order), then due date.
 */
export function normalizeRows(rows: Cell[][], weekStart: string, today: string): ParsedSheet {
  const headerIndex = rows.findIndex((row) => row.some((cell) => headerKey(cell) === 'engagementid'));
  const header = rows[headerIndex] ?? [];
  const columns = new Map<Column, number>();
  for (const column of TRACKER_COLUMNS) {
    const index = header.findIndex((cell) => headerKey(cell) === headerKey(column));
    if (index >= 0) columns.set(column, index);
  }
  if (!columns.has('hours_spent') && !columns.has('work_performed')) throw new SheetError(TRACKER_MESSAGES.noValidData);

  const weekFirst = Date.parse(weekStart);
  const weekLast = weekFirst + 6 * DAY_MS;
  const todayTime = Date.parse(today);
  const warnings: string[] = [];
  const data: TrackerRow[] = [];
  rows.forEach((row, index) => {
    if (index <= headerIndex || row.every((cell) => cell === null || text(cell) === '')) return;
    const line = index + 1;
    const cell = (column: Column) => {
      const at = columns.get(column);
      return at === undefined ? null : (row[at] ?? null);
    };
    for (const column of TRACKER_COLUMNS)
      if (text(cell(column)).length > TRACKER_LIMITS.cellChars)
        throw new SheetError(
          `Row ${line}: ${column} is longer than ${TRACKER_LIMITS.cellChars.toLocaleString('en-US')} characters.`,
        );

    let hours = hoursOf(cell('hours_spent'));
    if (hours === null) {
      const raw = text(cell('hours_spent'));
      if (raw) warnings.push(`Row ${line}: hours_spent "${raw.slice(0, 40)}" is not a number; counted as 0.`);
      else warnings.push(`Row ${line}: hours_spent is empty; counted as 0.`);
      hours = 0;
    } else if (hours < 0) {
      warnings.push(`Row ${line}: hours_spent ${hours} is negative; counted as 0.`);
      hours = 0;
    } else if (hours > 24 * 7) {
      warnings.push(`Row ${line}: hours_spent ${hours} is more than a week holds; counted as 168.`);
      hours = 24 * 7;
    }

    const rawDate = cell('due_date');
    let due = rawDate === null || text(rawDate) === '' ? todayTime : dateOf(rawDate);
    if (due === null) {
      warnings.push(`Row ${line}: due_date "${text(rawDate).slice(0, 40)}" is not a date; today is used.`);
      due = todayTime;
    } else {
      const year = new Date(due).getUTCFullYear();
      if (year < FIRST_YEAR || year > LAST_YEAR) {
        warnings.push(`Row ${line}: due_date ${iso(due)} is out of range; today is used.`);
        due = todayTime;
      } else if (due < weekFirst || due > weekLast)
        warnings.push(`Row ${line}: due_date ${iso(due)} is outside the week of ${weekStart}.`);
    }

    data.push({
      row: line,
      Engagement_ID: text(cell('Engagement_ID')).slice(0, 255) || UNKNOWN_ENGAGEMENT,
      task_type: text(cell('task_type')).slice(0, 255) || DEFAULT_TASK_TYPE,
      due_date: iso(due),
      external_reference: text(cell('external_reference')).slice(0, 255),
      work_performed: text(cell('work_performed')),
      hours_spent: Math.round(hours * 100) / 100,
    });
  });
  if (data.length === 0) throw new SheetError(TRACKER_MESSAGES.emptyFile);

  const order = new Map<string, number>();
  for (const row of data) if (!order.has(row.Engagement_ID)) order.set(row.Engagement_ID, order.size);
  data.sort(
    (a, b) =>
      (order.get(a.Engagement_ID) ?? 0) - (order.get(b.Engagement_ID) ?? 0) ||
      a.due_date.localeCompare(b.due_date) ||
      a.row - b.row,
  );
  return { data, warnings };
}
