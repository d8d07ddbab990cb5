import { describe, expect, it } from 'vitest';
import type { BackupItem } from './archive.js';
import { planRestore, type RestoreTarget } from './restore-plan.js';

const item = (
  kind: BackupItem['kind'],
  key: string,
  config: Record<string, unknown>,
  extra: Partial<BackupItem> = {},
): BackupItem => ({
  kind,
  key,
  name: key.split(': ').at(-1) ?? key,
  config,
  server: {},
  masked: [],
  ...extra,
});
const portal = item(
  'test',
  'http-server: Portal',
  { testName: 'Portal', interval: 300, agents: ['London', 'Branch EA'] },
  { server: { agentIds: { London: '101', 'Branch EA': '9001' } } },
);
const target = (changes: Partial<RestoreTarget> = {}): RestoreTarget => ({
  accountGroupName: 'EMEA',
  items: [],
  agents: new Map([
    ['London', '101'],
    ['Branch EA', '7777'],
  ]),
  ...changes,
});

describe('planning a restore', () => {
  it('creates what the target lacks, tests first, with agents remapped by name', () => {
    const rule = item('alert-rule', 'Latency', { ruleName: 'Latency', tests: ['http-server: Portal'] });
    const steps = planRestore([rule, portal], target());
    expect(steps.map((step) => [step.kind, step.status, step.phase])).toEqual([
      ['test', 'create', 0],
      ['alert-rule', 'create', 1],
    ]);
    expect(steps[0]?.resolved).toEqual([
      { kind: 'agent', name: 'London', from: '101', to: '101' },
      { kind: 'agent', name: 'Branch EA', from: '9001', to: '7777' },
    ]);
    expect(steps[1]?.config).toEqual({ ruleName: 'Latency', tests: ['http-server: Portal'] });
  });

  it('updates an item that differs (with its field differences and what undo restores), and leaves an identical one', () => {
    const live = item(
      'test',
      'http-server: Portal',
      { ...portal.config, interval: 600 },
      { server: { testId: '281' } },
    );
    const [update] = planRestore([portal], target({ items: [live] }));
    expect(update).toMatchObject({ status: 'update', existingId: '281', before: live.config });
    expect(update?.differences).toEqual([{ path: 'interval', before: '600', after: '300' }]);
    const same = item('test', 'http-server: Portal', portal.config, { server: { testId: '281' } });
    expect(planRestore([portal], target({ items: [same] }))[0]?.status).toBe('unchanged');
  });

  it('says why an item cannot be restored: an agent missing, a masked secret, a type not allowed, a kind not written', () => {
    const reason = (chosen: BackupItem, into = target()) => planRestore([chosen], into)[0]?.reason;
    expect(reason(portal, target({ agents: new Map([['London', '101']]) }))).toBe('No agent Branch EA in EMEA');
    expect(reason({ ...portal, masked: ['password'] })).toBe(
      'password is masked by the platform: enter it again in the platform',
    );
    expect(reason(portal, target({ allowedTestTypes: new Set(['agent-to-server']) }))).toBe(
      'EMEA does not allow http-server tests',
    );
    expect(reason(item('endpoint-label', 'VPN users', { name: 'VPN users' }))).toBe(
      'endpoint-label items are kept for the record; restore does not write them',
    );
  });

  it('drops the tests a rule, a window or a tag names that the target will not have, saying so', () => {
    const rule = item('alert-rule', 'Latency', {
      ruleName: 'Latency',
      tests: ['http-server: Portal', 'dns-server: Gone'],
    });
    const tag = item('tag', 'test: Owner: NOC', {
      key: 'Owner',
      value: 'NOC',
      objectType: 'test',
      assignments: ['dns-server: Gone'],
    });
    const [ruleStep, tagStep] = planRestore([rule, tag], target({ items: [item('test', 'http-server: Portal', {})] }));
    expect(ruleStep?.config?.tests).toEqual(['http-server: Portal']);
    expect(ruleStep?.dropped).toEqual([
      { kind: 'test', name: 'dns-server: Gone', reason: 'No test dns-server: Gone in EMEA, nor in what is restored' },
    ]);
    expect(tagStep?.config?.assignments).toEqual([]);
  });
});
