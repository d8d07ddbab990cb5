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
const backup = [
  item(
    'test',
    'http-server: Portal',
    { testName: 'Portal', url: 'https://a.example.com', agents: ['London'], alert: { rules: ['Latency'] } },
    { testId: '1' },
  ),
  item('alert-rule', 'Latency', { ruleName: 'Latency', severity: 'major' }),
  item('dashboard', 'Overview', { title: 'Overview', widgets: [] }),
];

describe('drift between two sides of an account group', () => {
  it('finds exactly what was added, removed and changed, field by field, and counts per kind', () => {
    const live = [
      item(
        'test',
        'http-server: Portal',
        {
          testName: 'Portal',
          url: 'https://b.example.com',
          agents: ['London', 'Paris'],
          alert: { rules: ['Latency'] },
        },
        { testId: '1', modifiedDate: 'now' },
      ),
      item('dashboard', 'Overview', { widgets: [], title: 'Overview' }),
      item('dashboard', 'New view', { title: 'New view' }),
    ];
    const { changes, counts } = drift(backup, live);
    expect(changes).toEqual([
      {
        kind: 'test',
        key: 'http-server: Portal',
        name: 'http-server: Portal',
        change: 'changed',
        fields: [
          { path: 'agents', before: '["London"]', after: '["London","Paris"]' },
          { path: 'url', before: 'https://a.example.com', after: 'https://b.example.com' },
        ],
      },
      { kind: 'alert-rule', key: 'Latency', name: 'Latency', change: 'removed', fields: [] },
      { kind: 'dashboard', key: 'New view', name: 'New view', change: 'added', fields: [] },
    ]);
    expect(counts.test).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 0 });
    expect(counts.dashboard).toEqual({ added: 1, removed: 0, changed: 0, unchanged: 1 });
    expect(counts['alert-rule']).toEqual({ added: 0, removed: 1, changed: 0, unchanged: 0 });
  });

  it('never counts server-managed fields or key order as a change, and finds a field that appears or goes', () => {
    expect(
      drift(
        backup,
        backup.map((entry) => ({ ...entry, server: { testId: '99' } })),
      ).changes,
    ).toEqual([]);
    const [change] = drift([item('alert-rule', 'R', { a: 1 })], [item('alert-rule', 'R', { b: { c: 2 } })]).changes;
    expect(change?.fields).toEqual([
      { path: 'a', before: '1', after: null },
      { path: 'b.c', before: null, after: '2' },
    ]);
  });

  it('tells an item renamed on the platform (same id, another name) as renamed, not removed and added', () => {
    const live = [
      item(
        'test',
        'http-server: Portal (EU)',
        { testName: 'Portal (EU)', url: 'https://a.example.com', agents: ['London'], alert: { rules: ['Latency'] } },
        { testId: '1' },
      ),
      // The same name with another id: a new test, not the old one renamed.
      item('alert-rule', 'Latency', { ruleName: 'Latency', severity: 'major' }),
      item('dashboard', 'Overview', { title: 'Overview', widgets: [] }),
      item('test', 'http-server: Other', { testName: 'Other' }, { testId: '2' }),
    ];
    const { changes, counts } = drift(backup, live);
    expect(changes).toEqual([
      {
        kind: 'test',
        key: 'http-server: Other',
        name: 'http-server: Other',
        change: 'added',
        fields: [],
      },
      {
        kind: 'test',
        key: 'http-server: Portal',
        name: 'http-server: Portal (EU)',
        previousName: 'http-server: Portal',
        change: 'renamed',
        fields: [{ path: 'testName', before: 'Portal', after: 'Portal (EU)' }],
      },
    ]);
    expect(counts.test).toEqual({ added: 1, removed: 0, changed: 1, unchanged: 0 });
  });

  it('leaves the items that name a renamed item as they are: a rule and a dashboard name the same test', () => {
    const test = (name: string) =>
      item('test', `dns-server: ${name}`, { testName: name, agents: ['London'] }, { testId: '7' });
    const namers = (testKey: string, severity = 'major') => [
      item('alert-rule', 'DNS', { ruleName: 'DNS', severity, tests: [testKey] }),
      item('dashboard', 'Overview', {
        title: 'Overview',
        widgets: [{ title: 'Availability', filters: { TEST: [testKey] } }],
      }),
    ];
    const before = [test('ServiceNow'), ...namers('dns-server: ServiceNow')];
    const after = [test('ServiceNow DNS'), ...namers('dns-server: ServiceNow DNS', 'minor')];
    const { changes } = drift(before, after);
    expect(changes).toEqual([
      {
        kind: 'test',
        key: 'dns-server: ServiceNow',
        name: 'dns-server: ServiceNow DNS',
        previousName: 'dns-server: ServiceNow',
        change: 'renamed',
        fields: [{ path: 'testName', before: 'ServiceNow', after: 'ServiceNow DNS' }],
      },
      // The rule's own change only: its test is the same test under its new name.
      {
        kind: 'alert-rule',
        key: 'DNS',
        name: 'DNS',
        change: 'changed',
        fields: [{ path: 'severity', before: 'major', after: 'minor' }],
      },
    ]);
  });
});
