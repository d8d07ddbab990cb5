import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BulkRun, CreateBulkRunInput, TestTemplate } from '@ce/contract';
import {
  createTestApp,
  DATABASES,
  untilFinished,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

type Group = { aid: string; accountGroupName: string; organizationId: string; organizationName: string };

describe.each(DATABASES)('bulk operations (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let token: string;
  let groups: Group[];

  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const template = (overrides: Partial<TestTemplate>): TestTemplate => ({
    testName: 'Bulk HTTP',
    testType: 'http-server',
    interval: 300,
    url: 'https://shop.example.com',
    domain: '',
    port: 80,
    dnsServers: '',
    prefix: '',
    agentNames: [],
    alertsEnabled: true,
    description: '',
    ...overrides,
  });
  const start = async (payload: CreateBulkRunInput) => {
    const response = await tam.request({ method: 'POST', url: '/api/bulk/runs', payload });
    expect(response.statusCode, response.body).toBe(202);
    return response.json<BulkRun>();
  };
  const finished = (id: string) =>
    untilFinished(() =>
      tam.request({ method: 'GET', url: `/api/bulk/runs/${id}` }).then((response) => response.json<BulkRun>()),
    );
  const organization = () => ({ id: groups[0]?.organizationId ?? '', name: groups[0]?.organizationName ?? '' });
  const three = () => groups.slice(0, 3).map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    token = world().tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const response = await tam.request({ method: 'POST', url: '/api/account-groups', payload: { token } });
    groups = response.json().accountGroups;
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a revoked token with one code, which each screen turns into its own words', async () => {
    const revoked = world().tokens.find((candidate) => candidate.kind === 'revoked')?.token;
    for (const url of ['/api/account-groups', '/api/bulk/roles']) {
      const refused = await tam.request({ method: 'POST', url, payload: { token: revoked } });
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json().error.code, url).toBe('invalid_platform_token');
    }
  });

  it('loads the agents of every chosen group, cloud agents in each and enterprise agents where they live', async () => {
    const response = await tam.request({
      method: 'POST',
      url: '/api/bulk/agents',
      payload: { token, accountGroups: three() },
    });
    expect(response.statusCode).toBe(200);
    const perGroup = response.json().groups as { aid: string; agents: { agentName: string; agentType: string }[] }[];
    expect(perGroup.map((group) => group.aid)).toEqual(three().map((group) => group.aid));
    const cloud = (index: number) =>
      perGroup[index]?.agents.filter((agent) => agent.agentType === 'cloud').map((agent) => agent.agentName);
    expect(cloud(0)?.length).toBeGreaterThan(0);
    expect(cloud(1)).toEqual(cloud(0));
    const enterprise = perGroup[0]?.agents.find((agent) => agent.agentType === 'enterprise')?.agentName;
    expect(perGroup[1]?.agents.some((agent) => agent.agentName === enterprise)).toBe(false);
  });

  it('plans, creates 2 templates x 3 groups, skips them on a second run, and undoes exactly them', async () => {
    const cloud = world().agents.filter((agent) => agent.agentType === 'cloud');
    const enterpriseOfFirst = world().agents.find(
      (agent) => agent.agentType === 'enterprise' && agent.aids.includes(groups[0]?.aid ?? ''),
    );
    const templates = [
      template({ testName: 'Shop front', agentNames: [cloud[0]?.agentName ?? '', enterpriseOfFirst?.agentName ?? ''] }),
      template({
        testName: 'Shop port',
        testType: 'agent-to-server',
        domain: 'shop.example.com',
        port: 8443,
        interval: 600,
        agentNames: [cloud[1]?.agentName ?? ''],
        alertsEnabled: false,
        description: 'Checks the shop port',
      }),
    ];
    const plan = await tam.request({
      method: 'POST',
      url: '/api/bulk/tests/plan',
      payload: { token, accountGroups: three(), templates },
    });
    expect(plan.statusCode).toBe(200);
    const cells = plan.json().cells as {
      action: string;
      missingAgents: string[];
      aid: string;
      templateIndex: number;
    }[];
    expect(cells).toHaveLength(6);
    expect(cells.every((cell) => cell.action === 'create')).toBe(true);
    // The enterprise agent of the first group is missing elsewhere; the cloud agent is everywhere.
    expect(cells.filter((cell) => cell.missingAgents.length > 0).map((cell) => cell.aid)).toEqual(
      three()
        .slice(1)
        .map((group) => group.aid),
    );

    const before = world().tests.length;
    const startedAt = Date.now();
    const run = await start({ kind: 'tests', token, organization: organization(), accountGroups: three(), templates });
    expect(run.status).toBe('queued');
    const done = await finished(run.id);
    const wall = Date.now() - startedAt;
    expect(done.status).toBe('done');
    expect(done.totals).toEqual({ total: 6, pending: 0, done: 6, skipped: 0, failed: 0 });
    // The run's own time: some, and no more than the test waited for it.
    expect(done.executionTimeMs).toBeGreaterThan(0);
    expect(done.executionTimeMs).toBeLessThanOrEqual(wall);
    expect(world().tests.length).toBe(before + 6);
    const port = world().tests.find(
      (test) => test.testId === done.items.find((item) => item.templateIndex === 1)?.resultId,
    );
    expect(port).toMatchObject({
      type: 'agent-to-server',
      testName: 'Shop port',
      interval: 600,
      alertsEnabled: false,
      description: 'Checks the shop port',
      config: { server: 'shop.example.com', port: 8443 },
      agentIds: [cloud[1]?.agentId],
    });

    // The same session again creates nothing twice.
    const again = await finished(
      (await start({ kind: 'tests', token, organization: organization(), accountGroups: three(), templates })).id,
    );
    expect(again.totals).toMatchObject({ total: 6, done: 0, skipped: 6, failed: 0 });
    expect(world().tests.length).toBe(before + 6);
    const undoSkipped = await tam.request({
      method: 'POST',
      url: `/api/bulk/runs/${again.id}/undo`,
      payload: { token },
    });
    expect(undoSkipped.statusCode).toBe(400);

    // Another test the user made by hand in the meantime survives the undo.
    const created = new Set(done.items.map((item) => item.resultId));
    const undo = await tam.request({ method: 'POST', url: `/api/bulk/runs/${run.id}/undo`, payload: { token } });
    expect(undo.statusCode).toBe(202);
    const undone = await finished(undo.json().id);
    expect(undone).toMatchObject({ kind: 'undo-tests', status: 'done', undoOf: run.id });
    expect(undone.totals).toMatchObject({ total: 6, done: 6, failed: 0 });
    expect(world().tests.length).toBe(before);
    expect(world().tests.some((test) => created.has(test.testId))).toBe(false);
    const twice = await tam.request({ method: 'POST', url: `/api/bulk/runs/${run.id}/undo`, payload: { token } });
    expect(twice.statusCode).toBe(409);

    const list = await tam.request({ method: 'GET', url: '/api/bulk/runs?view=tests' });
    expect(list.json().runs.find((entry: { id: string }) => entry.id === run.id)).toMatchObject({
      undoneBy: undone.id,
    });
  });

  it('undoes a test the run made that was recorded as failed: the platform is asked what the item made', async () => {
    const cloud = world().agents.find((agent) => agent.agentType === 'cloud');
    const templates = [template({ testName: 'Recorded wrongly', agentNames: [cloud?.agentName ?? ''] })];
    const run = await finished(
      (await start({ kind: 'tests', token, organization: organization(), accountGroups: three(), templates })).id,
    );
    expect(run.totals).toMatchObject({ total: 3, done: 3 });
    const made = new Set(run.items.map((item) => item.resultId));
    // One item's outcome recorded wrongly: failed, without the id of the test it made.
    const wrong = run.items[1];
    await testApp.database.sql.executeSql(
      `update change_set_items set status = 'failed', result_id = null, error = 'lost' where id = $1`,
      [wrong?.id],
    );
    const undo = await tam.request({ method: 'POST', url: `/api/bulk/runs/${run.id}/undo`, payload: { token } });
    expect(undo.statusCode, undo.body).toBe(202);
    const undone = await finished(undo.json().id);
    expect(undone.totals).toMatchObject({ total: 3, done: 3, failed: 0 });
    expect(world().tests.some((test) => made.has(test.testId))).toBe(false);
  });

  it('reports per item what failed, keeps going, and creates a taken name with a suffix when asked', async () => {
    const enterpriseOfFirst = world().agents.find(
      (agent) => agent.agentType === 'enterprise' && agent.aids.includes(groups[0]?.aid ?? ''),
    );
    const existing = world().tests.find((test) => test.aid === groups[1]?.aid);
    const run = await finished(
      (
        await start({
          kind: 'tests',
          token,
          organization: organization(),
          accountGroups: three(),
          onConflict: 'rename',
          templates: [
            template({ testName: 'Only in the first group', agentNames: [enterpriseOfFirst?.agentName ?? ''] }),
            template({
              testName: existing?.testName ?? '',
              testType: 'dns-trace',
              domain: 'example.com',
              agentNames: ['Tokyo, Japan', world().agents[0]?.agentName ?? ''],
            }),
          ],
        })
      ).id,
    );
    expect(run.status).toBe('done');
    const first = run.items.filter((item) => item.templateIndex === 0);
    expect(first.map((item) => item.status)).toEqual(['done', 'failed', 'failed']);
    expect(first[1]?.error).toBe('None of the chosen agents is in this account group');
    // The name is taken in the second group: the test is created beside the customer's, under a new name.
    const clash = run.items.find((item) => item.templateIndex === 1 && item.aid === groups[1]?.aid);
    expect(clash).toMatchObject({
      status: 'done',
      subject: `${existing?.testName} (2)`,
      note: `Renamed: "${existing?.testName}" is taken`,
    });
    expect(world().tests.filter((test) => test.aid === groups[1]?.aid && test.testName === existing?.testName)).toEqual(
      [existing],
    );
  });

  it('never loses an operation to the rate limit', async () => {
    const platform = testApp.sandbox?.platform;
    const normal = { ...platform?.scenario };
    const windowsBefore = platform?.history.length ?? 0;
    platform?.setScenario({ ...platform.scenario, rateLimitPerMinute: 4, windowMs: 2_000 });
    try {
      const run = await finished(
        (
          await start({
            kind: 'tests',
            token,
            organization: organization(),
            accountGroups: three(),
            templates: [template({ testName: 'Paced', agentNames: [world().agents[0]?.agentName ?? ''] })],
          })
        ).id,
      );
      expect(run.totals).toMatchObject({ done: 3, failed: 0 });
      // The limit did bind: the run's calls spread over several windows, none over the limit.
      const windows = platform?.history.slice(windowsBefore) ?? [];
      expect(windows.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...windows.map((window) => window.count))).toBeLessThanOrEqual(4);
    } finally {
      if (platform) platform.setScenario({ ...platform.scenario, ...normal });
    }
  });

  it('finds duplicate agents and deletes the chosen ones after the typed confirmation', async () => {
    const scan = await tam.request({
      method: 'POST',
      url: '/api/bulk/agents/duplicates',
      payload: { token, accountGroups: three() },
    });
    expect(scan.statusCode).toBe(200);
    const duplicates = scan.json().groups as {
      reason: string;
      agents: {
        agentId: string;
        agentName: string;
        accountGroupId: string;
        accountGroupName: string;
        lastActivity: string;
      }[];
    }[];
    expect(duplicates).toHaveLength(3);
    expect(duplicates[0]?.reason).toMatch(/^2 agents share IP address .+ in .+/);
    // The stale one of each pair goes.
    const stale = duplicates.map(
      (group) => [...group.agents].sort((a, b) => a.lastActivity.localeCompare(b.lastActivity))[0],
    );
    const agents = stale.map((agent) => ({
      agentId: agent?.agentId ?? '',
      agentName: agent?.agentName ?? '',
      aid: agent?.accountGroupId ?? '',
      accountGroupName: agent?.accountGroupName ?? '',
    }));
    const unconfirmed = await tam.request({
      method: 'POST',
      url: '/api/bulk/runs',
      payload: { kind: 'agents', token, organization: organization(), agents, confirmation: 'yes' },
    });
    expect(unconfirmed.statusCode).toBe(400);
    const used = new Set(world().tests.flatMap((test) => test.agentIds));
    const run = await finished(
      (await start({ kind: 'agents', token, organization: organization(), agents, confirmation: 'DELETE' })).id,
    );
    expect(run.items.map((item) => item.resultId).sort()).toEqual(agents.map((agent) => agent.agentId).sort());
    for (const item of run.items) {
      const inUse = used.has(item.resultId ?? '');
      expect(item.status).toBe(inUse ? 'failed' : 'done');
      if (inUse) expect(item.error).toBe('Agent is currently in use by active tests');
      expect(world().agents.some((agent) => agent.agentId === item.resultId)).toBe(inUse);
    }
  });

  it('labels chosen tests across groups, and invites users with a role', async () => {
    const lists = (
      await tam.request({
        method: 'POST',
        url: '/api/bulk/tests',
        payload: { token, accountGroups: three().slice(0, 2) },
      })
    ).json().groups as { aid: string; accountGroupName: string; tests: { testId: string }[] }[];
    const targets = lists.map((group) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      testIds: group.tests.slice(0, 2).map((test) => test.testId),
    }));
    const labels = await finished(
      (
        await start({
          kind: 'labels',
          token,
          organization: organization(),
          tag: { key: 'team', value: 'payments', color: '#aa3355' },
          targets,
        })
      ).id,
    );
    expect(targets.every((target) => target.testIds.length === 2)).toBe(true);
    expect(labels.totals).toMatchObject({ done: 2, failed: 0 });
    for (const target of targets) {
      const tag = world().tags.find(
        (candidate) => candidate.aid === target.aid && candidate.key === 'team' && candidate.value === 'payments',
      );
      expect(tag?.assignments.map((assignment) => assignment.id).sort()).toEqual([...target.testIds].sort());
    }

    const roles = (await tam.request({ method: 'POST', url: '/api/bulk/roles', payload: { token } })).json().roles;
    const readOnly = roles.find((role: { name: string }) => role.name === 'Read Only User');
    const member = world().users.find((user) => user.orgId === groups[0]?.organizationId);
    const users = await finished(
      (
        await start({
          kind: 'users',
          token,
          organization: organization(),
          accountGroups: three().slice(0, 2),
          roleId: readOnly.roleId,
          invitees: [
            { email: 'New.Person@customer.example', name: 'New Person' },
            { email: 'second@customer.example', name: '' },
            { email: member?.email ?? '', name: '' },
          ],
        })
      ).id,
    );
    expect(users.items.map((item) => [item.subject, item.status])).toEqual([
      ['new.person@customer.example', 'done'],
      ['second@customer.example', 'done'],
      [member?.email, 'skipped'],
    ]);
    const invited = world().users.find((user) => user.email === 'new.person@customer.example');
    expect(invited?.roleIdsByAid).toEqual({
      [groups[0]?.aid ?? '']: [readOnly.roleId],
      [groups[1]?.aid ?? '']: [readOnly.roleId],
    });
  });

  it('keeps no token once runs finish, and lets only tool roles run them', async () => {
    // A run's token is erased in the step after its last status is written: waited for, not raced.
    await vi.waitFor(async () => {
      const rows = await testApp.database.sql.executeSql('select token_id from change_sets', []);
      expect(rows.rows.length).toBeGreaterThan(0);
      expect(rows.rows.every((row) => (row as { token_id: string | null }).token_id === null)).toBe(true);
      const sealed = await testApp.database.sql.executeSql('select count(*)::int as n from sealed_tokens', []);
      expect(sealed.rows).toEqual([{ n: 0 }]);
    });
    const support = await signedInClient(testApp.app, 'support@demo.local');
    const refused = await support.request({ method: 'POST', url: '/api/bulk/roles', payload: { token } });
    expect(refused.statusCode).toBe(403);
  });
});
