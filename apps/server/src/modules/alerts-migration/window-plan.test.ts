import { describe, expect, it } from 'vitest';
import type { SuppressionWindow } from '@ce/platform-client';
import { planWindows, type WindowTarget } from './window-plan.js';

const sourceTests = [
  { testId: 's1', testName: 'Portal', type: 'http-server' },
  { testId: 's2', testName: 'Checkout', type: 'http-server' },
  { testId: 's3', testName: 'Other', type: 'http-server' },
];
const window = (name: string, testIds: string[]): SuppressionWindow => ({
  alertSuppressionWindowId: `w-${name}`,
  name,
  isEnabled: true,
  startDate: '2026-12-01T02:00:00Z',
  duration: 7200,
  repeat: { type: 'week', intervalLength: 1 },
  tests: testIds.map((testId) => ({ testId })),
});
const target = (changes: Partial<WindowTarget> = {}): WindowTarget => ({
  aid: 't1',
  accountGroupName: 'EMEA',
  tests: [{ testId: 't-portal', testName: 'Portal', type: 'http-server' }],
  windows: [],
  ...changes,
});

describe('planning the suppression windows that come along with migrated rules', () => {
  it('brings a window that covers a migrated test, its tests mapped by name and the missing ones dropped', () => {
    const [item, ...rest] = planWindows(
      [window('Freeze', ['s1', 's2']), window('Unrelated', ['s3'])],
      new Set(['s1']),
      sourceTests,
      [target()],
    );
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ status: 'create', sourceName: 'Freeze', targetAid: 't1' });
    expect(item?.after).toEqual({
      name: 'Freeze',
      isEnabled: true,
      startDate: '2026-12-01T02:00:00Z',
      duration: 7200,
      repeat: { type: 'week', intervalLength: 1 },
      testIds: ['t-portal'],
    });
    expect(item?.dropped).toEqual([
      { kind: 'test', name: 'Checkout', reason: 'No http-server test of this name in EMEA' },
    ]);
  });

  it('leaves a window behind when none of its tests exist in the target, and one of the same name alone', () => {
    const freeze = window('Freeze', ['s2']);
    expect(planWindows([freeze], new Set(['s2']), sourceTests, [target()])[0]).toMatchObject({
      status: 'skip',
      reason: 'None of its tests exist in EMEA',
    });
    const existing = { ...window('Freeze', []), alertSuppressionWindowId: 'theirs' };
    expect(
      planWindows([window('Freeze', ['s1'])], new Set(['s1']), sourceTests, [target({ windows: [existing] })])[0],
    ).toMatchObject({
      status: 'unchanged',
      knownIds: ['theirs'],
    });
  });
});
