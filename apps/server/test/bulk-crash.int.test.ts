import { describe, expect, it, vi } from 'vitest';
import { untilFinished } from './build-test-app.js';
import { crashHarness } from './support/crash-harness.js';

describe('a server killed in the middle of a bulk tests run', () => {
  const crash = crashHarness('ce-bulk-crash');
  const { sandbox, world, token } = crash;

  it('resumes after a restart and creates every test exactly once (counted at the platform)', async () => {
    const cloud = world.agents.find((agent) => agent.agentType === 'cloud')?.agentName ?? '';

    const client = await crash.start();
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
    crash.slow();
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
    await crash.kill();
    const createdBeforeRestart = world.tests.filter((test) => test.testName.startsWith('Crash ')).length;
    expect(createdBeforeRestart).toBeLessThan(expected);

    await crash.restart();
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
