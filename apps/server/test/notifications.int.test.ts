import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationsResponse } from '@ce/contract';
import {
  bgpTemplate,
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

// No workers: the test plays the worker, so each report and run ends exactly when the test says.
describe('notifications of work that ended badly', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let token: string;
  let organization: { id: string; name: string };
  let group = { aid: '', accountGroupName: '' };

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    const customer = await sandboxCustomer(testApp, tam);
    ({ token, organization } = customer);
    group = customer.groups[0] ?? group;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const poll = async (client: TestClient, since?: string) => {
    const response = await client.request({
      method: 'GET',
      url: since ? `/api/notifications?since=${encodeURIComponent(since)}` : '/api/notifications',
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationsResponse>();
  };
  const requestReport = async () => {
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { kind: 'alerts-config', token, organization, accountGroups: [group], options: {} },
    });
    expect(created.statusCode, created.body).toBe(202);
    return created.json<{ id: string }>().id;
  };

  it('tells the requester, and nobody else, that a report failed after it was requested', async () => {
    const first = await poll(tam);
    expect(first).toEqual({ now: expect.any(String), active: 0, notifications: [] });

    const id = await requestReport();
    // Queued: the browser polls fast while this is above zero.
    expect(await poll(tam, first.now)).toMatchObject({ active: 1, notifications: [] });

    // The sealed token is gone before a worker takes the report: it cannot run.
    await sql('delete from sealed_tokens where id = (select token_id from report_requests where id = $1)', [id]);
    await testApp.jobs.reports.run(id);

    const after = await poll(tam, first.now);
    expect(after.active).toBe(0);
    expect(after.notifications).toEqual([
      {
        key: `${id}:failed`,
        source: 'report',
        outcome: 'failed',
        title: 'Alerts Configuration Report failed',
        message: `${organization.name}: The token is no longer available: run the report again.`,
        path: '/home/reports',
        at: expect.any(String),
      },
    ]);
    expect(Date.parse(after.notifications[0]?.at ?? '')).toBeGreaterThan(Date.parse(first.now));

    const proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    expect((await poll(proserv, first.now)).notifications).toEqual([]);
    // Without `since` (a first poll), nothing from before it.
    expect((await poll(tam)).notifications).toEqual([]);
  });

  it('tells a session nothing that ended before it began: notifications end with the session', async () => {
    const since = (await poll(tam)).now;
    const id = await requestReport();
    await sql('delete from sealed_tokens where id = (select token_id from report_requests where id = $1)', [id]);
    await testApp.jobs.reports.run(id);
    expect((await poll(tam, since)).notifications.map((notification) => notification.key)).toContain(`${id}:failed`);

    // The same user signs in again (another browser), a moment after the failure: its polls do not tell it,
    // although the server looks a little before each cursor.
    const again = await signedInClient(testApp.app, 'tam@demo.local');
    const first = await poll(again);
    expect(first.notifications).toEqual([]);
    expect((await poll(again, first.now)).notifications).toEqual([]);
    // Nor does a cursor from before the session began (an inbox a browser kept from an earlier one).
    expect((await poll(again, since)).notifications).toEqual([]);
  });

  it('tells of a report made but not delivered in Webex', async () => {
    const since = (await poll(tam)).now;
    const id = await requestReport();
    await sql(
      "update report_requests set status = 'done', delivery_status = 'failed', delivery_error = 'Webex is down', finished_at = now() where id = $1",
      [id],
    );
    const { notifications } = await poll(tam, since);
    expect(notifications.find((notification) => notification.key === `${id}:not-delivered`)).toMatchObject({
      outcome: 'not-delivered',
      title: 'Alerts Configuration Report not sent to Webex',
      message: `${organization.name}: Webex is down. Its files are in My Reports.`,
      path: '/home/reports',
    });
  });

  it('tells of a bulk run where some operations failed, pointing at the page that shows them', async () => {
    const since = (await poll(tam)).now;
    const created = await tam.request({
      method: 'POST',
      url: '/api/bulk/runs',
      payload: {
        kind: 'tests',
        token,
        organization,
        accountGroups: [group],
        templates: [
          bgpTemplate('Notified BGP'),
          // Its only agent is in no account group: it cannot be created.
          {
            testName: 'Notified HTTP',
            testType: 'http-server',
            url: 'https://notified.example.com',
            agentNames: ['An agent nobody has'],
          },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const runId = created.json<{ id: string }>().id;
    expect((await poll(tam, since)).active).toBe(1);
    await testApp.jobs.changeSets.run(runId);

    const after = await poll(tam, since);
    expect(after.active).toBe(0);
    // Earlier tests' notifications may come again (the server looks a little before `since`; the browser drops them).
    expect(after.notifications.filter((notification) => notification.source === 'bulk')).toEqual([
      {
        key: `${runId}:partly-failed`,
        source: 'bulk',
        outcome: 'partly-failed',
        title: 'Create tests: 1 of 2 failed',
        message: `${organization.name}: each failure and its reason are in the run's results.`,
        path: '/home/tools/bulk-tests',
        at: expect.any(String),
      },
    ]);
  });

  it('tells of a backup that failed, pointing at Backup & Restore', async () => {
    const since = (await poll(tam)).now;
    const created = await tam.request({
      method: 'POST',
      url: '/api/backups',
      payload: { token, organization, accountGroups: [{ aid: group.aid }] },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json<{ backups: { id: string }[] }>().backups[0]?.id ?? '';
    expect((await poll(tam, since)).active).toBe(1);
    // The customer revokes the token before a worker reads the group.
    const platform = testApp.sandbox?.platform;
    const revoked = platform?.world.tokens.find((candidate) => candidate.token === token);
    if (!revoked) throw new Error('the customer token is a sandbox token');
    revoked.kind = 'revoked';
    try {
      await testApp.jobs.backups.run(id);
    } finally {
      revoked.kind = 'org-admin';
    }
    const after = await poll(tam, since);
    expect(after.active).toBe(0);
    expect(after.notifications.filter((notification) => notification.source === 'backup-restore')).toEqual([
      {
        key: `${id}:failed`,
        source: 'backup-restore',
        outcome: 'failed',
        title: 'Backup failed',
        message: expect.stringMatching(new RegExp(`^${organization.name}, ${group.accountGroupName}: .+`)),
        path: '/home/tools/backup-restore',
        at: expect.any(String),
      },
    ]);
  });

  it('refuses a caller without a session, and a `since` that is not a time', async () => {
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await tam.request({ method: 'GET', url: '/api/notifications?since=yesterday' });
    expect(wrong.statusCode).toBe(400);
  });
});
