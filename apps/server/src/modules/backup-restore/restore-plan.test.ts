import { describe, expect, it } from 'vitest';
import type { BackupItem } from './archive.js';
import { restoreItems } from './restore-items.js';
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

  it('renames back an item renamed since the backup (found by its id), instead of creating a second one', () => {
    const backedUp = item('test', 'http-server: Portal', portal.config, {
      server: { testId: '281', agentIds: { London: '101', 'Branch EA': '9001' } },
    });
    const renamed = item(
      'test',
      'http-server: Portal (EU)',
      { ...portal.config, testName: 'Portal (EU)' },
      { server: { testId: '281' } },
    );
    const into = target({ items: [renamed] });
    const [step] = planRestore([backedUp], into);
    expect(step).toMatchObject({
      status: 'update',
      existingId: '281',
      previousName: 'Portal (EU)',
      existingKey: 'http-server: Portal (EU)',
    });
    // What the restore writes is what the plan said: an update of that test, not the item left as it was.
    const [write] = restoreItems(step ? [step] : [], { ...into, aid: '1234', side: 'source' });
    expect(write).toMatchObject({ action: 'restore-update', resultId: '281', payload: { id: '281' } });
    expect(write?.status).toBeUndefined();
    expect(step?.differences).toEqual([{ path: 'testName', before: 'Portal (EU)', after: 'Portal' }]);
    // Another group's test of another id under the new name is no match: the backup's is created.
    const elsewhere = item('test', 'http-server: Portal (EU)', renamed.config, { server: { testId: '999' } });
    expect(planRestore([backedUp], target({ items: [elsewhere] }))[0]?.status).toBe('create');
  });

  it('says why an item cannot be restored: an agent missing, a masked secret, a type not allowed, a kind not written', () => {
    const reason = (chosen: BackupItem, into = target()) => planRestore([chosen], into)[0]?.reason;
    expect(reason(portal, target({ agents: new Map([['London', '101']]) }))).toBe('No agent Branch EA in EMEA');
    expect(reason({ ...portal, masked: ['password'] })).toBe(
      'password is masked by the platform: enter it again in the platform',
    );
    expect(reason(portal, target({ refusedTestTypes: new Set(['http-server']) }))).toBe(
      'The plan of EMEA does not include http-server tests',
    );
    expect(reason(item('reference', 'agent: Branch EA', { agentName: 'Branch EA' }))).toBe(
      'Kept to name what the items use: agents are installed, not restored',
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

  it('restores endpoint labels before the endpoint tests that run on them, and says what an endpoint test lacks', () => {
    const label = item('endpoint-label', 'Macs', { name: 'Macs', matchType: 'or', filters: [] });
    const onLabel = item('endpoint-scheduled-test', 'Portal from laptops', {
      testName: 'Portal from laptops',
      type: 'http-server',
      agentSelectorConfig: { agentSelectorType: 'agent-labels', endpointAgentLabels: ['Macs'], maxMachines: 5 },
    });
    expect(planRestore([onLabel, label], target()).map((step) => [step.kind, step.status, step.phase])).toEqual([
      ['endpoint-label', 'create', 0],
      ['endpoint-scheduled-test', 'create', 1],
    ]);
    expect(planRestore([onLabel], target())[0]?.reason).toBe('No endpoint label Macs in EMEA, nor in what is restored');
    const onAgents = item('endpoint-dynamic-test', 'Webex', {
      testName: 'Webex',
      agentSelectorConfig: { agentSelectorType: 'specific-agents', agents: ['LAPTOP-7'], maxMachines: 1 },
    });
    expect(planRestore([onAgents], target())[0]?.reason).toBe('No endpoint agent LAPTOP-7 in EMEA');
    const into = target({ endpointAgents: new Map([['LAPTOP-7', 'e-1']]) });
    expect(planRestore([onAgents], into)[0]?.resolved).toEqual([
      { kind: 'endpoint agent', name: 'LAPTOP-7', from: 'LAPTOP-7', to: 'e-1' },
    ]);
    const moved = item('endpoint-dynamic-test', 'Webex', {
      ...onAgents.config,
      agentSelectorConfig: { agentSelectorType: 'all-agents', maxMachines: 1 },
    });
    expect(planRestore([onAgents], { ...into, items: [moved] })[0]?.reason).toBe(
      'The platform does not change which agents run an endpoint test: delete it there, then restore it',
    );
  });

  it('deletes what points at tests and labels before them', () => {
    const removals = [
      item('test', 'http-server: Portal', {}, { server: { testId: '281' } }),
      item('endpoint-label', 'Macs', {}, { server: { id: 'l-1' } }),
      item('endpoint-scheduled-test', 'Portal from laptops', {}, { server: { testId: 'e-9' } }),
      item('tag', 'test: Owner: NOC', {}, { server: { id: 't-1' } }),
    ];
    expect(planRestore([], target(), removals).map((step) => [step.kind, step.status, step.phase])).toEqual([
      ['endpoint-scheduled-test', 'delete', 2],
      ['tag', 'delete', 2],
      ['test', 'delete', 3],
      ['endpoint-label', 'delete', 3],
    ]);
  });
});
