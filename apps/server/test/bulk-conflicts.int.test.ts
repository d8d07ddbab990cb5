import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkRun } from '@ce/contract';
import {
  bgpTemplate,
  createTestApp,
  DATABASES,
  sandboxCustomer,
  startBulkTests,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// No workers: the test plays the worker, and the crash, exactly where it says.
describe.each(DATABASES)("a customer's own tests and a run that crashed (%s)", (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;

  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const read = async (id: string) =>
    (await tam.request({ method: 'GET', url: `/api/bulk/runs/${id}` })).json<BulkRun>();

  beforeAll(async () => {
    testApp = await createTestApp(kind, { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('shows a taken name as a conflict in the plan, never adopts a test it cannot prove it made, and undoes only its own', async () => {
    const group = customer.groups[0];
    if (!group) throw new Error('the customer has account groups');
    const theirs = world().tests.find((test) => test.aid === group.aid);
    if (!theirs) throw new Error('the group has tests');
    const templates = [bgpTemplate(theirs.testName), bgpTemplate('Fresh from the run')];

    const plan = await tam.request({
      method: 'POST',
      url: '/api/bulk/tests/plan',
      payload: { token: customer.token, accountGroups: [group], templates },
    });
    expect(plan.statusCode).toBe(200);
    expect(plan.json().cells).toMatchObject([
      {
        testName: theirs.testName,
        action: 'exists',
        existingTestId: theirs.testId,
        reason: 'A test with this name exists in this account group',
      },
      { testName: 'Fresh from the run', action: 'create', existingTestId: null },
    ]);

    const started = await startBulkTests(tam, customer, [group], templates, { onConflict: 'rename' });
    expect(started.statusCode, started.body).toBe(202);
    const runId = started.json<{ id: string }>().id;
    await testApp.jobs.changeSets.run(runId);
    const first = await read(runId);
    expect(first.items.map((item) => [item.subject, item.status])).toEqual([
      [`${theirs.testName} (2)`, 'done'],
      ['Fresh from the run', 'done'],
    ]);
    const renamedId = first.items[0]?.resultId;
    const freshId = first.items[1]?.resultId;

    // The crash: the worker sent both creations and died before recording either. Meanwhile the
    // customer deleted the run's "Fresh from the run" and made their own test of that name, earlier.
    await sql(
      `update change_set_items set status = 'running', result_id = null, started_at = now() where run_id = $1`,
      [runId],
    );
    await sql(
      `update change_sets set status = 'running', finished_at = null, lease_until = now() - interval '1 minute'
       where id = $1`,
      [runId],
    );
    const tokenId = await testApp.tokens.seal(customer.token);
    await sql('update change_sets set token_id = $2 where id = $1', [runId, tokenId]);
    const fresh = world().tests.find((test) => test.testId === freshId);
    if (!fresh) throw new Error('the run created the test');
    world().tests.splice(world().tests.indexOf(fresh), 1);
    const customersFresh = {
      ...fresh,
      testId: '987654',
      createdDate: new Date(Date.now() - 60 * 60_000).toISOString(),
    };
    world().tests.push(customersFresh);

    expect(await testApp.jobs.changeSets.recoverOrphans(false)).toEqual({ requeued: 1, failed: 0 });
    await testApp.jobs.changeSets.run(runId);
    const resumed = await read(runId);
    // Its own creation is found again; the customer's test of the same name is not taken for the run's.
    expect(resumed.items[0]).toMatchObject({ status: 'done', resultId: renamedId, note: 'Confirmed after a restart' });
    expect(resumed.items[1]).toMatchObject({
      status: 'failed',
      resultId: null,
      error: 'Test name must be unique within the account group',
    });
    expect(world().tests.filter((test) => test.testName === `${theirs.testName} (2)`)).toHaveLength(1);

    const undo = await tam.request({
      method: 'POST',
      url: `/api/bulk/runs/${runId}/undo`,
      payload: { token: customer.token },
    });
    expect(undo.statusCode, undo.body).toBe(202);
    await testApp.jobs.changeSets.run(undo.json<{ id: string }>().id);
    expect((await read(undo.json<{ id: string }>().id)).totals).toMatchObject({ total: 1, done: 1 });
    // Only what the run made is gone; both of the customer's tests are where they were.
    const ids = new Set(world().tests.map((test) => test.testId));
    expect(ids.has(renamedId ?? '')).toBe(false);
    expect(ids.has(theirs.testId)).toBe(true);
    expect(ids.has(customersFresh.testId)).toBe(true);
  });

  it('makes one label of a key and value in a group, however many runs label with it at once', async () => {
    const lists = (
      await tam.request({
        method: 'POST',
        url: '/api/bulk/tests',
        payload: { token: customer.token, accountGroups: customer.groups.slice(0, 2) },
      })
    ).json().groups as { aid: string; accountGroupName: string; tests: { testId: string }[] }[];
    // Each run labels one of two tests in each group, with the same new key and value.
    const halves = [0, 1].map((half) =>
      lists.map((group) => ({
        aid: group.aid,
        accountGroupName: group.accountGroupName,
        testIds: group.tests.slice(half, half + 1).map((test) => test.testId),
      })),
    );
    const runs = await Promise.all(
      halves.map(async (targets) => {
        const started = await tam.request({
          method: 'POST',
          url: '/api/bulk/runs',
          payload: {
            kind: 'labels',
            token: customer.token,
            organization: customer.organization,
            tag: { key: 'team', value: 'checkout', color: '#3355aa' },
            targets,
          },
        });
        expect(started.statusCode, started.body).toBe(202);
        return started.json<{ id: string }>().id;
      }),
    );
    // Two workers carry them out at the same moment.
    await Promise.all(runs.map((id) => testApp.jobs.changeSets.run(id)));
    for (const id of runs) expect((await read(id)).totals).toMatchObject({ done: 2, failed: 0 });
    for (const group of lists) {
      const made = world().tags.filter(
        (tag) => tag.aid === group.aid && tag.key === 'team' && tag.value === 'checkout',
      );
      expect(made).toHaveLength(1);
      expect(made[0]?.assignments.map((assignment) => assignment.id).sort()).toEqual(
        group.tests
          .slice(0, 2)
          .map((test) => test.testId)
          .sort(),
      );
    }
  });
});
