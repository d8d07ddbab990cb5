import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ANSWER_SUITE_DATABASES, signedInClient, type TestApp } from './build-test-app.js';

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

describe('the built web app', () => {
  let testApp: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(os.tmpdir(), 'ce-dist-'));
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(path.join(distDir, 'index.html.br'), brotliCompressSync('<!doctype html><div id="root"></div>'));
    writeFileSync(path.join(distDir, 'favicon.svg'), '<svg/>');
    testApp = await createTestApp('pglite', { WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('answers any app path with index.html, never cached', async () => {
    for (const url of ['/', '/login', '/home/tools/bulk-tests', '/no/such/page']) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
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
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
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
