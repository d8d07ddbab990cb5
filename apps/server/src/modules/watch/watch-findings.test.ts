import { describe, expect, it } from 'vitest';
import type { KeptCheck } from './watch-changes.js';
import { findingsInForce } from './watch-findings.js';

const user = (id: string) => ({ type: 'user', id, name: `User ${id}`, detail: 'never signed in' });
const checks: KeptCheck[] = [
  { id: 'inactive-users', title: 'Inactive users', status: 'warn', weight: 10, items: [user('1'), user('2')] },
  { id: 'alerts-active', title: 'Alerts active', status: 'fail', weight: 10, items: [user('3')] },
  { id: 'unused-tests', title: 'Unused tests', status: 'pass', weight: 10, items: [] },
];

describe('open and waived findings, as every list counts them', () => {
  it('counts a waived finding once: waived, not open, whether waived before the run or since', () => {
    expect(findingsInForce(checks, [])).toMatchObject({ waived: 0 });
    expect(findingsInForce(checks, []).open).toHaveLength(3);
    const one = findingsInForce(checks, [{ checkId: 'inactive-users', itemKey: 'user:1' }]);
    expect(one.open.map((finding) => finding.itemKey)).toEqual(['user:2', 'user:3']);
    expect(one.waived).toBe(1);
    const whole = findingsInForce(checks, [{ checkId: 'alerts-active', itemKey: null }]);
    expect(whole.open.map((finding) => `${finding.checkId}:${finding.itemKey}`)).toEqual([
      'inactive-users:user:1',
      'inactive-users:user:2',
    ]);
    expect(whole.waived).toBe(1);
    // A whole check waived takes each of its findings out: open and waived add up to what was found.
    const wholeOfTwo = findingsInForce(checks, [{ checkId: 'inactive-users', itemKey: null }]);
    expect([wholeOfTwo.open.length, wholeOfTwo.waived]).toEqual([1, 2]);
    // A redundant item waiver under a whole-check one takes nothing out twice.
    const both = findingsInForce(checks, [
      { checkId: 'inactive-users', itemKey: null },
      { checkId: 'inactive-users', itemKey: 'user:1' },
    ]);
    expect([both.open.length, both.waived]).toEqual([1, 2]);
    expect(findingsInForce(null, [{ checkId: 'alerts-active', itemKey: null }])).toEqual({ open: [], waived: 0 });
  });
});
