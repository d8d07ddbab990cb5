import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticReport } from '@ce/contract';
import {
  createTestApp,
  ANSWER_SUITE_DATABASES,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)('the diagnostic tool (%s)', (kind) => {
  let testApp: TestApp;
  let support: TestClient;
  const token = (which: 'org-admin' | 'read-only' | 'revoked') =>
    testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === which)?.token ?? '';
  const run = async (value: string) =>
    support.request({ method: 'POST', url: '/api/diagnostics', payload: { token: value } });

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    support = await signedInClient(testApp.app, 'support@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("tells who an Org Admin's token is, that every tool is ready, and the organization's state", async () => {
    const response = await run(token('org-admin'));
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<DiagnosticReport>();
    const world = testApp.sandbox?.platform.world;
    const orgId = world?.tokens.find((candidate) => candidate.kind === 'org-admin')?.orgId;
    const admin = world?.users.find((user) => user.orgId === orgId);
    expect(report.identity).toMatchObject({ email: admin?.email, isOrgAdmin: true });
    expect(report.accountGroups).toHaveLength(
      world?.accountGroups.filter((group) => group.orgId === orgId).length ?? -1,
    );
    expect(report.permissions.length).toBeGreaterThan(0);
    expect(report.permissions.filter((item) => item.status !== 'granted')).toEqual([]);
    expect(report.tools.length).toBeGreaterThan(0);
    expect(report.tools.filter((tool) => !tool.ready)).toEqual([]);
    expect(report.platform.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number) });
    const status = Object.fromEntries(report.checks.map((item) => [item.id, item.status]));
    expect(status).toMatchObject({ token: 'pass', 'org-admin': 'pass', permissions: 'pass', 'rate-limit': 'pass' });
    const disabledTests = world?.tests.filter(
      (test) => report.accountGroups.some((group) => group.aid === test.aid) && !test.enabled,
    ).length;
    expect(report.checks.find((item) => item.id === 'disabled-tests')?.items).toHaveLength(disabledTests ?? -1);
    expect(['pass', 'warn', 'fail']).toContain(status.quota);

    const json = await support.request({ method: 'GET', url: `/api/diagnostics/${report.id}/download?format=json` });
    expect(JSON.parse(json.body).id).toBe(report.id);
    const html = await support.request({ method: 'GET', url: `/api/diagnostics/${report.id}/download?format=html` });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('Toolkit tools');
    const sent = await support.request({
      method: 'POST',
      url: `/api/diagnostics/${report.id}/send`,
      payload: { email: 'tam@demo.local' },
    });
    expect(sent.statusCode).toBe(204);
    expect(testApp.sandbox?.webex.messages.at(-1)?.markdown).toContain('**Diagnostic of a customer token**');
  });

  it('lists every account group the token sees, with its roles there or "no role"', async () => {
    const world = testApp.sandbox?.platform.world;
    const orgId = world?.tokens.find((candidate) => candidate.kind === 'org-admin')?.orgId;
    const admin = world?.users.find((user) => user.orgId === orgId);
    const groups = world?.accountGroups.filter((group) => group.orgId === orgId) ?? [];
    const bare = groups.at(-1);
    if (!admin || !bare) throw new Error('the sandbox has an Org Admin in an organization with groups');
    // The admin loses their role in one group: the token still sees it.
    const kept = admin.roleIdsByAid[bare.aid];
    delete admin.roleIdsByAid[bare.aid];
    try {
      const report = (await run(token('org-admin'))).json<DiagnosticReport>();
      expect(report.identity?.roles.map((entry) => entry.aid).sort()).toEqual(groups.map((group) => group.aid).sort());
      expect(report.identity?.roles.find((entry) => entry.aid === bare.aid)?.roles).toEqual([]);
      expect(report.identity?.roles.filter((entry) => entry.roles.length > 0).length).toBeGreaterThan(0);
      const html = await support.request({ method: 'GET', url: `/api/diagnostics/${report.id}/download?format=html` });
      expect(html.body).toMatch(new RegExp(`<td>${bare.aid}</td><td>[^<]*</td><td>no role</td>`));
    } finally {
      if (kept) admin.roleIdsByAid[bare.aid] = kept;
    }
  });

  it('names what a read-only token misses, for each tool, and makes the checks it cannot do unknown', async () => {
    const report = (await run(token('read-only'))).json<DiagnosticReport>();
    expect(report.identity).toMatchObject({ name: 'Read-only Auditor', isOrgAdmin: false });
    const missing = report.permissions.filter((item) => item.status === 'missing').map((item) => item.name);
    expect(missing).toEqual([
      'View users',
      'View roles',
      'View activity log',
      'View usage and quotas',
      'Edit tests, agents, dashboards and users',
    ]);
    expect(report.tools.find((tool) => tool.tool === 'TAM Activity Report')).toMatchObject({
      ready: false,
      missing: ['View activity log'],
    });
    expect(report.tools.find((tool) => tool.tool === 'Alerts Configuration Report')?.ready).toBe(true);
    // The writing tools read what they copy or restore, and write with a role that manages the account.
    expect(report.tools.find((tool) => tool.tool === 'Alerts Migration')).toMatchObject({
      ready: false,
      missing: ['Edit tests, agents, dashboards and users'],
    });
    expect(report.tools.find((tool) => tool.tool === 'Backup & Restore')).toMatchObject({
      ready: false,
      needs: expect.arrayContaining(['View alert suppression windows', 'View dashboards', 'View endpoint agents']),
      missing: ['Edit tests, agents, dashboards and users'],
    });
    const checks = Object.fromEntries(report.checks.map((item) => [item.id, item]));
    expect(checks['org-admin']?.status).toBe('fail');
    expect(checks.quota).toMatchObject({
      status: 'unknown',
      detail: 'Unknown: the permission View usage and quotas is missing.',
    });
  });

  it('says a revoked token is invalid, and keeps no token', async () => {
    const response = await run(token('revoked'));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('Invalid OAuth token. Please check your token and try again.');
    const other = await signedInClient(testApp.app, 'user@demo.local');
    expect((await other.request({ method: 'POST', url: '/api/diagnostics', payload: { token: 'x' } })).statusCode).toBe(
      403,
    );
  });
});
