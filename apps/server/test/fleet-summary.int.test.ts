import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { eq } from 'drizzle-orm';
import type { FleetSummary, Measurements, PortfolioEntry, Watch } from '@ce/contract';
import { reportRequests, users, watchRuns } from '../src/db/schema.js';
import { FLEET_CSV_COLUMNS } from '../src/modules/watch/watch-fleet.service.js';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { watchRequest } from './support/watches.js';

const DAY_MS = 86_400_000;
const UNITS_UNREADABLE = 'the token lacks the View usage permission';

/** What a watch run keeps (the contract's measurementsSchema): `units` and `tests` as the case needs them. */
function measured(to: Date, parts: Pick<Measurements, 'units' | 'tests'>): Measurements {
  return {
    from: new Date(to.getTime() - 7 * DAY_MS).toISOString(),
    to: to.toISOString(),
    ...parts,
    rules: { ok: true, value: [] },
    agents: { ok: true, value: { enterprise: 4, offline: [], erroring: 0, outdated: 1 } },
    endpoints: { ok: false, reason: 'the organization has no endpoint agents' },
    changes: { ok: true, value: [] },
  };
}
const test = (testName: string, results: number, good: number) => ({
  testId: testName.toLowerCase().replace(/\W+/g, '-'),
  testName,
  accountGroup: 'Acme - EMEA Branches',
  availability: Math.round((good / results) * 1000) / 10,
  latencyMs: 42.5,
  results,
  good,
  rounds: results / 2,
  agents: 2,
  failingAgents: good < results ? 1 : 0,
  failingSince: null,
});

/**
 * The fleet summary of a TAM's book (issue 60): per customer the caller watches, the figures of the latest stored
 * measurements of their own watches (units against included and the day they run out, tests below the availability
 * target), what could not be read said in words, the last review pack they may open and when the next is due; as
 * JSON and as a CSV download. Another user's watches, runs and packs are not shown.
 */
describe('the fleet summary of a TAM’s book', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let engineering: TestClient;
  let acme: SandboxCustomer;
  let globex: SandboxCustomer;
  const now = Date.now();
  const latestAcme = measured(new Date(now - DAY_MS), {
    units: {
      ok: true,
      value: {
        periodStart: '2026-01-01T00:00:00Z',
        periodEnd: '2027-01-01T00:00:00Z',
        used: 61_250,
        projected: 131_400.5,
        included: 120_000,
        runOutAt: '2026-11-20T00:00:00Z',
        consumers: [{ testName: 'Checkout API', accountGroup: 'Acme - EMEA Branches', used: 20_000 }],
        instant: 12,
      },
    },
    tests: {
      ok: true,
      value: [test('Checkout API', 1000, 940), test('Intranet', 1000, 1000), test('Branch VPN', 1000, 985)],
    },
  });

  const watchOver = async (client: TestClient, customer: SandboxCustomer): Promise<Watch> => {
    const created = await client.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(customer, { runs: 'health' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<Watch>();
  };
  /** A finished run of the watch that kept these measurements, made `daysAgo` days ago. */
  const storeRun = async (watch: Watch, daysAgo: number, measurements: Measurements) => {
    const at = new Date(now - daysAgo * DAY_MS);
    await testApp.database.db.insert(watchRuns).values({
      watchId: watch.id,
      userId: await userId(watch.owner.email),
      kind: 'health',
      organizationId: watch.organizationId,
      organizationName: watch.organizationName,
      accountGroups: watch.accountGroups,
      dueAt: at,
      trigger: 'schedule',
      status: 'done',
      createdAt: at,
      startedAt: at,
      finishedAt: at,
      score: 80,
      measurements,
      deliveryStatus: 'sent',
    });
  };
  const userId = async (email: string) => {
    const [found] = await testApp.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!found) throw new Error(`no user ${email}`);
    return found.id;
  };
  /** A review pack's report of `email` over the customer for the period, finished or not. */
  const storePack = async (
    email: string,
    customer: SandboxCustomer,
    period: { kind: string; from: string; to: string },
    status = 'done',
  ) => {
    const [row] = await testApp.database.db
      .insert(reportRequests)
      .values({
        userId: await userId(email),
        kind: 'review-pack',
        organizationId: customer.organization.id,
        organizationName: customer.organization.name,
        status,
        accountGroups: customer.groups.slice(0, 1),
        options: { period, keyTests: [], narrative: { goals: [], highlights: [], nextSteps: [] } },
        finishedAt: status === 'done' ? new Date() : null,
      })
      .returning({ id: reportRequests.id });
    return row?.id ?? '';
  };

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    engineering = await signedInClient(testApp.app, 'engineering@demo.local');
    acme = await sandboxCustomer(testApp, tam);
    const world = testApp.sandbox?.platform.world;
    const other = world?.organizations.find((organization) => organization.orgId !== acme.organization.id);
    const globexToken = world?.tokens.find((token) => token.kind === 'org-admin' && token.orgId === other?.orgId);
    if (!globexToken) throw new Error('the demo world has a second organization');
    const answer = await tam.request({
      method: 'POST',
      url: '/api/account-groups',
      payload: { token: globexToken.token },
    });
    const listed = answer.json<{
      accountGroups: { aid: string; accountGroupName: string; organizationId: string; organizationName: string }[];
    }>().accountGroups;
    const first = listed[0];
    if (!first) throw new Error(answer.body);
    globex = {
      token: globexToken.token,
      organization: { id: first.organizationId, name: first.organizationName },
      groups: listed.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
    };

    const tamAcme = await watchOver(tam, acme);
    const tamGlobex = await watchOver(tam, globex);
    const theirs = await watchOver(engineering, globex);
    // Acme: an older run and the latest; the summary takes the latest.
    await storeRun(tamAcme, 8, measured(new Date(now - 8 * DAY_MS), { ...latestAcme, tests: { ok: true, value: [] } }));
    await storeRun(tamAcme, 1, latestAcme);
    // Globex: the TAM's watch could not read usage; engineering's own later run could, and is not the TAM's to see.
    await storeRun(
      tamGlobex,
      2,
      measured(new Date(now - 2 * DAY_MS), {
        units: { ok: false, reason: UNITS_UNREADABLE },
        tests: { ok: true, value: [test('Globex portal', 200, 150)] },
      }),
    );
    await storeRun(theirs, 0, { ...latestAcme, to: new Date(now).toISOString() });
    // Packs: the TAM's Q1 of Acme (finished), a Q2 still running, and engineering's own Q2 of Acme.
    await storePack('tam@demo.local', acme, { kind: 'quarter', from: '2026-01-01', to: '2026-03-31' });
    await storePack('tam@demo.local', acme, { kind: 'quarter', from: '2026-04-01', to: '2026-06-30' }, 'running');
    await storePack('engineering@demo.local', acme, { kind: 'quarter', from: '2026-04-01', to: '2026-06-30' });
    await storePack('engineering@demo.local', globex, { kind: 'month', from: '2026-05-01', to: '2026-05-31' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('shows in My customers each customer’s last pack the caller may open and when the next is due', async () => {
    const answer = await tam.request({ url: '/api/watch-portfolio' });
    expect(answer.statusCode, answer.body).toBe(200);
    const customers = answer.json<{ customers: PortfolioEntry[] }>().customers;
    const acmeEntry = customers.find((entry) => entry.organizationId === acme.organization.id);
    expect(acmeEntry?.lastPack).toMatchObject({
      periodKind: 'quarter',
      from: '2026-01-01',
      to: '2026-03-31',
      periodLabel: 'Q1 2026',
    });
    expect(acmeEntry?.nextPackDue).toBe('2026-07-01');
    const globexEntry = customers.find((entry) => entry.organizationId === globex.organization.id);
    expect(globexEntry).toMatchObject({ lastPack: null, nextPackDue: null });
  });

  it('gives the figures of the latest stored measurements of the caller’s own watches', async () => {
    const answer = await tam.request({ url: '/api/watch-portfolio/fleet' });
    expect(answer.statusCode, answer.body).toBe(200);
    const summary = answer.json<FleetSummary>();
    expect(summary.availabilityTargetPercent).toBe(99);
    expect(summary.customers.map((entry) => entry.organizationName).sort()).toEqual(
      [acme.organization.name, globex.organization.name].sort(),
    );
    const acmeRow = summary.customers.find((entry) => entry.organizationId === acme.organization.id);
    const units = latestAcme.units.ok ? latestAcme.units.value : null;
    expect(acmeRow).toMatchObject({
      owners: ['tam@demo.local'],
      measuredAt: latestAcme.to,
      units: {
        ok: true,
        value: {
          used: units?.used,
          projected: units?.projected,
          included: units?.included,
          runOutAt: units?.runOutAt,
          termEnd: units?.periodEnd,
        },
      },
      // Below 99% of good rounds, the worst first; the test at 100% is not listed.
      belowTarget: {
        ok: true,
        value: [
          { testName: 'Checkout API', accountGroup: 'Acme - EMEA Branches', availability: 94 },
          { testName: 'Branch VPN', accountGroup: 'Acme - EMEA Branches', availability: 98.5 },
        ],
      },
      lastPack: { periodLabel: 'Q1 2026' },
      nextPackDue: '2026-07-01',
    });
    const globexRow = summary.customers.find((entry) => entry.organizationId === globex.organization.id);
    expect(globexRow?.units).toEqual({ ok: false, reason: UNITS_UNREADABLE });
    expect(globexRow?.belowTarget).toEqual({
      ok: true,
      value: [{ testName: 'Globex portal', accountGroup: 'Acme - EMEA Branches', availability: 75 }],
    });
    expect(globexRow?.lastPack).toBeNull();
  });

  it('shows another user only their own watches and packs', async () => {
    const summary = (await engineering.request({ url: '/api/watch-portfolio/fleet' })).json<FleetSummary>();
    expect(summary.customers.map((entry) => entry.organizationId)).toEqual([globex.organization.id]);
    expect(summary.customers[0]).toMatchObject({
      owners: ['engineering@demo.local'],
      units: { ok: true },
      lastPack: { periodLabel: 'May 2026' },
      nextPackDue: '2026-07-01',
    });
  });

  it('downloads as a CSV that opens with the summary’s columns and the same figures', async () => {
    const answer = await tam.request({ url: '/api/watch-portfolio/fleet?format=csv' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="fleet-summary-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(answer.body.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(answer.body.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(FLEET_CSV_COLUMNS);
    const byName = new Map(parsed.data.map((row) => [row.Customer, row]));
    expect(byName.get(acme.organization.name)).toMatchObject({
      Owners: 'tam@demo.local',
      'Units used': '61250',
      'Units projected': '131400.5',
      'Units included': '120000',
      'Term ends': '2027-01-01',
      'Units run out on': '2026-11-20',
      'Tests below 99% availability': '2',
      'Tests below target (worst first)':
        'Checkout API (Acme - EMEA Branches) 94.0%; Branch VPN (Acme - EMEA Branches) 98.5%',
      'Last pack': 'Q1 2026',
      'Next pack due': '2026-07-01',
    });
    expect(byName.get(globex.organization.name)).toMatchObject({
      'Units used': `Could not be determined: ${UNITS_UNREADABLE}`,
      'Tests below 99% availability': '1',
      'Last pack': 'No pack yet',
      'Next pack due': '',
    });
  });
});
