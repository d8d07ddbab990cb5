import { describe, expect, it } from 'vitest';
import { dateOf, normalizeRows } from './normalize.js';
import type { Cell } from './sheet-reader.js';

const HEADER: Cell[] = [
  'Engagement_ID',
  'task_type',
  'due_date',
  'external_reference',
  'work_performed',
  'hours_spent',
];
const WEEK = '2026-11-16';
const TODAY = '2026-11-18';

describe('the rows of an hours file', () => {
  it("groups rows without an engagement under 'Unknown', defaults task type and date, sorts by date", () => {
    const { data, warnings } = normalizeRows(
      [
        HEADER,
        ['ENG-2', '', '2026-11-19', 'CASE-1', 'Review', 2],
        ['', 'Call', '2026-11-17', '', 'Intro call', '1.5'],
        ['ENG-2', 'Meeting', new Date(Date.UTC(2026, 10, 16)), '', 'Kick-off', 1],
        [],
        ['ENG-3', 'Call', null, '', 'Follow-up', '0,5'],
      ],
      WEEK,
      TODAY,
    );
    expect(data.map((row) => [row.row, row.Engagement_ID, row.task_type, row.due_date, row.hours_spent])).toEqual([
      [4, 'ENG-2', 'Meeting', '2026-11-16', 1],
      [2, 'ENG-2', 'General', '2026-11-19', 2],
      [3, 'Unknown', 'Call', '2026-11-17', 1.5],
      [6, 'ENG-3', 'Call', TODAY, 0.5],
    ]);
    expect(warnings).toEqual([]);
  });

  it('counts hours that are not a number as 0 and says so; keeps dates outside the week with a warning', () => {
    const { data, warnings } = normalizeRows(
      [HEADER, ['E', 'General', '2026-12-01', '', 'x', 'two'], ['E', 'General', 'not a date', '', 'y', -3]],
      WEEK,
      TODAY,
    );
    expect(data.map((row) => [row.due_date, row.hours_spent])).toEqual([
      [TODAY, 0],
      ['2026-12-01', 0],
    ]);
    expect(warnings).toEqual([
      'Row 2: hours_spent "two" is not a number; counted as 0.',
      'Row 2: due_date 2026-12-01 is outside the week of 2026-11-16.',
      'Row 3: hours_spent -3 is negative; counted as 0.',
      'Row 3: due_date "not a date" is not a date; today is used.',
    ]);
  });

  it('reads Excel serial dates and the usual text forms, and refuses dates out of range', () => {
    expect(dateOf(46_343)).toBe(Date.UTC(2026, 10, 17));
    expect(dateOf('46343')).toBe(Date.UTC(2026, 10, 17));
    expect(dateOf('11/17/2026')).toBe(Date.UTC(2026, 10, 17));
    expect(dateOf('17.11.2026')).toBe(Date.UTC(2026, 10, 17));
    expect(dateOf('2026/11/17')).toBe(Date.UTC(2026, 10, 17));
    expect(dateOf('2026-02-30')).toBeNull();
    const { warnings } = normalizeRows([HEADER, ['E', '', '1850-01-01', '', 'old', 1]], WEEK, TODAY);
    expect(warnings).toEqual(['Row 2: due_date 1850-01-01 is out of range; today is used.']);
  });

  it('drops control characters and refuses a file without the columns or without rows', () => {
    const { data } = normalizeRows([HEADER, ['E\u0000', 'General', '', '', 'ok\u0007 done', 1]], WEEK, TODAY);
    expect(data[0]?.Engagement_ID).toBe('E');
    expect(data[0]?.work_performed).toBe('ok done');
    expect(() => normalizeRows([['Engagement_ID', 'name']], WEEK, TODAY)).toThrow('File contains no valid data.');
    expect(() => normalizeRows([HEADER, [], [null, null]], WEEK, TODAY)).toThrow(
      'File is empty or not valid. Please check the rows and try again.',
    );
  });
});
