import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MAX_WAIT_MS } from '../src/modules/reports/reports.job.js';
import { createTestApp, sandboxCustomer, signedInClient, TestClient, type TestApp } from './build-test-app.js';
import { entryArgs } from './support/server-bundle.js';

const KEY = 'q2Qe4nGm0mO3cWb0w0F7GQ3S9lZ3v4w0cD0s7cJ8m3E=';

/** Starts the real server with `env` and returns its exit code and what it printed, when it refuses to start. */
function refusedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-refused-'));
  const child = spawn(process.execPath, entryArgs('server'), {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describe('starts that are refused, naming the variable', () => {
  it('refuses production in demo mode, or without the platform, mail or keys', async () => {
    const { code, output } = await refusedStart({ NODE_ENV: 'production' });
    expect(code).toBe(2);
    for (const name of ['DEMO_MODE', 'PLATFORM_API_URL', 'SMTP_URL', 'REPORTS_KEY', 'COOKIE_SECRET'])
      expect(output).toContain(`${name}=`);
    expect(output).not.toContain('running at');

    const almost = await refusedStart({
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      PLATFORM_API_URL: 'https://api.example.com/v7',
      REPORTS_KEY: KEY,
      COOKIE_SECRET: 'a-cookie-secret-of-at-least-32-characters',
    });
    expect(almost.code).toBe(2);
    expect(almost.output).toMatch(/SMTP_URL="": required in production/);
  });

  it('refuses PostgreSQL without the keys every instance must share', async () => {
    const { code, output } = await refusedStart({ DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' });
    expect(code).toBe(2);
    expect(output).toMatch(/REPORTS_KEY="": required on PostgreSQL/);
    expect(output).toMatch(/COOKIE_SECRET="": required on PostgreSQL/);
  });
});

describe('outside demo mode', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { DEMO_MODE: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('mounts no sandbox: its outbox, inbox, tokens and switches answer 404', async () => {
    expect(testApp.sandbox).toBeNull();
    for (const [method, url] of [
      ['GET', '/sandbox'],
      ['GET', '/sandbox/mail/messages'],
      ['GET', '/sandbox/webex/messages'],
      ['POST', '/sandbox/webex/v1/messages'],
      ['GET', '/sandbox/te/tokens'],
      ['PUT', '/sandbox/te/scenario'],
      ['GET', '/sandbox/te/v7/account-groups'],
    ] as const) {
      const response = await testApp.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('has no way to send reset codes without SMTP, and says so', async () => {
    const info = (await testApp.app.inject({ url: '/api/app-info' })).json();
    expect(info.passwordResetEnabled).toBe(false);
    const asked = await new TestClient(testApp.app).request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: 'someone@example.com' },
    });
    expect(asked.statusCode).toBe(503);
  });
});

describe('a report whose queue job was lost', () => {
  let testApp: TestApp;
  let token: string;
  let organization: { id: string; name: string };
  let group = { aid: '', accountGroupName: '' };

  beforeAll(async () => {
    // No workers: the test plays the worker and the recovery job itself.
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    const customer = await sandboxCustomer(testApp, await signedInClient(testApp.app, 'tam@demo.local'));
    ({ token, organization } = customer);
    group = customer.groups[0] ?? group;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];

  /** A queued report whose pg-boss job is deleted, as if the queue lost it (or left as `jobState` says). */
  async function lostReport(jobState?: 'active'): Promise<string> {
    const tam = await signedInClient(testApp.app, 'tam@demo.local');
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: { kind: 'alerts-config', token, organization, accountGroups: [group], options: {} },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().id as string;
    const [row] = await sql<{ job_id: string; token_id: string }>(
      'select job_id, token_id from report_requests where id = $1',
      [id],
    );
    expect(row?.token_id).toBeTruthy();
    if (jobState)
      await sql('update pgboss.job set state = $2, started_on = now() where id = $1', [row?.job_id, jobState]);
    else await sql('delete from pgboss.job where id = $1', [row?.job_id]);
    return id;
  }

  it('is sent to the queue again, runs once, and ends with its token erased', async () => {
    const id = await lostReport();
    const later = new Date(Date.now() + 3 * 60_000);
    expect(await testApp.jobs.reports.recoverOrphans(false, later)).toEqual({ requeued: 1, failed: 0 });
    const [requeued] = await sql<{ job_id: string; status: string }>(
      'select j.id as job_id, r.status from report_requests r join pgboss.job j on j.id::text = r.job_id where r.id = $1',
      [id],
    );
    expect(requeued?.status).toBe('queued');
    // A second sweep finds its job alive and leaves it alone.
    expect(await testApp.jobs.reports.recoverOrphans(false, later)).toEqual({ requeued: 0, failed: 0 });

    await testApp.jobs.reports.run(id);
    const [done] = await sql<{ status: string; token_id: string | null }>(
      'select status, token_id from report_requests where id = $1',
      [id],
    );
    expect(done).toEqual({ status: 'done', token_id: null });
  });

  it('is sent again when the worker that took its queue job died before claiming it', async () => {
    // The queue job as a worker leaves it when it dies between taking the job and claiming the report.
    const id = await lostReport('active');
    // Just taken, the worker may still claim it: left alone.
    expect(await testApp.jobs.reports.recoverOrphans(false)).toEqual({ requeued: 0, failed: 0 });
    const later = new Date(Date.now() + 3 * 60_000);
    expect(await testApp.jobs.reports.recoverOrphans(false, later)).toEqual({ requeued: 1, failed: 0 });
    await testApp.jobs.reports.run(id);
    const [done] = await sql<{ status: string }>('select status from report_requests where id = $1', [id]);
    expect(done?.status).toBe('done');
  });

  it('is ended as failed, its token erased, once it has waited too long to run', async () => {
    const id = await lostReport();
    const [{ token_id: tokenId } = { token_id: '' }] = await sql<{ token_id: string }>(
      'select token_id from report_requests where id = $1',
      [id],
    );
    const muchLater = new Date(Date.now() + REPORT_MAX_WAIT_MS + 60_000);
    expect(await testApp.jobs.reports.recoverOrphans(false, muchLater)).toEqual({ requeued: 0, failed: 1 });
    const [ended] = await sql<{ status: string; token_id: string | null; error: string }>(
      'select status, token_id, error from report_requests where id = $1',
      [id],
    );
    expect(ended).toEqual({
      status: 'failed',
      token_id: null,
      error: 'The report waited too long for a worker. Run it again.',
    });
    expect(await sql('select id from sealed_tokens where id = $1', [tokenId])).toEqual([]);
  });

  it('leaves no token behind that no job refers to', async () => {
    await sql("insert into sealed_tokens (key_id, sealed) values ('k', 'v1.k.a.b.c')");
    expect(await testApp.tokens.sweep()).toBeGreaterThanOrEqual(1);
    expect(await sql('select id from sealed_tokens')).toEqual([]);
  });
});

describe('behind one proxy that terminates TLS (TRUST_PROXY=1)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { TRUST_PROXY: '1', PUBLIC_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A request as the proxy forwards it: it appends the address it saw to what the client sent. */
  const viaProxy = (client: TestClient, options: Parameters<TestClient['request']>[0], clientIp: string, forged = '') =>
    client.request({
      ...options,
      remoteAddress: '10.0.0.2',
      headers: {
        'x-forwarded-proto': 'https',
        'x-forwarded-for': forged ? `${forged}, ${clientIp}` : clientIp,
        ...(options.headers as Record<string, string> | undefined),
      },
    });

  it('names its cookies __Host- over https and gives a new anti-forgery token at sign-in', async () => {
    const client = new TestClient(testApp.app);
    const first = await viaProxy(client, { method: 'GET', url: '/api/app-info' }, '198.51.100.7');
    const csrf = first.cookies.find((cookie) => cookie.name === '__Host-ce_csrf');
    expect(csrf).toMatchObject({ path: '/', secure: true, sameSite: 'Lax' });
    expect(first.cookies.some((cookie) => cookie.name === 'ce_csrf')).toBe(false);
    const signedIn = await viaProxy(
      client,
      {
        method: 'POST',
        url: '/api/session',
        payload: { email: 'tam@demo.local', password: 'demo-password' },
        headers: { 'x-csrf-token': csrf?.value ?? '' },
      },
      '198.51.100.7',
    );
    expect(signedIn.statusCode).toBe(200);
    const session = signedIn.cookies.find((cookie) => cookie.name === '__Host-ce_session');
    expect(session).toMatchObject({ path: '/', secure: true, httpOnly: true });
    const rotated = signedIn.cookies.find((cookie) => cookie.name === '__Host-ce_csrf');
    expect(rotated?.value).toBeTruthy();
    expect(rotated?.value).not.toBe(csrf?.value);
    // A bare-named session cookie (planted, say, by a sibling subdomain) is not read over https.
    const planted = await testApp.app.inject({
      method: 'GET',
      url: '/api/session',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' },
      cookies: { ce_session: session?.value ?? '' },
    });
    expect(planted.statusCode).toBe(401);
  });

  it('records the address the proxy saw, not one the client forged, and limits sign-in calls per address', async () => {
    const client = new TestClient(testApp.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await viaProxy(
        client,
        { method: 'POST', url: '/api/session', payload: { email: 'nobody@demo.local', password: 'x' } },
        '198.51.100.50',
        `192.0.2.${attempt}`,
      );
      statuses.push(answer.statusCode);
    }
    // Forging a new X-Forwarded-For each time does not make a new address.
    expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    const other = await viaProxy(
      new TestClient(testApp.app),
      { method: 'POST', url: '/api/session', payload: { email: 'nobody@demo.local', password: 'x' } },
      '198.51.100.51',
    );
    expect(other.json().error.code).not.toBe('rate_limited');
    const { rows } = await testApp.database.sql.executeSql(
      "select distinct ip_address from security_events where email = 'nobody@demo.local'",
    );
    expect(rows).toEqual(expect.arrayContaining([{ ip_address: '198.51.100.50' }]));
    expect(JSON.stringify(rows)).not.toContain('192.0.2.');
  });
});

describe('the token sweep during a rolling key rotation', () => {
  let testApp: TestApp;
  const RETIRED_ID = 'aaaaaaaaaaaa';
  const NEWER_ID = 'bbbbbbbbbbbb';
  beforeAll(async () => {
    testApp = await createTestApp('pglite', {
      WORKERS_ENABLED: 'false',
      REPORTS_KEY: KEY,
      REPORTS_KEY_RETIRED: RETIRED_ID,
    });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("deletes only tokens sealed by a key listed as retired, never a newer instance's", async () => {
    const sql = async <T>(text: string, values: unknown[] = []) =>
      (await testApp.database.sql.executeSql(text, values)).rows as T[];
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    // Two queued reports whose tokens were sealed elsewhere: one by a key retired here, one by a key this
    // instance does not know yet (the current key of an instance already rolled forward).
    const queued = async (keyId: string) => {
      const [token] = await sql<{ id: string }>(
        'insert into sealed_tokens (key_id, sealed) values ($1, $2) returning id',
        [keyId, `v1.${keyId}.a.b.c`],
      );
      await sql(
        `insert into report_requests (user_id, kind, organization_id, organization_name, account_groups, options, status, token_id)
         values ($1, 'alerts-config', '9000', 'Acme', '[]', '{}', 'queued', $2)`,
        [tam?.id, token?.id],
      );
      return token?.id;
    };
    const retired = await queued(RETIRED_ID);
    const newer = await queued(NEWER_ID);
    expect(await testApp.tokens.sweep()).toBe(1);
    const left = (await sql<{ id: string }>('select id from sealed_tokens')).map((row) => row.id);
    expect(left).toContain(newer);
    expect(left).not.toContain(retired);
  });
});

describe('retention', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { RETENTION_DAYS: '90', WORKERS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('deletes security events, throttles, and finished reports with their files past the retention, nothing newer', async () => {
    const sql = async <T>(text: string, values: unknown[] = []) =>
      (await testApp.database.sql.executeSql(text, values)).rows as T[];
    const client = new TestClient(testApp.app);
    await client.signIn('tam@demo.local', 'not-the-password');
    await client.signIn('pmo@demo.local', 'not-the-password');
    const [tam] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    const report = async (createdDaysAgo: number, status: string) => {
      const [row] = await sql<{ id: string }>(
        `insert into report_requests (user_id, kind, organization_id, organization_name, account_groups, options, status, created_at)
         values ($1, 'alerts-config', '9000', 'Acme', '[]', '{}', $2, now() - ($3 || ' days')::interval) returning id`,
        [tam?.id, status, String(createdDaysAgo)],
      );
      await sql(
        "insert into report_artifacts (report_id, filename, content_type, content, size) values ($1, 'r.html', 'text/html', '\\x00', 1)",
        [row?.id],
      );
      return row?.id;
    };
    const old = await report(120, 'done');
    const oldButQueued = await report(120, 'queued');
    const recent = await report(10, 'done');
    await sql("update security_events set created_at = now() - interval '120 days' where email = 'tam@demo.local'");
    await sql("update sign_in_throttle set first_failure_at = now() - interval '120 days'");

    // What the nightly retention jobs of the identity, reports and bulk modules do.
    const before = new Date(Date.now() - 90 * 86_400_000);
    expect(await testApp.services.identity.pruneBefore(before)).toBe(1);
    expect(await testApp.services.reports.pruneFinished(before)).toBe(1);
    expect(await testApp.services.bulk.pruneFinished(before)).toBe(0);
    const reports = (await sql<{ id: string }>('select id from report_requests')).map((row) => row.id);
    expect(reports.sort()).toEqual([oldButQueued, recent].sort());
    expect(await sql('select report_id from report_artifacts where report_id = $1', [old])).toEqual([]);
    expect(await sql("select email from security_events where email = 'tam@demo.local'")).toEqual([]);
    expect(await sql("select email from security_events where email = 'pmo@demo.local'")).toHaveLength(1);
    expect(await sql('select key from sign_in_throttle')).toEqual([]);
  });
});
