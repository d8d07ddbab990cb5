import { describe, expect, it } from 'vitest';
import type { SuppressionWindow } from '@ce/platform-client';
import { formatDuration, windowState } from './rules.js';

const now = new Date('2026-11-23T12:00:00Z');
const window = (changes: Partial<SuppressionWindow>): SuppressionWindow => ({
  alertSuppressionWindowId: '1',
  name: 'Patch window',
  ...changes,
});

describe('windowState', () => {
  it("follows the platform's status when it gives one", () => {
    expect(windowState(window({ status: 'active', startDate: '2020-01-01T00:00:00Z' }), now)).toBe('now');
    expect(windowState(window({ status: 'ended', startDate: '2030-01-01T00:00:00Z' }), now)).toBe('expired');
  });

  it('works it out from the start and the duration otherwise', () => {
    const inEffect = window({ startDate: '2026-11-23T11:00:00Z', duration: 7200 });
    expect(windowState(inEffect, now)).toBe('now');
    expect(windowState(window({ startDate: '2026-11-23T09:00:00Z', duration: 3600 }), now)).toBe('expired');
    expect(windowState(window({ startDate: '2026-11-24T09:00:00Z', duration: 3600 }), now)).toBe('upcoming');
  });

  it('keeps a repeating window whose first occurrence is over as upcoming, not expired', () => {
    const weekly = window({ startDate: '2026-11-01T09:00:00Z', duration: 3600, repeat: { type: 'week' } });
    expect(windowState(weekly, now)).toBe('upcoming');
  });
});

describe('formatDuration', () => {
  it('says hours and minutes, or seconds when shorter than a minute', () => {
    expect(formatDuration(5400)).toBe('1 h 30 min');
    expect(formatDuration(7200)).toBe('2 h');
    expect(formatDuration(900)).toBe('15 min');
    expect(formatDuration(20)).toBe('20 s');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(0)).toBe('—');
  });
});
