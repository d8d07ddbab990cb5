import { describe, expect, it } from 'vitest';
import type { BackupItem } from './archive.js';
import { drift } from './drift.js';

const item = (kind: BackupItem['kind'], key: string, config: Record<string, unknown>, server = {}): BackupItem => ({
  kind,
  key,
  name: key,
  config,
  server,
  masked: [],
});
const widget = (tests: string[]) => ({ title: 'Agent Health 1', filters: { TEST: tests } });
const dashboard = (tests: string[]) =>
  item('dashboard', 'SaaS Apps Network Performance', {
    title: 'SaaS Apps Network Performance',
    widgets: [widget(tests)],
  });
const portal = item('test', 'http-server: Portal', { testName: 'Portal' }, { testId: '1234' });
const other = item('test', 'http-server: Other', { testName: 'Other' }, { testId: '77' });

describe('drift: a removed item the other side still names by its id', () => {
  it('is no change of the dashboard whose widget keeps the deleted test id: the removal names it', () => {
    // The platform's answer for the dashboard is the same before and after: its widget still filters on test 1234,
    // which the second reading can no longer name ("#1234").
    const { changes, counts } = drift(
      [portal, other, dashboard(['http-server: Other', 'http-server: Portal'])],
      [other, dashboard(['#1234', 'http-server: Other'])],
    );
    expect(changes).toEqual([
      {
        kind: 'test',
        key: 'http-server: Portal',
        name: 'http-server: Portal',
        change: 'removed',
        fields: [],
        stillNamedBy: [{ kind: 'dashboard', name: 'SaaS Apps Network Performance' }],
      },
    ]);
    expect(counts.dashboard).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 1 });
  });

  it("keeps a dashboard's own change, and an id that was never the removed test's key on the first side", () => {
    const { changes } = drift(
      [portal, other, dashboard(['http-server: Other'])],
      [other, dashboard(['#1234', 'http-server: Other'])],
    );
    expect(changes.map((change) => [change.kind, change.change, change.stillNamedBy])).toEqual([
      ['test', 'removed', undefined],
      ['dashboard', 'changed', undefined],
    ]);
    // A rule that names the removed test as "test <id>" on the second side (the platform kept the id) is no change.
    const { changes: rules } = drift(
      [portal, item('alert-rule', 'Latency', { ruleName: 'Latency', tests: ['http-server: Portal'] })],
      [item('alert-rule', 'Latency', { ruleName: 'Latency', tests: ['test 1234'] })],
    );
    expect(rules).toEqual([
      expect.objectContaining({
        kind: 'test',
        change: 'removed',
        stillNamedBy: [{ kind: 'alert-rule', name: 'Latency' }],
      }),
    ]);
  });
});
