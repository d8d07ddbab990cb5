import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { restoreItemRef } from '@ce/contract';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { untilFinished } from './build-test-app.js';
import { HttpClient, startServer } from './child-server.js';

describe('a server killed in the middle of a restore', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-restore-crash-'));
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

  it('resumes after a restart and creates every test exactly once (counted at the platform)', async () => {
    await platform.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
    const origin = await platform.listen({ host: '127.0.0.1', port: 0 });
    const env = { PLATFORM_API_URL: `${origin}/sandbox/te/v7` };
    const world = sandbox.platform.world;
    const token = world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
    const named = (name: string) => world.accountGroups.find((group) => group.accountGroupName === name);
    const [source, target] = [named('Acme - Production'), named('Acme - APAC Offices')];
    const org = world.organizations[0];
    if (!source || !target || !org) throw new Error('the demo world has the groups');
    const cloud = new Set(world.agents.filter((agent) => agent.agentType === 'cloud').map((agent) => agent.agentId));
    const targetNames = new Set(world.tests.filter((test) => test.aid === target.aid).map((test) => test.testName));
    // Tests the target lacks, on agents it has (cloud agents): every one a creation.
    const tests = world.tests.filter(
      (test) =>
        test.aid === source.aid &&
        test.agentIds.length > 0 &&
        test.agentIds.every((id) => cloud.has(id)) &&
        !targetNames.has(test.testName),
    );
    expect(tests.length).toBeGreaterThan(3);

    const first = await startServer(dataDir, env);
    children.push(first.process);
    const client = new HttpClient(first.url);
    await client.call('GET', '/api/app-info');
    expect(
      (await client.call('POST', '/api/session', { email: 'tam@demo.local', password: 'demo-password' })).status,
    ).toBe(200);
    const queued = await client.call('POST', '/api/backups', {
      token,
      organization: { id: org.orgId, name: org.name },
      accountGroups: [{ aid: source.aid }],
    });
    expect(queued.status).toBe(202);
    const backupId = queued.body.backups[0].id as string;
    await untilFinished(async () => (await client.call('GET', `/api/backups/${backupId}`)).body, 60_000);

    // Slow and tightly limited, so the kill lands in the middle.
    sandbox.platform.setScenario({
      ...sandbox.platform.scenario,
      latencyMs: 300,
      rateLimitPerMinute: 8,
      windowMs: 2_000,
    });
    const started = await client.call('POST', `/api/backups/${backupId}/restore`, {
      token,
      aid: target.aid,
      items: tests.map((test) => restoreItemRef({ kind: 'test', key: `${test.type}: ${test.testName}` })),
    });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await vi.waitFor(
      async () => expect((await client.call('GET', `/api/restores/${id}`)).body.totals.done).toBeGreaterThanOrEqual(2),
      { timeout: 90_000, interval: 200 },
    );
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    const copies = () =>
      world.tests.filter((test) => test.aid === target.aid && tests.some((one) => one.testName === test.testName));
    expect(copies().length).toBeLessThan(tests.length);

    const second = await startServer(dataDir, env);
    children.push(second.process);
    client.base = second.url;
    const done = await untilFinished(async () => (await client.call('GET', `/api/restores/${id}`)).body, 180_000);
    expect(done.status).toBe('done');
    expect(done.totals).toMatchObject({ done: tests.length, failed: 0 });
    for (const test of tests)
      expect(
        world.tests.filter((copy) => copy.aid === target.aid && copy.testName === test.testName),
        test.testName,
      ).toHaveLength(1);
    // No creation was sent again and refused as a duplicate name. (A creation whose caller was killed before
    // the answer left may be missing from the platform's call log; the world above counts what exists.)
    const creations = sandbox.platform.calls.filter(
      (call) => call.method === 'POST' && call.path.startsWith('/tests/'),
    );
    expect(creations.filter((call) => call.status === 400)).toEqual([]);
    expect(creations.filter((call) => call.status === 201).length).toBeLessThanOrEqual(tests.length);
  }, 300_000);
});
