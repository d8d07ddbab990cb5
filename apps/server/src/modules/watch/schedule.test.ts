import { describe, expect, it } from 'vitest';
import type { WatchSchedule } from '@ce/contract';
import { nextRunAfter, zonedInstant } from './schedule.js';

const daily = (time: string, timeZone: string): WatchSchedule => ({ cadence: 'daily', weekday: null, time, timeZone });
const next = (schedule: WatchSchedule, after: string) => nextRunAfter(schedule, new Date(after)).toISOString();

describe("a watch's next due time", () => {
  it('is later today in the owner’s zone, or tomorrow once today’s has passed', () => {
    const schedule = daily('07:00', 'Europe/Paris');
    // Paris is UTC+1 in November.
    expect(next(schedule, '2026-11-27T05:00:00Z')).toBe('2026-11-27T06:00:00.000Z');
    expect(next(schedule, '2026-11-27T06:00:00Z')).toBe('2026-11-28T06:00:00.000Z');
    expect(next(schedule, '2026-11-27T23:30:00Z')).toBe('2026-11-28T06:00:00.000Z');
  });

  it('follows the zone’s calendar day, not UTC’s', () => {
    // 23:00 UTC on the 27th is already the 28th in Tokyo (UTC+9): 08:00 there is 23:00 UTC on the 28th.
    expect(next(daily('08:00', 'Asia/Tokyo'), '2026-11-27T23:30:00Z')).toBe('2026-11-28T23:00:00.000Z');
    // New York (UTC-5): 21:00 there on the 27th is 02:00 UTC on the 28th.
    expect(next(daily('21:00', 'America/New_York'), '2026-11-27T23:30:00Z')).toBe('2026-11-28T02:00:00.000Z');
  });

  it('runs weekly on its weekday only', () => {
    // 2026-11-27 is a Friday; Monday (1) 09:00 in London (UTC+0 in winter).
    const monday: WatchSchedule = { cadence: 'weekly', weekday: 1, time: '09:00', timeZone: 'Europe/London' };
    expect(next(monday, '2026-11-27T12:00:00Z')).toBe('2026-11-30T09:00:00.000Z');
    expect(next(monday, '2026-11-30T08:59:00Z')).toBe('2026-11-30T09:00:00.000Z');
    expect(next(monday, '2026-11-30T09:00:00Z')).toBe('2026-12-07T09:00:00.000Z');
  });

  it('keeps the local time across a change of summer time', () => {
    const schedule = daily('07:00', 'Europe/Paris');
    // Paris moves to UTC+2 on 2027-03-28: 07:00 is 06:00 UTC the day before, 05:00 UTC from that day.
    expect(next(schedule, '2027-03-27T07:00:00Z')).toBe('2027-03-28T05:00:00.000Z');
  });

  it('moves a time the clock skips by the gap, and takes the first of a time it shows twice', () => {
    // 2027-03-28 02:30 does not exist in Paris (02:00 -> 03:00): it comes at 03:30 local, 01:30 UTC.
    expect(new Date(zonedInstant({ year: 2027, month: 3, day: 28 }, 2, 30, 'Europe/Paris')).toISOString()).toBe(
      '2027-03-28T01:30:00.000Z',
    );
    // 2026-10-25 02:30 happens twice in Paris (03:00 -> 02:00): the first, at UTC+2, is 00:30 UTC.
    expect(new Date(zonedInstant({ year: 2026, month: 10, day: 25 }, 2, 30, 'Europe/Paris')).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });
});
