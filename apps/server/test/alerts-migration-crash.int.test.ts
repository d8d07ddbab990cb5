import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { untilFinished } from './build-test-app.js';
import { HttpClient, startServer } from './child-server.js';

describe('a server killed in the middle of an alerts migration', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-migration-crash-'));
  const children: ChildProcess[] = [];
  // The platform lives outside the server here, so it remembers what the first server did.
  const sandbox = new Sandbox({});
  const platform = Fastify({ logger: false });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  });

  it('resumes after a restart and creates every rule exactly once (counted at the platform)', async () => {
    await platform.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
    const origin = await platform.listen({ host: '127.0.0.1', port: 0 });
    const env = { PLATFORM_API_URL: `${origin}/sandbox/te/v7` };
    const world = sandbox.platform.world;
    const token = world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const source = world.accountGroups.find((group) => group.accountGroupName === 'Acme - Data Centers');
    const org = world.organizations.find((candidate) => candidate.orgId === source?.orgId);
    // Groups that hold none of the migrated rules: every item is a creation.
    const targets = world.accountGroups.filter(
      (group) =>
        group.orgId === source?.orgId && !['Acme - Data Centers', 'Acme - SaaS Apps'].includes(group.accountGroupName),
    );
    const rules = world.alertRules.filter(
      (rule) => rule.aid === source?.aid && rule.ruleName.startsWith('Migration: '),
    );
    if (!source || !org) throw new Error('the demo world has the migration cases');

    const first = await startServer(dataDir, env);
    children.push(first.process);
    const client = new HttpClient(first.url);
    await client.call('GET', '/api/app-info');
    expect(
      (await client.call('POST', '/api/session', { email: 'tam@demo.local', password: 'demo-password' })).status,
    ).toBe(200);
    // Slow and tightly limited, so the kill lands in the middle.
    sandbox.platform.setScenario({
      ...sandbox.platform.scenario,
      latencyMs: 300,
      rateLimitPerMinute: 8,
      windowMs: 2_000,
    });
    const created = await client.call('POST', '/api/alerts-migration/runs', {
      token,
      organization: { id: org.orgId, name: org.name },
      aid: source.aid,
      ruleIds: rules.map((rule) => rule.ruleId),
      targets: targets.map((group) => ({ aid: group.aid })),
    });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    const expected = rules.length * targets.length;

    await vi.waitFor(
      async () =>
        expect((await client.call('GET', `/api/alerts-migration/runs/${id}`)).body.totals.done).toBeGreaterThanOrEqual(
          3,
        ),
      { timeout: 60_000, interval: 200 },
    );
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    const copies = () =>
      world.alertRules.filter((rule) => rule.aid !== source.aid && rule.ruleName.startsWith('Migration: '));
    const createdBeforeRestart = copies().filter((rule) => targets.some((group) => group.aid === rule.aid)).length;
    expect(createdBeforeRestart).toBeLessThan(expected);

    const second = await startServer(dataDir, env);
    children.push(second.process);
    client.base = second.url;
    const done = await untilFinished(
      async () => (await client.call('GET', `/api/alerts-migration/runs/${id}`)).body,
      120_000,
    );
    expect(done.status).toBe('done');
    expect(done.totals).toEqual({ total: expected, pending: 0, done: expected, skipped: 0, failed: 0 });

    // At the platform: each rule once in each target, and the creations answered 201 exactly that often.
    for (const group of targets)
      for (const rule of rules)
        expect(
          world.alertRules.filter((candidate) => candidate.aid === group.aid && candidate.ruleName === rule.ruleName),
          `${rule.ruleName} in ${group.accountGroupName}`,
        ).toHaveLength(1);
    const creations = sandbox.platform.calls.filter((call) => call.method === 'POST' && call.path === '/alerts/rules');
    // A creation whose caller was killed before the answer left may be missing from the call log: what exists
    // at the platform (above) is the count; none was sent again and refused.
    expect(creations.filter((call) => call.status === 201).length).toBeLessThanOrEqual(expected);
    expect(creations.filter((call) => call.status === 400)).toEqual([]);
    const ids = new Set(copies().map((rule) => rule.ruleId));
    expect(done.items.filter((item: { resultId: string }) => !ids.has(item.resultId))).toEqual([]);
  }, 300_000);
});
