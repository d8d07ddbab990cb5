import { describe, expect, it } from 'vitest';
import { dateOnly, dateTime, dayMonth, dayTime } from './dates';

describe('dates as every page writes them', () => {
  const at = new Date(2026, 11, 2, 13, 48, 6);

  it('writes an instant day first, with a 24-hour clock, in the reader’s time zone', () => {
    expect(dateTime(at)).toBe('2 Dec 2026, 13:48');
    expect(dateTime(at.toISOString())).toBe('2 Dec 2026, 13:48');
    expect(dateTime(new Date(2026, 0, 5, 0, 7))).toBe('5 Jan 2026, 00:07');
  });

  it('writes a day with or without its year', () => {
    expect(dateOnly(at)).toBe('2 Dec 2026');
    expect(dayMonth(at.toISOString())).toBe('2 Dec');
    expect(dayTime(at)).toBe('2 Dec, 13:48');
  });

  it('says an unreadable instant is unknown rather than "Invalid Date"', () => {
    expect(dateTime('not a date')).toBe('an unknown date');
    expect(dateOnly('')).toBe('an unknown date');
  });
});
