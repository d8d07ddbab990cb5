import { describe, expect, it } from 'vitest';
import { summarise, type ActivityEvent } from './rules.js';

const event = (date: string, user: string, accountGroup: string, name = 'Login'): ActivityEvent => ({
  date,
  event: name,
  user,
  accountGroup,
  ipAddress: '198.51.100.7',
  resources: '',
});

describe('the TAM activity summaries', () => {
  const events = [
    event('2026-11-22T09:00:00Z', 'Ana <ana@acme.example.com>', 'Acme - Production'),
    event('2026-11-22T10:00:00Z', 'Ana <ana@acme.example.com>', 'Acme - Staging', 'Test created'),
    event('2026-11-20T08:00:00Z', 'Ben <ben@acme.example.com>', 'Acme - Production'),
  ];

  it('counts each event once per user, group and type, busiest first, with the first and last dates', () => {
    const summary = summarise(events, new Date('2026-11-23T12:00:00Z'), 7);
    expect(summary.total).toBe(3);
    expect(summary.byUser).toEqual([
      { key: 'Ana <ana@acme.example.com>', count: 2, first: '2026-11-22T09:00:00Z', last: '2026-11-22T10:00:00Z' },
      { key: 'Ben <ben@acme.example.com>', count: 1, first: '2026-11-20T08:00:00Z', last: '2026-11-20T08:00:00Z' },
    ]);
    expect(summary.byGroup.map((entry) => [entry.key, entry.count])).toEqual([
      ['Acme - Production', 2],
      ['Acme - Staging', 1],
    ]);
    expect(summary.byType.map((entry) => [entry.key, entry.count])).toEqual([
      ['Login', 2],
      ['Test created', 1],
    ]);
  });

  it('has every day of the window, quiet days at zero', () => {
    const summary = summarise(events, new Date('2026-11-23T12:00:00Z'), 7);
    expect(summary.byDay.map((entry) => entry.day)).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
    ]);
    expect(summary.byDay.map((entry) => entry.count)).toEqual([0, 0, 0, 0, 1, 0, 2, 0]);
    expect(summarise([], new Date('2026-11-23T12:00:00Z'), 14).byDay).toHaveLength(15);
  });
});
