import { describe, expect, it, vi } from 'vitest';
import { restoreItemRef } from '@ce/contract';
import { untilFinished } from './build-test-app.js';
import { crashHarness } from './support/crash-harness.js';

describe('a server killed in the middle of a restore', () => {
  const crash = crashHarness('ce-restore-crash');
  const { sandbox, world, token } = crash;

  it('resumes after a restart and creates every test exactly once (counted at the platform)', async () => {
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

    const client = await crash.start();
    const queued = await client.call('POST', '/api/backups', {
      token,
      organization: { id: org.orgId, name: org.name },
      accountGroups: [{ aid: source.aid }],
    });
    expect(queued.status).toBe(202);
    const backupId = queued.body.backups[0].id as string;
    await untilFinished(async () => (await client.call('GET', `/api/backups/${backupId}`)).body, 60_000);

    crash.slow();
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
    await crash.kill();
    const copies = () =>
      world.tests.filter((test) => test.aid === target.aid && tests.some((one) => one.testName === test.testName));
    expect(copies().length).toBeLessThan(tests.length);

    await crash.restart();
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
