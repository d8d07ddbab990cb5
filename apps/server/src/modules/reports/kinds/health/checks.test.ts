import { describe, expect, it } from 'vitest';
import { HEALTH_PROFILES, type HealthProfile } from '@ce/contract';
import { changesSince } from './changes.js';
import {
  alertsActive,
  alertsCount,
  inactiveUsers,
  loginFrequency,
  runChecks,
  scoreOf,
  sparseDashboards,
  timeoutValues,
  trendingIssueTests,
  unitsProjected,
  unusedTests,
  type HealthAlert,
  type HealthInput,
  type HealthTest,
  type HealthUser,
} from './checks.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-23T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const { v6, v7 } = HEALTH_PROFILES as { v6: HealthProfile; v7: HealthProfile };
const REFUSED = {
  ok: false as const,
  reason: 'The token cannot read the usage: the platform answered 403 Forbidden (permission needed: View Billing).',
};

function input(parts: Partial<HealthInput> = {}): HealthInput {
  return {
    now: NOW,
    users: { ok: true, value: [] },
    tests: { ok: true, value: [] },
    rules: { ok: true, value: [{ ruleId: 'r1', ruleName: 'Rule one', severity: 'major', accountGroup: 'Prod' }] },
    alerts: { ok: true, value: [] },
    dashboards: { ok: true, value: [] },
    usage: {
      ok: true,
      value: { cloudUnitsUsed: 0, cloudUnitsProjected: 0, cloudUnitsIncluded: 1000, testUnits: new Map() },
    },
    ...parts,
  };
}
const user = (uid: string, lastLogin: string | undefined, admin = false): HealthUser => ({
  uid,
  name: `User ${uid}`,
  email: `${uid}@acme.example.com`,
  lastLogin,
  dateRegistered: ago(400),
  admin,
  roles: [admin ? 'Account Admin' : 'Regular User'],
  accountGroups: ['Prod'],
});
const test = (testId: string, parts: Partial<HealthTest> = {}): HealthTest => ({
  testId,
  testName: `Test ${testId}`,
  type: 'http-server',
  enabled: true,
  alertsEnabled: true,
  createdDate: ago(10),
  modifiedDate: ago(10),
  accountGroup: 'Prod',
  ...parts,
});
const alert = (id: string, start: number, end?: number, testId = 't1'): HealthAlert => ({
  id,
  ruleId: 'r1',
  testId,
  severity: 'major',
  startDate: ago(start),
  ...(end === undefined ? {} : { endDate: ago(end) }),
  accountGroup: 'Prod',
});
const ids = (check: { items: { id: string }[] }) => check.items.map((item) => item.id);

describe('inactive users', () => {
  const users = [
    user('exactly-31', ago(31)),
    user('just-past-31', new Date(NOW.getTime() - 31 * DAY - 1).toISOString()),
    user('35', ago(35)),
    user('exactly-45', ago(45)),
    user('just-past-45', new Date(NOW.getTime() - 45 * DAY - 1).toISOString()),
    user('2', ago(2)),
    user('never', undefined),
  ];
  it('v6 flags more than 31 days and never; exactly 31 days passes', () => {
    const check = inactiveUsers(input({ users: { ok: true, value: users } }), v6);
    expect(ids(check)).toEqual(['just-past-31', '35', 'exactly-45', 'just-past-45', 'never']);
    expect(check.status).toBe('warn');
    expect(check.threshold).toBe('31 days');
  });
  it('v7 flags more than 45 days and never: the 35-day user is active there', () => {
    const check = inactiveUsers(input({ users: { ok: true, value: users } }), v7);
    expect(ids(check)).toEqual(['just-past-45', 'never']);
    expect(check.items[1]?.detail).toMatch(/^never signed in/);
  });
  it('a user never signed in but registered within the window is not inactive yet', () => {
    const fresh = { ...user('new', undefined), dateRegistered: ago(3) };
    expect(inactiveUsers(input({ users: { ok: true, value: [fresh] } }), v7).status).toBe('pass');
  });
  it('is unknown, never passing, when the users cannot be read', () => {
    const check = inactiveUsers(input({ users: REFUSED }), v7);
    expect(check.status).toBe('unknown');
    expect(check.reason).toContain('403');
    expect(check.items).toEqual([]);
  });
});

describe('login frequency of administrators', () => {
  const users = [user('admin-60', ago(60), true), user('admin-90', ago(90), true), user('regular-200', ago(200))];
  it('v6 (45 days) fails on the administrator away 60 and 90 days; regular users are not its business', () => {
    const check = loginFrequency(input({ users: { ok: true, value: users } }), v6);
    expect(ids(check)).toEqual(['admin-60', 'admin-90']);
    expect(check.status).toBe('fail');
  });
  it('v7 (90 days) passes both: exactly 90 days is not more than 90', () => {
    expect(loginFrequency(input({ users: { ok: true, value: users } }), v7).status).toBe('pass');
  });
});

describe('alert rules triggered too often', () => {
  const starts = (count: number) =>
    Array.from({ length: count }, (_, index) => alert(`a${index}`, 1 + index * 2, 1 + index * 2 - 0.01));
  it('10 triggers in 30 days pass, 11 warn (both profiles)', () => {
    for (const profile of [v6, v7]) {
      expect(alertsCount(input({ alerts: { ok: true, value: starts(10) } }), profile).status).toBe('pass');
      const check = alertsCount(input({ alerts: { ok: true, value: starts(11) } }), profile);
      expect(check.status).toBe('warn');
      expect(check.items).toEqual([
        expect.objectContaining({
          type: 'rule',
          id: 'r1',
          name: 'Rule one',
          detail: 'triggered 11 times in the last 30 days',
        }),
      ]);
    }
  });
  it('alerts that started before the window do not count', () => {
    const old = [...starts(10), alert('old', 31, 30.9)];
    expect(alertsCount(input({ alerts: { ok: true, value: old } }), v7).status).toBe('pass');
  });
});

describe('alerts active most of the time', () => {
  it('exactly 50% of the last 30 days passes; 51% fails', () => {
    expect(alertsActive(input({ alerts: { ok: true, value: [alert('a', 15)] } }), v7).status).toBe('pass');
    const check = alertsActive(input({ alerts: { ok: true, value: [alert('a', 15.3)] } }), v6);
    expect(check.status).toBe('fail');
    expect(check.items[0]?.detail).toBe('active 51% of the last 30 days (15.3 days)');
  });
  it('49% passes, and overlapping alerts count each moment once', () => {
    const overlapping = [alert('a', 20, 5.3, 't1'), alert('b', 18, 6, 't2')];
    expect(alertsActive(input({ alerts: { ok: true, value: overlapping } }), v7).status).toBe('pass');
  });
  it('counts only the part inside the window of an alert that started before it', () => {
    const check = alertsActive(input({ alerts: { ok: true, value: [alert('long', 60, 14)] } }), v7);
    expect(check.status).toBe('fail');
    expect(check.items[0]?.detail).toMatch(/^active 53\.3% /);
  });
});

describe('unused tests', () => {
  const tests = [
    test('exactly-180', { createdDate: ago(180), enabled: false }),
    test('181', { createdDate: ago(181), enabled: false }),
    test('179', { createdDate: ago(179), enabled: false }),
    test('silent-old', { createdDate: ago(400), alertsEnabled: false }),
    test('silent-on-dashboard', { createdDate: ago(400), alertsEnabled: false }),
    test('busy-old', { createdDate: ago(400) }),
  ];
  const dashboards = {
    ok: true as const,
    value: [{ dashboardId: 'd', title: 'D', widgetCount: 2, testIds: ['silent-on-dashboard'], accountGroup: 'Prod' }],
  };
  it('flags tests older than 180 days that are disabled, or silent and on no dashboard, with what they cost', () => {
    const usage = {
      ok: true as const,
      value: {
        cloudUnitsUsed: 10,
        cloudUnitsProjected: 10,
        cloudUnitsIncluded: 100,
        testUnits: new Map([
          ['181', 120],
          ['silent-old', 30],
        ]),
      },
    };
    const check = unusedTests(input({ tests: { ok: true, value: tests }, dashboards, usage }));
    expect(ids(check)).toEqual(['181', 'silent-old']);
    expect(check.items.map((item) => item.cloudUnits)).toEqual([120, 30]);
    expect(check.savings).toEqual({ cloudUnits: 150 });
  });
  it('still lists the tests when the usage is refused, without units', () => {
    const check = unusedTests(input({ tests: { ok: true, value: tests }, dashboards, usage: REFUSED }));
    expect(ids(check)).toEqual(['181', 'silent-old']);
    expect(check.savings).toBeUndefined();
  });
});

describe('dashboards with fewer than two widgets', () => {
  it('one widget warns, two pass', () => {
    const board = (dashboardId: string, widgetCount: number) => ({
      dashboardId,
      title: dashboardId,
      widgetCount,
      testIds: [],
      accountGroup: 'Prod',
    });
    const check = sparseDashboards(
      input({ dashboards: { ok: true, value: [board('one', 1), board('two', 2), board('none', 0)] } }),
    );
    expect(ids(check)).toEqual(['one', 'none']);
    expect(check.items[0]?.detail).toBe('1 widget');
  });
});

describe('trending issue tests and time limits', () => {
  it('a test with more alerts in the second half of 45 days is trending; as many in each half is not', () => {
    const alerts = [
      alert('1', 40, 39.9, 'up'),
      alert('2', 10, 9.9, 'up'),
      alert('3', 5, 4.9, 'up'),
      alert('4', 40, 39.9, 'flat'),
      alert('5', 5, 4.9, 'flat'),
    ];
    const check = trendingIssueTests(
      input({ tests: { ok: true, value: [test('up'), test('flat')] }, alerts: { ok: true, value: alerts } }),
      v7,
    );
    expect(ids(check)).toEqual(['up']);
    expect(check.items[0]?.detail).toBe('3 alerts in the last 45 days: 1 in the first half, 2 in the second');
  });
  it('a raised time limit unchanged for more than 45 days is flagged; one changed 45 days ago or less is not', () => {
    const tests = [
      test('raised-46', { timeLimit: 30, modifiedDate: ago(46) }),
      test('raised-45', { timeLimit: 30, modifiedDate: ago(45) }),
      test('default-400', { timeLimit: 5, modifiedDate: ago(400) }),
      test('page-load-raised', { type: 'page-load', timeLimit: 15, modifiedDate: ago(100) }),
      test('page-load-default', { type: 'page-load', timeLimit: 10, modifiedDate: ago(100) }),
    ];
    expect(ids(timeoutValues(input({ tests: { ok: true, value: tests } }), v6))).toEqual([
      'raised-46',
      'page-load-raised',
    ]);
  });
});

describe('units projected, the score and the changes', () => {
  it('a 403 on /usage makes the check unknown, says why, and leaves it out of the score', () => {
    const checks = runChecks(input({ usage: REFUSED }), v7);
    const units = checks.find((check) => check.id === 'units-projected');
    expect(units?.status).toBe('unknown');
    expect(units?.reason).toContain('View Billing');
    expect(scoreOf(checks)).toEqual({ value: 100, grade: 'A' });
  });
  it('projected above 90% of the plan warns, above 100% fails', () => {
    const usage = (projected: number) => ({
      ok: true as const,
      value: { cloudUnitsUsed: 1, cloudUnitsProjected: projected, cloudUnitsIncluded: 1000, testUnits: new Map() },
    });
    expect(unitsProjected(input({ usage: usage(900) })).status).toBe('pass');
    expect(unitsProjected(input({ usage: usage(901) })).status).toBe('warn');
    expect(unitsProjected(input({ usage: usage(1001) })).status).toBe('fail');
  });
  it('weighs each check: a warning earns half its weight, a failure nothing', () => {
    const checks = runChecks(input({ users: { ok: true, value: [user('admin', ago(100), true)] } }), v7);
    // inactive users (10) warns, login frequency (15) fails: 100 - 5 - 15.
    expect(scoreOf(checks)).toEqual({ value: 80, grade: 'B' });
  });
  it('lists items new and resolved since the previous run, and status changes', () => {
    const before = runChecks(input({ users: { ok: true, value: [user('gone', ago(100))] } }), v7);
    const after = runChecks(input({ users: { ok: true, value: [user('arrived', ago(100), true)] } }), v7);
    const changes = changesSince({ checks: before }, after);
    expect(changes.map(({ checkId, change, item }) => [checkId, change, item?.id])).toEqual([
      ['inactive-users', 'new', 'arrived'],
      ['inactive-users', 'resolved', 'gone'],
      ['login-frequency', 'changed', undefined],
      ['login-frequency', 'new', 'arrived'],
    ]);
    expect(changesSince(null, after)).toEqual([]);
  });
});
