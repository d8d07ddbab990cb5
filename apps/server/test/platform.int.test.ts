import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ANSWER_SUITE_DATABASES, signedInClient, TestClient, type TestApp } from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)('health, documentation, errors and usage (%s)', (kind) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(kind, { PROVISIONED_TESTS_BASELINE: '100' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers /healthz and /readyz with the database and the queue reachable', async () => {
    expect((await testApp.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await testApp.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', queue: 'ok' });
  });

  it('serves the OpenAPI document and its UI', async () => {
    const document = await testApp.app.inject({ url: '/api/docs/json' });
    expect(document.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./), paths: expect.any(Object) });
    expect(Object.keys(document.json().paths)).toContain('/api/session');
    const ui = await testApp.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('answers unknown API paths and bad bodies with the one error shape and a request id', async () => {
    const missing = await testApp.app.inject({ url: '/api/nothing-here', headers: { 'x-request-id': 'req-12345678' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('req-12345678');
    expect(missing.json()).toEqual({
      error: { code: 'not_found', message: expect.any(String), requestId: 'req-12345678' },
    });

    const client = await signedInClient(testApp.app, 'superuser@demo.local');
    const badJson = await client.request({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('mounts the sandbox and points its platform client at it, in-process', async () => {
    const token =
      testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const groups = await testApp.services.platform.as({ token }).accountGroups.list();
    expect(groups.map((group) => group.accountGroupName)).toContain('Acme - Production');
    const page = await testApp.app.inject({ url: '/sandbox' });
    expect(page.body).toContain('Monitoring platform API v7');
  });

  it('counts usage events on the dashboard, with tests created added to the configured baseline', async () => {
    const client = await signedInClient(testApp.app, 'tam@demo.local');
    const before = (await client.request({ method: 'GET', url: '/api/dashboard/metrics' })).json();
    expect(before.provisionedTests).toBe(100);

    const { usage } = testApp.services;
    await usage.record({ tool: 'alerts-report', userId: null });
    await usage.record({ tool: 'alerts-report', userId: null });
    await usage.record({ tool: 'tests-created', userId: null, quantity: 12 });
    await usage.record({ tool: 'dashboard-cloned', userId: null });
    await usage.record({ tool: 'hours-logged', userId: null, team: 'TAM', quantity: 7.5 });
    await usage.record({ tool: 'hours-logged', userId: null, team: 'PS', quantity: 3.25 });

    const after = (await client.request({ method: 'GET', url: '/api/dashboard/metrics' })).json();
    expect(after).toMatchObject({
      alertsReport: before.alertsReport + 2,
      provisionedTests: 112,
      provisionedDashboards: before.provisionedDashboards + 1,
      hours: { tam: before.hours.tam + 7.5, ps: before.hours.ps + 3.25 },
    });
  });
});

const PRELOADS = JSON.stringify({
  routes: [
    { path: '/home', files: ['/assets/shell-1.js', '/assets/icons-1.js'] },
    { path: '/home/customers', files: ['/assets/customer-1.js', '/assets/icons-1.js'] },
    { path: '/home/customers/:organizationId/review', files: ['/assets/review-1.js'] },
  ],
});
const PAGE = '<!doctype html><html><head><title>CE</title></head><body><div id="root"></div></body></html>';

/** What a served page says to the app: its boot data, and the scripts it names beside the app's own. */
function pageOf(html: string) {
  const boot = /<script type="application\/json" id="ce-boot">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    boot: boot === undefined ? undefined : JSON.parse(boot),
    preloads: [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)].map((match) => match[1]),
    bootInHead: html.indexOf('id="ce-boot"') < html.indexOf('</head>'),
  };
}

describe('the built web app', () => {
  let testApp: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(os.tmpdir(), 'ce-dist-'));
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), PAGE);
    writeFileSync(path.join(distDir, 'route-preloads.json'), PRELOADS);
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(path.join(distDir, 'index.html.br'), brotliCompressSync(PAGE));
    writeFileSync(path.join(distDir, 'favicon.svg'), '<svg/>');
    testApp = await createTestApp('pglite', { WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('answers any app path with the app page, never stored (it names the user)', async () => {
    for (const url of ['/', '/login', '/home/tools/bulk-tests', '/no/such/page']) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('names the scripts of the page asked for, once each, and only those', async () => {
    const scripts = async (url: string) => pageOf((await testApp.app.inject({ url })).body).preloads;
    expect(await scripts('/home/customers/9000')).toEqual([
      '/assets/shell-1.js',
      '/assets/icons-1.js',
      '/assets/customer-1.js',
    ]);
    expect(await scripts('/home/dashboard')).toEqual(['/assets/shell-1.js', '/assets/icons-1.js']);
    // A `:name` segment stands for any one segment: a customer's review page, and only that page.
    expect(await scripts('/home/customers/9000/review')).toEqual([
      '/assets/shell-1.js',
      '/assets/icons-1.js',
      '/assets/customer-1.js',
      '/assets/review-1.js',
    ]);
    expect(await scripts('/home/customers/9000/reviews')).not.toContain('/assets/review-1.js');
    expect(await scripts('/home/customersandmore')).toEqual(['/assets/shell-1.js', '/assets/icons-1.js']);
    expect(await scripts('/login')).toEqual([]);
  });

  it('serves a rebuild at once, without naming the scripts of the build before it', async () => {
    const rebuilt = PAGE.replace('<title>CE</title>', '<title>CE rebuilt</title>');
    writeFileSync(path.join(distDir, 'index.html'), rebuilt);
    writeFileSync(
      path.join(distDir, 'route-preloads.json'),
      JSON.stringify({ routes: [{ path: '/home', files: ['/assets/shell-2.js'] }] }),
    );
    try {
      const page = await testApp.app.inject({ url: '/home/customers/9000' });
      expect(page.body).toContain('CE rebuilt');
      expect(pageOf(page.body).preloads).toEqual(['/assets/shell-2.js']);
    } finally {
      writeFileSync(path.join(distDir, 'index.html'), PAGE);
      writeFileSync(path.join(distDir, 'route-preloads.json'), PRELOADS);
    }
  });

  it('carries who is signed in and the app info, in JSON that cannot end its script element', async () => {
    const anonymous = await testApp.app.inject({ url: '/login' });
    const signedOut = pageOf(anonymous.body);
    const appInfo = (await testApp.app.inject({ url: '/api/app-info' })).json();
    expect(signedOut).toMatchObject({ boot: { user: null, appInfo }, bootInHead: true });
    // The page sets the anti-forgery cookie, so the sign-in form needs no call before it posts.
    expect(String(anonymous.headers['set-cookie'])).toMatch(/ce_csrf=/);

    const admin = await signedInClient(testApp.app, 'superuser@demo.local');
    const name = '</script><script>alert(1)</script><!--';
    const invited = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'page.boot@example.com', role: 'TAM', name },
    });
    const newcomer = new TestClient(testApp.app);
    const challenge = (await newcomer.signIn('page.boot@example.com', invited.json().temporaryPassword)).json();
    await newcomer.request({
      method: 'POST',
      url: '/api/session/new-password',
      payload: { session: challenge.session, newPassword: 'Fresh-start-42' },
    });
    const page = await newcomer.request({ method: 'GET', url: '/home/dashboard' });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body.match(/<\/script>/g)).toHaveLength(1);
    const session = (await newcomer.request({ method: 'GET', url: '/api/session' })).json();
    expect(pageOf(page.body).boot).toEqual({ user: session.user, appInfo });
    expect(session.user.name).toBe(name);

    // A session that ended is no one.
    await newcomer.request({ method: 'DELETE', url: '/api/session' });
    expect(pageOf((await newcomer.request({ method: 'GET', url: '/home/dashboard' })).body).boot.user).toBeNull();
  });

  it('caches hashed assets for a year', async () => {
    const response = await testApp.app.inject({ url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the brotli or gzip copy made at build time to a browser that accepts it', async () => {
    const brotli = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');
    const gzip = await testApp.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    const page = await testApp.app.inject({ url: '/home/dashboard', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
    const zipped = await testApp.app.inject({ url: '/home/dashboard', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toContain('<div id="root">');
  });

  it('does not answer API paths with the app', async () => {
    const response = await testApp.app.inject({ url: '/api/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('does not serve files outside the build folder', async () => {
    const response = await testApp.app.inject({ url: '/../../etc/passwd' });
    expect(response.body).not.toContain('root:');
  });
});
