import { describe, expect, it } from 'vitest';
import { weekStarts } from './tracker.js';

describe('the nine Mondays of the week-start select', () => {
  it('counts this week in the user’s time zone, not in UTC', () => {
    // Sunday 23:30 UTC is already Monday 08:30 in Tokyo, and still Sunday 15:30 in Los Angeles.
    const moment = new Date('2026-11-22T23:30:00Z');
    expect(weekStarts(moment, 'Asia/Tokyo').at(-1)).toBe('2026-11-23');
    expect(weekStarts(moment, 'UTC').at(-1)).toBe('2026-11-16');
    expect(weekStarts(moment, 'America/Los_Angeles').at(-1)).toBe('2026-11-16');
  });

  it('lists nine Mondays a week apart, eight weeks ago first', () => {
    const weeks = weekStarts(new Date('2026-11-25T12:00:00Z'), 'UTC');
    expect(weeks).toHaveLength(9);
    expect(weeks[0]).toBe('2026-09-28');
    expect(weeks.at(-1)).toBe('2026-11-23');
    for (const week of weeks) expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
  });
});
