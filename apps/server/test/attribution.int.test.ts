import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkRun, CustomerTimeline, Watch, WatchRun } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import {
  bgpTemplate,
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { watchRequest } from './support/watches.js';

/** A day as the words say it, in the watch's time zone (UTC): "5 Dec". */
const today = () =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date());

describe('Ours or theirs: drift, the watch message and the timeline say who made each change', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let watch: Watch;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0' });
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    const created = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(customer, { runs: 'backup' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    watch = created.json<Watch>();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const group = () => customer.groups[0] ?? { aid: '', accountGroupName: '' };
  const runNow = async (count: number): Promise<WatchRun> => {
    const started = await tam.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` });
    expect(started.statusCode, started.body).toBe(202);
    return untilFinished(async () => {
      const runs = (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
      expect(runs).toHaveLength(count);
      const [latest] = runs;
      if (!latest) throw new Error('no run yet');
      return latest;
    }, 110_000);
  };
  /** A direct v7 call with the customer's own token, as their admin would make it. */
  const asTheCustomer = (method: 'GET' | 'DELETE', path: string) =>
    testApp.app.inject({
      method,
      url: `/sandbox/te/v7${path}${path.includes('?') ? '&' : '?'}aid=${group().aid}`,
      headers: { authorization: `Bearer ${customer.token}` },
    });

  it("tells our bulk run's test from the test the customer's admin deleted, in drift, message and timeline", async () => {
    const baseline = await runNow(1);
    expect(baseline.status, baseline.error ?? '').toBe('done');

    // Through the toolkit: a bulk run creates a test in the watched group.
    const bulk = await tam.request({
      method: 'POST',
      url: '/api/bulk/runs',
      payload: {
        kind: 'tests',
        token: customer.token,
        organization: customer.organization,
        accountGroups: customer.groups.slice(0, 1),
        templates: [bgpTemplate('BGP - ours, made by the toolkit')],
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(202);
    const made = await untilFinished(async () =>
      (await tam.request({ url: `/api/bulk/runs/${bulk.json<BulkRun>().id}` })).json<BulkRun>(),
    );
    expect(made.totals).toMatchObject({ done: 1, failed: 0 });

    // At the platform, as the customer: their admin deletes one of the group's tests with their own token.
    const tests = (await asTheCustomer('GET', '/tests')).json<{
      tests: { testId: string; testName: string; type: string }[];
    }>().tests;
    const theirs = tests.find((test) => test.testName !== 'BGP - ours, made by the toolkit');
    if (!theirs) throw new Error('the group has no test to delete');
    expect((await asTheCustomer('DELETE', `/tests/${theirs.type}/${theirs.testId}`)).statusCode).toBe(204);
    const admin = (await asTheCustomer('GET', '/users/current')).json<{ email: string }>().email;

    const run = await runNow(2);
    expect(run.status, run.error ?? '').toBe('done');
    const ours = `by us (Taylor TAM, bulk run, ${today()})`;
    const customers = `by the customer (${admin}, per the platform's audit log)`;

    // The message: each change with its actor.
    const message = (run.message ?? '').replace(/\\(.)/g, '$1');
    const lines = message.split('\n').filter((line) => line.startsWith(`- ${group().accountGroupName}: `));
    expect(lines).toContainEqual(expect.stringMatching(/test 'BGP - ours, made by the toolkit' added — by us \(/));
    expect(lines.find((line) => line.includes("'BGP - ours, made by the toolkit' added"))).toContain(ours);
    expect(lines.find((line) => line.includes(`test '${theirs.testName}' removed`))).toContain(customers);
    const sent = (testApp.sandbox?.webex.messages ?? []).filter((each) => each.toPersonEmail === 'tam@demo.local');
    expect(sent.at(-1)?.markdown?.replaceAll('\r\n', '\n')).toBe(run.message);
    // Its drift link opens the drift view: the customer's changes on its page.
    expect(message).toContain(`/home/customers/${customer.organization.id}?tool=changes&days=30#timeline-heading`);

    // The drift kept on the run (what the drift view reads): the actor of each line.
    const kept = (
      await testApp.database.sql.executeSql('select changes::text as changes from watch_runs where id = $1', [run.id])
    ).rows[0] as { changes: string };
    const drift = (JSON.parse(kept.changes) as { drift: { name: string; change: string; by: { by: string } }[] }).drift;
    expect(drift.find((line) => line.name === 'BGP - ours, made by the toolkit')?.by).toMatchObject({
      by: 'us',
      name: 'Taylor TAM',
      tool: 'bulk run',
    });
    expect(drift.find((line) => line.name === theirs.testName && line.change === 'removed')?.by).toEqual({
      by: 'customer',
      user: admin,
      at: expect.any(String),
    });

    // The timeline: the changes at the customer, each with who made it; ours links to the run that made it.
    const timeline = (
      await tam.request({ url: `/api/customers/${customer.organization.id}/timeline?tool=changes&days=7` })
    ).json<CustomerTimeline>();
    const entry = (name: string) => timeline.entries.find((each) => each.what.includes(`'${name}'`));
    expect(entry('BGP - ours, made by the toolkit')).toMatchObject({
      tool: 'changes',
      what: "test 'BGP - ours, made by the toolkit' added",
      by: { kind: 'us', words: ours },
      person: { name: 'Taylor TAM', email: 'tam@demo.local' },
      path: `/home/tools/bulk-tests?run=${made.id}`,
    });
    expect(entry(theirs.testName)).toMatchObject({
      tool: 'changes',
      by: { kind: 'customer', words: customers },
      person: { name: admin, email: admin },
    });
    // The header's count of changes is the timeline's.
    const overview = (await tam.request({ url: `/api/customers/${customer.organization.id}/overview?days=7` })).json<{
      period: { drift: number; runs: { tool: string }[] };
    }>();
    expect(overview.period.drift).toBe(timeline.entries.length);
    expect(overview.period.runs.map((each) => each.tool)).not.toContain('changes');
  });

  it('says unknown for a change neither our journal nor the audit log tells', async () => {
    // A change made outside the API (the sandbox's world change): no write of ours, no audit event.
    const changed = await testApp.app.inject({
      method: 'POST',
      url: '/sandbox/te/world-changes',
      payload: { change: 'rename-rule', organizationId: customer.organization.id, aid: group().aid },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const renamed = /^alert rule '(.+)' renamed '(.+)'$/.exec(changed.json<{ what: string }>().what);
    const run = await runNow(3);
    expect(run.status, run.error ?? '').toBe('done');
    const message = (run.message ?? '').replace(/\\(.)/g, '$1');
    expect(message).toContain(`alert rule '${renamed?.[1]}' renamed to '${renamed?.[2]}' — by unknown`);
    const timeline = (
      await tam.request({ url: `/api/customers/${customer.organization.id}/timeline?tool=changes&days=7` })
    ).json<CustomerTimeline>();
    expect(timeline.entries.find((each) => each.what.includes(`'${renamed?.[2]}'`))?.by).toEqual({
      kind: 'unknown',
      words: 'by unknown',
    });
  });
});
