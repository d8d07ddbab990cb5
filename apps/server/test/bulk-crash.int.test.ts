import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { untilFinished } from './build-test-app.js';
import { HttpClient, startServer } from './child-server.js';

describe('a server killed in the middle of a bulk tests run', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bulk-crash-'));
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
    const cloud = world.agents.find((agent) => agent.agentType === 'cloud')?.agentName ?? '';

    const first = await startServer(dataDir, env);
    children.push(first.process);
    const client = new HttpClient(first.url);
    await client.call('GET', '/api/app-info');
    expect(
      (await client.call('POST', '/api/session', { email: 'tam@demo.local', password: 'demo-password' })).status,
    ).toBe(200);
    const groups = (await client.call('POST', '/api/account-groups', { token })).body.accountGroups as {
      aid: string;
      accountGroupName: string;
      organizationId: string;
      organizationName: string;
    }[];
    const templates = ['Crash A', 'Crash B', 'Crash C', 'Crash D'].map((testName) => ({
      testName,
      testType: 'http-server',
      url: 'https://crash.example.com',
      agentNames: [cloud],
    }));
    // Slow and tightly limited, so the kill lands in the middle.
    sandbox.platform.setScenario({
      ...sandbox.platform.scenario,
      latencyMs: 300,
      rateLimitPerMinute: 8,
      windowMs: 2_000,
    });
    const created = await client.call('POST', '/api/bulk/runs', {
      kind: 'tests',
      token,
      organization: { id: groups[0]?.organizationId, name: groups[0]?.organizationName },
      accountGroups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
      templates,
    });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    const expected = templates.length * groups.length;

    await vi.waitFor(
      async () => expect((await client.call('GET', `/api/bulk/runs/${id}`)).body.totals.done).toBeGreaterThanOrEqual(3),
      { timeout: 60_000, interval: 200 },
    );
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    const createdBeforeRestart = world.tests.filter((test) => test.testName.startsWith('Crash ')).length;
    expect(createdBeforeRestart).toBeLessThan(expected);

    const second = await startServer(dataDir, env);
    children.push(second.process);
    client.base = second.url;
    const done = await untilFinished(async () => (await client.call('GET', `/api/bulk/runs/${id}`)).body, 120_000);
    expect(done.status).toBe('done');
    expect(done.totals).toEqual({ total: expected, pending: 0, done: expected, skipped: 0, failed: 0 });

    // At the platform: each template once in each group, and no creation refused as a duplicate.
    for (const group of groups) {
      for (const template of templates) {
        expect(
          world.tests.filter((test) => test.aid === group.aid && test.testName === template.testName),
          `${template.testName} in ${group.accountGroupName}`,
        ).toHaveLength(1);
      }
    }
    const creations = sandbox.platform.calls.filter(
      (call) => call.method === 'POST' && call.path.startsWith('/tests/'),
    );
    // A creation whose caller was killed before the answer left may be missing from the call log: what exists
    // at the platform (above) is the count.
    expect(creations.filter((call) => call.status === 201).length).toBeLessThanOrEqual(expected);
    expect(creations.filter((call) => call.status === 400)).toHaveLength(0);
    // The run's items name the tests the platform holds.
    const ids = new Set(world.tests.filter((test) => test.testName.startsWith('Crash ')).map((test) => test.testId));
    expect(done.items).toHaveLength(expected);
    expect(done.items.filter((item: { resultId: string }) => !ids.has(item.resultId))).toEqual([]);
  }, 300_000);
});
