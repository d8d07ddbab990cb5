import { describe, expect, it } from 'vitest';
import type { HealthCheck } from '@ce/contract';
import { findingsInForce } from '../../core/findings-in-force.js';
import { openChecks } from './customer-overview.service.js';

const user = (id: string) => ({ type: 'user' as const, id, name: `User ${id}`, detail: 'never signed in' });
const check = (id: string, status: HealthCheck['status'], weight: number, items: HealthCheck['items']) =>
  ({ id, title: id, status, weight, items }) as unknown as HealthCheck;
const checks = [
  check('inactive-users', 'warn', 5, [user('1'), user('2')]),
  check('alerts-active', 'fail', 10, [user('3')]),
  check('unused-tests', 'pass', 10, []),
  check('agents-offline', 'fail', 1, []),
];

describe("the customer page's open checks: the findings every list counts, by check", () => {
  it('leaves out a check whose items are all waived, and keeps one that names no item', () => {
    const waivers = [
      { checkId: 'alerts-active', itemKey: 'user:3' },
      { checkId: 'inactive-users', itemKey: 'user:1' },
    ];
    const open = openChecks(checks, waivers);
    expect(open.map(({ check: { id }, items }) => [id, items.map((item) => item.id)])).toEqual([
      ['inactive-users', ['2']],
      ['agents-offline', []],
    ]);
    // The items it lists are the open findings My customers and the watch count.
    expect(open.flatMap(({ items }) => items).length).toBe(findingsInForce(checks, waivers).open.length);
  });

  it('takes a check waived whole out, and lists the heaviest first', () => {
    expect(openChecks(checks, [{ checkId: 'inactive-users', itemKey: null }]).map(({ check: { id } }) => id)).toEqual([
      'alerts-active',
      'agents-offline',
    ]);
    expect(openChecks(checks, []).map(({ check: { id } }) => id)).toEqual([
      'alerts-active',
      'inactive-users',
      'agents-offline',
    ]);
  });
});
