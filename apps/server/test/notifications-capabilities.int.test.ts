import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Capability, CreatedApiToken, NotificationsResponse, ReportRequest } from '@ce/contract';
import {
  bgpTemplate,
  createTestApp,
  requestReport,
  sandboxCustomer,
  signedInClient,
  startBulkTests,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// No workers: what ended badly and what is under way stay exactly as the test leaves them.
describe("notifications through a personal API token: only what the token's capabilities list", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let since = '';

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    since = (await poll()).now;
    const group = customer.groups[0];
    if (!group) throw new Error('the sandbox customer has account groups');

    // An AHC v7 made but not sent to Webex, an alerts report that failed, a backup that failed, and a bulk run queued.
    const report = async (kind: string) => {
      const created = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: { kind, token: customer.token, organization: customer.organization, accountGroups: [group] },
      });
      expect(created.statusCode, created.body).toBe(202);
      return created.json<{ id: string }>().id;
    };
    const ahc = await report('ahc-v7');
    await sql(
      "update report_requests set status = 'done', delivery_status = 'failed', delivery_error = 'Webex refused the message (429)', finished_at = now() where id = $1",
      [ahc],
    );
    const alerts = await report('alerts-config');
    await sql(
      "update report_requests set status = 'failed', error = 'The report stopped.', finished_at = now() where id = $1",
      [alerts],
    );
    const backup = await tam.request({
      method: 'POST',
      url: '/api/backups',
      payload: { token: customer.token, organization: customer.organization, accountGroups: [{ aid: group.aid }] },
    });
    expect(backup.statusCode, backup.body).toBe(202);
    await sql("update backups set status = 'failed', error = 'The backup stopped.', finished_at = now()");
    const run = await startBulkTests(tam, customer, [group], [bgpTemplate('Capabilities BGP')]);
    expect(run.statusCode, run.body).toBe(202);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  async function poll(): Promise<NotificationsResponse> {
    const response = await tam.request({ method: 'GET', url: '/api/notifications' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationsResponse>();
  }
  /** A script's poll with a token of its own carrying `capabilities`. */
  const pollWith = async (...capabilities: Capability[]) => {
    const made = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: `Only ${capabilities.join(' and ')}`, expiresInDays: 7, capabilities },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = made.json<CreatedApiToken>();
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/notifications?since=${encodeURIComponent(since)}`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<NotificationsResponse>();
    return { active: answer.active, titles: answer.notifications.map((notification) => notification.title).sort() };
  };

  it('a token carrying only Support hears of no report, run or backup, and counts no work under way', async () => {
    // Its lists refuse it too: the notifications say no more than they do.
    expect(await pollWith('support')).toEqual({ active: 0, titles: [] });
  });

  it('a token carrying Tools hears of the runs and backups, not of the reports', async () => {
    expect(await pollWith('tools')).toEqual({ active: 1, titles: ['Backup failed'] });
  });

  it('a token carrying Reports hears of the reports of its kinds only; Health check of the AHC', async () => {
    expect(await pollWith('reporting')).toEqual({ active: 0, titles: ['Alerts Configuration Report failed'] });
    expect(await pollWith('healthCheck')).toEqual({ active: 0, titles: ['AHC v7 not sent to Webex'] });
  });

  it('the session (and a token carrying all of them) hears of everything', async () => {
    const all = {
      active: 1,
      titles: ['AHC v7 not sent to Webex', 'Alerts Configuration Report failed', 'Backup failed'],
    };
    expect(await pollWith('healthCheck', 'reporting', 'tools')).toEqual(all);
    const response = await tam.request({ method: 'GET', url: `/api/notifications?since=${encodeURIComponent(since)}` });
    const answer = response.json<NotificationsResponse>();
    expect({
      active: answer.active,
      titles: answer.notifications.map((notification) => notification.title).sort(),
    }).toEqual(all);
  });
});

describe("a Webex message given up: heard of through a personal API token only carrying its tool's capabilities", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let since = '';

  beforeAll(async () => {
    testApp = await createTestApp('pglite', {
      WEBEX_RETRY_FIRST_MS: '300',
      WEBEX_RETRY_MAX_MS: '600',
      WEBEX_GIVE_UP_MS: '3000',
    });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    since = new Date().toISOString();
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    // Webex takes nothing: the report's messages are tried again, then given up, and the retries tell of it.
    testApp.sandbox.webex.unavailableUntil = Date.now() + 60 * 60_000;
    const done = await requestReport(tam, customer, 'alerts-config');
    await vi.waitFor(
      async () =>
        expect((await tam.request({ url: `/api/reports/${done.id}` })).json<ReportRequest>().delivery.status).toBe(
          'failed',
        ),
      { timeout: 30_000, interval: 200 },
    );
    // A watch's pause message given up, recorded by the release before, whose notice names no capability.
    await testApp.database.sql.executeSql(
      `insert into webex_deliveries (key, to_email, markdown_sha256, status, subject, user_id, notice, error, finished_at)
       select 'watch-token-erased:old', email, 'x', 'failed', 'watch:old:old', id, $1::jsonb, 'Webex refused the message (429)', now()
       from users where email = 'tam@demo.local'`,
      [
        JSON.stringify({
          source: 'watch',
          path: '/home/customers',
          title: 'Account Watch pause not sent to Webex',
          about: customer.organization.name,
        }),
      ],
    );
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
  });

  const titlesOf = (response: { json: <T>() => T }) =>
    response
      .json<NotificationsResponse>()
      .notifications.map((notification) => notification.title)
      .sort();
  const pollWith = async (...capabilities: Capability[]) => {
    const made = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: `Only ${capabilities.join(' and ')}`, expiresInDays: 7, capabilities },
    });
    expect(made.statusCode, made.body).toBe(201);
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/notifications?since=${encodeURIComponent(since)}`,
      headers: { authorization: `Bearer ${made.json<CreatedApiToken>().secret}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return titlesOf(response);
  };

  it("a token carrying only Support, or only Health check, hears of no report's message given up", async () => {
    expect(await pollWith('support')).toEqual([]);
    expect(await pollWith('healthCheck')).toEqual([]);
  });

  it("a token carrying the report's capability hears of it once; none hears of a notice naming no capability", async () => {
    expect(await pollWith('reporting')).toEqual(['Alerts Configuration Report not sent to Webex']);
    expect(await pollWith('healthCheck', 'reporting', 'tools')).toEqual([
      'Alerts Configuration Report not sent to Webex',
    ]);
    // The session hears of both.
    const session = await tam.request({ url: `/api/notifications?since=${encodeURIComponent(since)}` });
    expect(titlesOf(session)).toEqual([
      'Account Watch pause not sent to Webex',
      'Alerts Configuration Report not sent to Webex',
    ]);
  });
});
