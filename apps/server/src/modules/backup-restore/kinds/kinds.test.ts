import { describe, expect, it } from 'vitest';
import { PlatformClient } from '@ce/platform-client';
import { itemFailure } from '../../../core/change-sets/handlers.js';
import { readArchive } from '../archive-reader.js';
import { writeArchive, type BackupItem } from '../archive.js';
import { drift } from '../drift.js';
import { readGroup } from '../read.js';
import { restoreItems } from '../restore-items.js';
import { planRestore } from '../restore-plan.js';
import { BACKUP_KIND_LIST, BACKUP_KINDS, restoreOf } from './index.js';

/** One account group holding one item of every kind the platform serves, answered by path. */
const PLATFORM: Record<string, unknown> = {
  '/v7/agents': { agents: [{ agentId: '9001', agentName: 'Branch EA', agentType: 'enterprise' }] },
  '/v7/tests': { tests: [{ testId: '281', testName: 'Portal', type: 'http-server' }] },
  '/v7/tests/http-server/281': {
    testId: '281',
    testName: 'Portal',
    type: 'http-server',
    url: 'https://portal.example.com',
    agents: [{ agentId: '9001', agentName: 'Branch EA', agentType: 'enterprise' }],
  },
  '/v7/alerts/rules': { alertRules: [{ ruleId: '7', ruleName: 'Latency' }] },
  '/v7/alerts/rules/7': { ruleId: '7', ruleName: 'Latency', expression: '((responseTime > 500))', testIds: ['281'] },
  '/v7/alert-suppression-windows': { alertSuppressionWindows: [{ alertSuppressionWindowId: 'w1', name: 'Night' }] },
  '/v7/alert-suppression-windows/w1': { alertSuppressionWindowId: 'w1', name: 'Night', tests: [{ testId: '281' }] },
  '/v7/dashboards': [{ dashboardId: 'd1', title: 'Overview' }],
  '/v7/dashboards/d1': {
    dashboardId: 'd1',
    title: 'Overview',
    widgets: [{ id: 'x1', type: 'Line Chart', filters: { TEST: ['281'], AGENT: ['9001'] } }],
  },
  '/v7/tags': {
    tags: [{ id: 't1', key: 'team', value: 'web', objectType: 'test', assignments: [{ id: '281', type: 'test' }] }],
  },
  '/v7/endpoint/labels': { labels: [{ id: 'l1', name: 'Laptops' }] },
  '/v7/endpoint/tests/scheduled-tests': {
    tests: [
      {
        testId: 'e1',
        testName: 'Intranet',
        type: 'http-server',
        agentSelectorConfig: { agentSelectorType: 'agent-labels', endpointAgentLabels: ['l1'] },
      },
    ],
  },
  '/v7/endpoint/tests/dynamic-tests/agent-to-server': {
    tests: [{ testId: 'e2', testName: 'Webex', type: 'agent-to-server', application: 'webex' }],
  },
  '/v7/endpoint/agents': { agents: [] },
};

const session = new PlatformClient({
  baseUrl: 'https://api.example/v7',
  retryBudgetMs: 0,
  fetch: async (input) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    return PLATFORM[path] === undefined ? new Response('{}', { status: 404 }) : Response.json(PLATFORM[path]);
  },
}).as({ token: 'a-token-of-forty-characters-for-the-test' });

const readAll = async () => {
  const items: BackupItem[] = [];
  await readGroup(session, '1001', (item) => items.push(item));
  return items;
};
const source = {
  organization: { id: '9000', name: 'Acme Corporation' },
  accountGroup: { aid: '1001', accountGroupName: 'Acme - Production' },
  createdAt: '2026-11-25T10:00:00.000Z',
  createdBy: 'tam@demo.local',
};

describe('the backup kinds', () => {
  it('are each described once: a kind, and a folder of its own that the archive reader accepts', () => {
    expect(new Set(BACKUP_KINDS).size).toBe(BACKUP_KIND_LIST.length);
    const folders = BACKUP_KIND_LIST.map((descriptor) => descriptor.folder.toLowerCase());
    expect(new Set(folders).size).toBe(folders.length);
    for (const { folder } of BACKUP_KIND_LIST) expect(folder).toMatch(/^[a-z-]+$/);
  });

  it('are every one read from the platform, then archived, read back and compared', async () => {
    const items = await readAll();
    expect([...new Set(items.map((item) => item.kind))].sort()).toEqual([...BACKUP_KINDS].sort());
    // References by name in the configuration, by id apart.
    expect(items.find((item) => item.kind === 'alert-rule')?.config.tests).toEqual(['http-server: Portal']);
    expect(items.find((item) => item.kind === 'endpoint-scheduled-test')?.config.agentSelectorConfig).toEqual({
      agentSelectorType: 'agent-labels',
      endpointAgentLabels: ['Laptops'],
    });

    const { bytes, manifest } = writeArchive(source, items);
    for (const { kind, folder } of BACKUP_KIND_LIST) {
      expect(manifest.counts[kind], kind).toBe(1);
      const paths = manifest.entries.filter((entry) => entry.kind === kind).map((entry) => entry.path);
      expect(paths.map((path) => path.split('/').slice(0, 2).join('/')).sort()).toEqual([
        `config/${folder}`,
        `server/${folder}`,
      ]);
    }
    const read = await readArchive(bytes);
    expect(read.items).toEqual(items);

    const changed = read.items.map((item) => ({ ...item, config: { ...item.config, description: 'changed' } }));
    const { counts, changes } = drift(items, changed);
    expect(Object.keys(counts)).toEqual([...BACKUP_KINDS]);
    expect(changes.map((change) => change.kind)).toEqual([...BACKUP_KINDS]);
    for (const kind of BACKUP_KINDS) expect(counts[kind], kind).toMatchObject({ changed: 1, unchanged: 0 });
  });

  it('are every one planned into a group that lacks them, and written back by the kinds that restore', async () => {
    const items = await readAll();
    const target = {
      accountGroupName: 'EMEA',
      items: [],
      agents: new Map([['Branch EA', '7777']]),
      endpointAgents: new Map<string, string>(),
    };
    const steps = planRestore(items, target);
    for (const { kind, restore } of BACKUP_KIND_LIST) {
      const step = steps.find((candidate) => candidate.kind === kind);
      expect(step?.status, kind).toBe(restore ? 'create' : 'cannot');
      if (restore) expect(step?.phase, kind).toBe(restore.phase);
    }
    const written = restoreItems(steps, { ...target, aid: '2002', side: 'source' });
    expect(written.map((item) => [item.details?.kind, item.action])).toEqual(
      steps.map((step) => [step.kind, step.status === 'create' ? 'restore-create' : 'restore-keep']),
    );
    // Agents by the target's ids; tests and labels named by key, resolved when sent.
    const payload = (kind: string) => written.find((item) => item.details?.kind === kind)?.payload;
    expect(payload('test')).toMatchObject({ body: { agents: [{ agentId: '7777' }] } });
    expect(payload('alert-rule')).toMatchObject({ tests: { field: 'testIds', keys: ['http-server: Portal'] } });
    expect(payload('endpoint-scheduled-test')).toMatchObject({ variant: 'http-server', labels: { keys: ['Laptops'] } });
  });

  it('refuse a body the platform requires more of, naming each field missing, before any call', async () => {
    const calls: string[] = [];
    const counting = new PlatformClient({
      baseUrl: 'https://api.example/v7',
      retryBudgetMs: 0,
      fetch: async (input) => {
        calls.push(String(input instanceof Request ? input.url : input));
        return Response.json({}, { status: 201 });
      },
    }).as({ token: 'a-token-of-forty-characters-for-the-test' });
    // A backup edited by hand: the rule has lost its condition and its rounds.
    const body = { ruleName: 'Latency', alertType: 'http-server', testIds: [] };
    const refusal = await restoreOf('alert-rule')
      .platform.create(counting, { key: 'Latency' }, body, '2002')
      .catch((error: unknown) => error);
    expect(itemFailure(refusal, { failure: 'Failed to restore the item' })).toBe(
      'expression: Invalid input: expected string, received undefined; ' +
        'roundsViolatingOutOf: Invalid input: expected number, received undefined',
    );
    expect(calls).toEqual([]);
  });
});
