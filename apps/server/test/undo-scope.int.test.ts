import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  restoreItemRef,
  type BulkRun,
  type Drift,
  type MigrationRun,
  type RestoreRun,
  type TestTemplate,
} from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

/**
 * Every undo (a bulk run's, a restore's, a migration's) checks, before anything is queued, that the customer's
 * token reads the organization the run wrote into: a token of another organization is refused in words that
 * name the organization, and the run stays undoable with the right token.
 */
describe('an undo reads the organization its run wrote into', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let acme: SandboxCustomer;
  let globexToken: string;

  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const group = (name: string) => {
    const found = world().accountGroups.find((candidate) => candidate.accountGroupName === name);
    if (!found) throw new Error(`the demo world has ${name}`);
    return found;
  };
  const post = (url: string, payload: Record<string, unknown>) => tam.request({ method: 'POST', url, payload });
  const read = <T extends { status: string }>(url: string) =>
    untilFinished(() => tam.request({ method: 'GET', url }).then((answer) => answer.json<T>()));
  const refusedFor = (noun: string) =>
    `This token does not read ${acme.organization.name}, the organization this ${noun} wrote into: paste a token of ${acme.organization.name} to undo it.`;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    // Raised before the first call: a window the product has already counted keeps its count until it ends.
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    acme = await sandboxCustomer(testApp, tam);
    const globex = world().organizations.find((organization) => organization.orgId !== acme.organization.id);
    globexToken =
      world().tokens.find((token) => token.kind === 'org-admin' && token.orgId === globex?.orgId)?.token ?? '';
    if (!globexToken) throw new Error('the demo world has a second organization');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("refuses a restore's undo with another organization's token, before it starts, and undoes it with the right one", async () => {
    const staging = group('Acme - Staging');
    const backedUp = await post('/api/backups', {
      token: acme.token,
      organization: acme.organization,
      accountGroups: [{ aid: staging.aid }],
    });
    expect(backedUp.statusCode, backedUp.body).toBe(202);
    const backup = await read<{ id: string; status: string }>(
      `/api/backups/${backedUp.json<{ backups: { id: string }[] }>().backups[0]?.id}`,
    );
    const test = world().tests.find((candidate) => candidate.aid === staging.aid && candidate.type === 'http-server');
    if (!test) throw new Error('the group has an HTTP test');
    const interval = test.interval;
    test.interval = interval === 300 ? 600 : 300;
    const drift = await post(`/api/backups/${backup.id}/drift`, { token: acme.token });
    const changes = drift.json<Drift>().changes;
    expect(changes.map((change) => [change.kind, change.name])).toEqual([['test', test.testName]]);
    const restoring = await post(`/api/backups/${backup.id}/restore`, {
      token: acme.token,
      items: changes.map(restoreItemRef),
    });
    expect(restoring.statusCode, restoring.body).toBe(202);
    const restore = await read<RestoreRun>(`/api/restores/${restoring.json<RestoreRun>().id}`);
    expect(restore).toMatchObject({ status: 'done', totals: { done: 1 } });
    expect(test.interval).toBe(interval);

    const wrong = await post(`/api/restores/${restore.id}/undo`, { token: globexToken });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().error.message).toBe(refusedFor('restore'));
    const after = await tam.request({ method: 'GET', url: `/api/restores/${restore.id}` });
    expect(after.json<RestoreRun>().undoneBy).toBeNull();

    const right = await post(`/api/restores/${restore.id}/undo`, { token: acme.token });
    expect(right.statusCode, right.body).toBe(202);
    const undone = await read<RestoreRun>(`/api/restores/${right.json<RestoreRun>().id}`);
    expect(undone).toMatchObject({ status: 'done', totals: { done: 1, failed: 0 } });
    expect(test.interval).not.toBe(interval);
  });

  it("refuses a bulk run's undo with another organization's token, before it starts, and undoes it with the right one", async () => {
    const cloud = world().agents.find((agent) => agent.agentType === 'cloud');
    const template: TestTemplate = {
      testName: 'Undo scope check',
      testType: 'http-server',
      interval: 300,
      url: 'https://shop.example.com',
      domain: '',
      port: 80,
      dnsServers: '',
      prefix: '',
      agentNames: [cloud?.agentName ?? ''],
      alertsEnabled: true,
      description: '',
    };
    const [first] = acme.groups;
    const started = await post('/api/bulk/runs', {
      kind: 'tests',
      token: acme.token,
      organization: acme.organization,
      accountGroups: [first],
      templates: [template],
    });
    expect(started.statusCode, started.body).toBe(202);
    const run = await read<BulkRun>(`/api/bulk/runs/${started.json<BulkRun>().id}`);
    expect(run).toMatchObject({ status: 'done', totals: { done: 1 } });
    const made = () => world().tests.filter((test) => test.testName === 'Undo scope check').length;
    expect(made()).toBe(1);

    const wrong = await post(`/api/bulk/runs/${run.id}/undo`, { token: globexToken });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().error.message).toBe(refusedFor('run'));
    expect((await tam.request({ method: 'GET', url: `/api/bulk/runs/${run.id}` })).json<BulkRun>().undoneBy).toBeNull();

    const right = await post(`/api/bulk/runs/${run.id}/undo`, { token: acme.token });
    expect(right.statusCode, right.body).toBe(202);
    expect(await read<BulkRun>(`/api/bulk/runs/${right.json<BulkRun>().id}`)).toMatchObject({
      status: 'done',
      totals: { done: 1, failed: 0 },
    });
    expect(made()).toBe(0);
  });

  it("refuses a migration's undo with another organization's token in the same words", async () => {
    const source = group('Acme - Data Centers');
    const rule = world().alertRules.find(
      (candidate) => candidate.aid === source.aid && candidate.ruleName === 'Migration: portal latency',
    );
    const started = await post('/api/alerts-migration/runs', {
      token: acme.token,
      organization: acme.organization,
      aid: source.aid,
      ruleIds: [rule?.ruleId],
      targets: [{ aid: group('Acme - SaaS Apps').aid }],
      options: { mode: 'copy', onConflict: 'ask', whenNoTestsLeft: 'keep', keepDefault: false, includeWindows: false },
    });
    expect(started.statusCode, started.body).toBe(202);
    const run = await read<MigrationRun>(`/api/alerts-migration/runs/${started.json<MigrationRun>().id}`);
    expect(run.status).toBe('done');
    const wrong = await post(`/api/alerts-migration/runs/${run.id}/undo`, { token: globexToken });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().error.message).toBe(refusedFor('migration'));
    const right = await post(`/api/alerts-migration/runs/${run.id}/undo`, { token: acme.token });
    expect(right.statusCode, right.body).toBe(202);
  });
});
