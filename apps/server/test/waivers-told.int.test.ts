import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import type { CustomerOverview, PortfolioEntry, Watch, WatchFindings, WatchRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { watchRequest } from './support/watches.js';

/** Friday 2026-11-27 07:00 UTC. */
const START = new Date('2026-11-27T07:00:00Z');

/**
 * A waiver someone other than a watch's owner made: the owner's next message says who, why and until
 * when; My customers, the customer page's header and findings and the watch's findings count it the same way, at once.
 */
describe("a waiver of a watch's finding by someone else", () => {
  let testApp: TestApp;
  let tam: TestClient;
  let engineering: TestClient;
  let customer: SandboxCustomer;
  let watch: Watch;
  let now = START;
  let waivedName = '';

  beforeAll(async () => {
    testApp = await createTestApp('pglite', {}, { clock: () => now });
    // Scheduled work spends at most half of the sandbox's 240 a minute (PLATFORM_SCHEDULED_SHARE): a run past that
    // share waited for the next window, near this test's deadline on a busy machine. The pacing has tests of its own
    // (scheduled-share); a high limit keeps each run here to its own work. Set before the first call: a window the
    // product has counted keeps its count until it ends.
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    const created = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(customer, {
        runs: 'health',
        schedule: { cadence: 'daily', time: '07:01', timeZone: 'UTC' },
        // The owner asked to hear of score drops of 50 points only: a waiver by someone else is said all the same.
        speakWhen: { anyChange: false, scoreDrop: 50, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false },
      }),
    });
    expect(created.statusCode, created.body).toBe(201);
    watch = created.json<Watch>();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const messagesToTam = () =>
    (testApp.sandbox?.webex.messages ?? []).filter((message) => message.toPersonEmail === 'tam@demo.local');
  const runs = async () =>
    (await tam.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
  /** Moves the watch's daily time a minute on, the clock to it, schedules, and waits for that run to end. */
  const nextRun = async (): Promise<WatchRun> => {
    const before = (await runs()).length;
    const due = new Date(now.getTime() + 60_000);
    const { accountGroups, runs: what, channel, speakWhen } = watch;
    const edited = await tam.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}`,
      payload: {
        accountGroups,
        runs: what,
        channel,
        speakWhen,
        schedule: { cadence: 'daily', time: due.toISOString().slice(11, 16), timeZone: 'UTC' },
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    now = due;
    expect(await testApp.jobs.watchRuns.schedule()).toBe(1);
    return untilFinished(async () => {
      const listed = await runs();
      expect(listed).toHaveLength(before + 1);
      return listed[0] ?? { status: 'none' };
    }) as Promise<WatchRun>;
  };
  const findings = async () =>
    (await tam.request({ url: `/api/watches/${watch.id}/findings` })).json<WatchFindings>().findings;
  const portfolio = async () =>
    (await tam.request({ url: '/api/watch-portfolio' })).json<{ customers: PortfolioEntry[] }>().customers[0];
  /** The open findings the customer's page says in its header. */
  const customerPage = async () =>
    (await tam.request({ url: `/api/customers/${customer.organization.id}/overview` })).json<CustomerOverview>().health
      ?.findings;

  it('counts a waiver made since the latest run once, as waived, everywhere at once', async () => {
    const baseline = await nextRun();
    expect(baseline.status, baseline.error ?? '').toBe('done');
    const open = await findings();
    expect(open.length).toBeGreaterThan(1);
    expect(await portfolio()).toMatchObject({ openFindings: open.length, waivedFindings: 0 });
    expect(await customerPage()).toBe(open.length);
    const [first] = open;
    if (!first) throw new Error('an open finding');
    // engineering@ owns no watch: it waives with the customer's token, as the customer page sends it.
    const waived = await engineering.request({
      method: 'POST',
      url: '/api/watch-waivers',
      payload: {
        organizationId: customer.organization.id,
        checkId: first.checkId,
        itemKey: first.itemKey,
        // The caller's words for the item are not what the owner is told: the finding's own name is.
        itemName: 'Nothing to see [here](http://evil.example)',
        reason: 'Kept on purpose by the customer',
        days: 30,
        token: customer.token,
      },
    });
    expect(waived.statusCode, waived.body).toBe(201);
    expect(waived.json<{ itemName: string }>().itemName).toBe(first.name);
    waivedName = first.name;
    const after = await findings();
    expect(after).toHaveLength(open.length - 1);
    expect(after.some((finding) => finding.checkId === first.checkId && finding.itemKey === first.itemKey)).toBe(false);
    expect(await portfolio()).toMatchObject({ openFindings: open.length - 1, waivedFindings: 1 });
    expect(await customerPage()).toBe(open.length - 1);
  });

  it("says in the owner's next message who waived it, why and until when, and only once", async () => {
    const told = messagesToTam().length;
    const run = await nextRun();
    expect(run.status, run.error ?? '').toBe('done');
    expect(run.delivery.status).toBe('sent');
    expect(messagesToTam()).toHaveLength(told + 1);
    const message = (messagesToTam().at(-1)?.markdown ?? '').replaceAll('\r\n', '\n').replace(/\\(.)/g, '$1');
    expect(message).toContain('**Waived by someone else (1)**');
    expect(message).toMatch(
      /\n- .+: .+, waived by engineering@demo\.local until 2026-12-27: “Kept on purpose by the customer”/,
    );
    expect(message.replaceAll('&lt;', '<').replaceAll('&gt;', '>')).toContain(
      `${waivedName}, waived by engineering@demo.local`,
    );
    expect(message).not.toContain('Nothing to see');
    const quiet = await nextRun();
    expect(quiet.status, quiet.error ?? '').toBe('done');
    expect(quiet.delivery.status).toBe('quiet');
    expect(messagesToTam()).toHaveLength(told + 1);
  });
});
