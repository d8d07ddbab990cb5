import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '@ce/contract';
import {
  createTestApp,
  DEMO_PASSWORD,
  reportSuite,
  testClock,
  TestClient,
  untilFinished,
  type TestApp,
} from './build-test-app.js';
import { LOGGED_MESSAGE_CHARS } from '../src/core/logging.js';

describe('logs of a sign-in and sign-out', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('never contain the password, the session id or the anti-forgery token, and carry a request id', async () => {
    const client = new TestClient(testApp.app);
    const failed = await client.signIn('tam@demo.local', 'Wrong-Password-123!');
    expect(failed.statusCode).toBe(401);
    const signedIn = await client.signIn('tam@demo.local');
    expect(signedIn.statusCode).toBe(200);
    const sessionId = client.sessionId ?? '';
    const csrf = client.cookies[CSRF_COOKIE] ?? '';
    await client.request({ method: 'GET', url: '/api/session' });
    await client.request({
      method: 'GET',
      url: '/api/dashboard/metrics',
      headers: { authorization: 'Bearer customer-token-abcdefghijklmnop' },
    });
    expect((await client.request({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(200);

    const requestLines = testApp.logs.filter((line) => line.includes('"req"') || line.includes('"res"'));
    expect(requestLines.length).toBeGreaterThan(8);
    const all = testApp.logs.join('\n');
    for (const secret of [DEMO_PASSWORD, 'Wrong-Password-123!', sessionId, csrf, 'customer-token-abcdefghijklmnop']) {
      expect(secret.length).toBeGreaterThan(8);
      expect(all).not.toContain(secret);
    }
    for (const line of requestLines) expect(JSON.parse(line)).toHaveProperty('reqId');
  });
});

describe('the log of a report the database refused', () => {
  const suite = reportSuite('pglite', 'tam@demo.local', { clock: testClock(), rateLimitPerMinute: 100_000 });

  it("says which query failed and why, without the platform's answer it held: no email of the customer's users", async () => {
    const world = suite.world();
    const globex = world.organizations[1];
    const group = world.accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    const token = world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === globex?.orgId);
    if (!globex || !group || !token) throw new Error('the demo world has a second organization');
    const emails = world.users.filter((user) => user.orgId === globex.orgId).map((user) => user.email);
    expect(emails.length).toBeGreaterThan(0);
    // The database refuses to keep any answer naming a person by email: the report's first such read fails to store.
    const sql = suite.app.database.sql;
    await sql.executeSql(
      `alter table report_reads add constraint no_emails check (body is null or body::text not like '%@%')`,
    );
    try {
      const created = await suite.client.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'ahc-v7',
          token: token.token,
          organization: { id: globex.orgId, name: globex.name },
          accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
          options: {},
        },
      });
      expect(created.statusCode, created.body).toBe(202);
      const report = await untilFinished(() =>
        suite.client
          .request({ method: 'GET', url: `/api/reports/${created.json<{ id: string }>().id}` })
          .then((response) => response.json<{ status: string; error?: string }>()),
      );
      expect(report).toMatchObject({
        status: 'failed',
        error: 'The report could not be produced because of an internal error.',
      });
    } finally {
      await sql.executeSql('alter table report_reads drop constraint no_emails');
    }

    const failed = suite.app.logs.map((line) => JSON.parse(line)).find((line) => line.msg === 'report failed');
    expect(failed?.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: expect.stringContaining('insert into "report_reads"'),
      cause: { errorCode: '23514', message: expect.stringContaining('no_emails') },
    });
    expect(failed.err.message.length).toBeLessThanOrEqual(LOGGED_MESSAGE_CHARS + 1);
    expect(failed.err).not.toHaveProperty('params');
    const all = suite.app.logs.join('\n');
    for (const email of emails) expect(all).not.toContain(email);
  });
});
