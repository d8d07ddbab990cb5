import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerTimeline, TimelineEntry } from '@ce/contract';
import {
  bgpTemplate,
  createTestApp,
  sandboxCustomer,
  signedInClient,
  startBulkTests,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// No workers: the test plays the worker, so each run ends when the test says.
describe("a customer's page says how each piece of work went: done, done with failures, failed, undone", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const entryOf = async (id: string): Promise<TimelineEntry | undefined> => {
    const response = await tam.request({ method: 'GET', url: `/api/customers/${customer.organization.id}/timeline` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CustomerTimeline>().entries.find((entry) => entry.id === id);
  };
  /** A bulk tests run of `templates` in the first group, with `token`, carried out to its end. */
  const run = async (templates: unknown[], token = customer.token) => {
    const started = await startBulkTests(tam, { ...customer, token }, customer.groups.slice(0, 1), templates);
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json<{ id: string }>().id;
    expect(await entryOf(id)).toMatchObject({ status: 'queued', outcome: 'queued' });
    await testApp.jobs.changeSets.run(id);
    return id;
  };

  it('a bulk run with the read-only token (0 of 1 created) is failed, not done', async () => {
    const readOnly = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'read-only');
    if (!readOnly) throw new Error('the sandbox has a read-only token');
    const id = await run([bgpTemplate('Read-only BGP')], readOnly.token);
    const bulk = await tam.request({ method: 'GET', url: `/api/bulk/runs/${id}` });
    expect(bulk.json()).toMatchObject({ status: 'done', totals: { total: 1, done: 0, failed: 1 } });
    expect(bulk.json().items[0].error).toBe('The token does not have permission for this operation');
    expect(await entryOf(id)).toMatchObject({ what: 'Create tests', status: 'done', outcome: 'failed' });
  });

  it('a run where some failed is done with failures; one all done is done, and undone once its undo ran', async () => {
    const partly = await run([
      bgpTemplate('Outcome BGP'),
      // Its only agent is in no account group: it cannot be created.
      { testName: 'Outcome HTTP', testType: 'http-server', url: 'https://o.example.com', agentNames: ['Nobody'] },
    ]);
    expect(await entryOf(partly)).toMatchObject({ outcome: 'done-with-failures' });

    const done = await run([bgpTemplate('Outcome BGP 2')]);
    expect(await entryOf(done)).toMatchObject({ outcome: 'done' });
    const undo = await tam.request({
      method: 'POST',
      url: `/api/bulk/runs/${done}/undo`,
      payload: { token: customer.token },
    });
    expect(undo.statusCode, undo.body).toBe(202);
    const undoId = undo.json<{ id: string }>().id;
    await testApp.jobs.changeSets.run(undoId);
    expect(await entryOf(done)).toMatchObject({ status: 'done', outcome: 'undone' });
    expect(await entryOf(undoId)).toMatchObject({ outcome: 'done' });
  });

  it('a report made but not sent to Webex is done with failures; one that failed is failed', async () => {
    const request = async () => {
      const created = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'alerts-config',
          token: customer.token,
          organization: customer.organization,
          accountGroups: customer.groups.slice(0, 1),
        },
      });
      expect(created.statusCode, created.body).toBe(202);
      return created.json<{ id: string }>().id;
    };
    const undelivered = await request();
    await sql(
      "update report_requests set status = 'done', delivery_status = 'failed', finished_at = now() where id = $1",
      [undelivered],
    );
    const failed = await request();
    await sql("update report_requests set status = 'failed', finished_at = now() where id = $1", [failed]);
    expect(await entryOf(undelivered)).toMatchObject({ status: 'done', outcome: 'done-with-failures' });
    expect(await entryOf(failed)).toMatchObject({ outcome: 'failed' });
  });
});
