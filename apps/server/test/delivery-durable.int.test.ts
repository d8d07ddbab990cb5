import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MigrationRun, NotificationsResponse, ReportRequest } from '@ce/contract';
import {
  createTestApp,
  requestReport,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { MIGRATED } from './support/alerts-migration.js';

// Issue 56, item 4: every message the product sends goes through one durable delivery, once a key, tried again with
// a back-off while Webex does not take it (any instance's retry, from the row); one given up is told on its run's
// page and in notifications. Webex here is the sandbox's, made to answer 503 for as long as a test says.
describe('a message Webex does not take', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let acme: SandboxCustomer;
  const EMAIL = 'tam@demo.local';
  const webex = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.webex;
  };
  const inbox = () => webex().messages.filter((message) => message.toPersonEmail === EMAIL);
  const rows = (subject: string) =>
    testApp.database.sql
      .executeSql('select key, status, attempts, error from webex_deliveries where subject = $1 order by position', [
        subject,
      ])
      .then((result) => result.rows as { key: string; status: string; attempts: number; error: string | null }[]);
  const report = (id: string) =>
    tam.request({ method: 'GET', url: `/api/reports/${id}` }).then((response) => response.json<ReportRequest>());

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WEBEX_RETRY_FIRST_MS: '300', WEBEX_RETRY_MAX_MS: '600' });
    tam = await signedInClient(testApp.app, EMAIL);
    acme = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('sends a report once Webex is back: the report is done meanwhile, its delivery pending, each message once', async () => {
    webex().unavailableUntil = Date.now() + 60 * 60_000;
    const done = await requestReport(tam, acme, 'alerts-config');
    expect(done).toMatchObject({ status: 'done', delivery: { status: 'pending' } });
    const waiting = await rows(`report:${done.id}`);
    expect(waiting.length).toBeGreaterThanOrEqual(1);
    expect(waiting[0]).toMatchObject({
      status: 'waiting',
      error: 'Webex refused the message (503): Service Unavailable',
    });
    // Tried again, with a back-off, while Webex is away: nothing sent, nothing given up.
    await vi.waitFor(async () => expect((await rows(`report:${done.id}`))[0]?.attempts).toBeGreaterThanOrEqual(3), {
      timeout: 30_000,
      interval: 200,
    });
    expect(inbox()).toHaveLength(0);

    webex().unavailableUntil = 0;
    const delivered = await vi.waitFor(
      async () => {
        const read = await report(done.id);
        expect(read.delivery).toEqual({ status: 'delivered', error: null });
        return read;
      },
      { timeout: 30_000, interval: 200 },
    );
    const keys = (await rows(`report:${delivered.id}`)).map((row) => row.status);
    expect(keys.every((status) => status === 'sent')).toBe(true);
    // Every message once, the summary first: retries never post one twice.
    expect(inbox()).toHaveLength(keys.length);
    expect(inbox()[0]?.markdown).toContain('Alerts');
    const ids = inbox().map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 120_000);

  it("sends an alerts migration's summary once Webex is back (its end message was sent once, without retry)", async () => {
    webex().messages.length = 0;
    webex().unavailableUntil = Date.now() + 60 * 60_000;
    const source = testApp.sandbox?.platform.world.accountGroups.find(
      (g) => g.accountGroupName === 'Acme - Data Centers',
    );
    const target = testApp.sandbox?.platform.world.accountGroups.find((g) => g.accountGroupName === 'Acme - SaaS Apps');
    const ruleIds = MIGRATED.map(
      (name) =>
        testApp.sandbox?.platform.world.alertRules.find((r) => r.aid === source?.aid && r.ruleName === name)?.ruleId,
    );
    const started = await tam.request({
      method: 'POST',
      url: '/api/alerts-migration/runs',
      payload: {
        token: acme.token,
        organization: acme.organization,
        aid: source?.aid,
        ruleIds,
        targets: [{ aid: target?.aid }],
        options: {
          mode: 'copy',
          onConflict: 'skip',
          whenNoTestsLeft: 'keep',
          keepDefault: false,
          includeWindows: false,
        },
      },
    });
    expect(started.statusCode, started.body).toBe(202);
    const run = await untilFinished(() =>
      tam
        .request({ method: 'GET', url: `/api/alerts-migration/runs/${started.json<MigrationRun>().id}` })
        .then((response) => response.json<MigrationRun>()),
    );
    expect(run.status).toBe('done');
    await vi.waitFor(async () => expect((await rows(`change-set:${run.id}`))[0]?.status).toBe('waiting'), {
      timeout: 10_000,
      interval: 100,
    });
    expect(inbox()).toHaveLength(0);

    webex().unavailableUntil = 0;
    await vi.waitFor(async () => expect((await rows(`change-set:${run.id}`))[0]?.status).toBe('sent'), {
      timeout: 30_000,
      interval: 200,
    });
    const summaries = inbox().filter((message) => message.markdown?.includes('Alerts migration (copy)'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.file?.name).toMatch(/^alerts-migration-.*\.xlsx$/);
  }, 120_000);
});

describe('a message Webex never takes', () => {
  let testApp: TestApp;
  afterAll(async () => {
    await testApp?.close();
  });

  it("is given up after WEBEX_GIVE_UP_MS, told on the report's page and in notifications, the report kept", async () => {
    testApp = await createTestApp('pglite', {
      WEBEX_RETRY_FIRST_MS: '300',
      WEBEX_RETRY_MAX_MS: '600',
      WEBEX_GIVE_UP_MS: '3000',
    });
    const tam = await signedInClient(testApp.app, 'tam@demo.local');
    const acme = await sandboxCustomer(testApp, tam);
    const since = new Date().toISOString();
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    testApp.sandbox.webex.unavailableUntil = Date.now() + 60 * 60_000;
    const done = await requestReport(tam, acme, 'alerts-config');
    expect(done.delivery.status).toBe('pending');
    const failed = await vi.waitFor(
      async () => {
        const read = (await tam.request({ method: 'GET', url: `/api/reports/${done.id}` })).json<ReportRequest>();
        expect(read.delivery.status).toBe('failed');
        return read;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(failed).toMatchObject({
      status: 'done',
      delivery: { status: 'failed', error: 'Webex refused the message (503): Service Unavailable' },
    });
    const told = (
      await tam.request({ method: 'GET', url: `/api/notifications?since=${encodeURIComponent(since)}` })
    ).json<NotificationsResponse>();
    expect(told.notifications.filter((notification) => notification.key === `${done.id}:not-delivered`)).toEqual([
      expect.objectContaining({
        outcome: 'not-delivered',
        title: 'Alerts Configuration Report not sent to Webex',
        message: `${acme.organization.name}: Webex refused the message (503): Service Unavailable. Its files are in My Reports.`,
      }),
    ]);
    expect(testApp.sandbox.webex.messages).toHaveLength(0);
  }, 120_000);
});
