import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { measurementsSchema, type Measurements, type Watch, type WatchRun } from '@ce/contract';
import { watchRuns } from '../../src/db/schema.js';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from '../build-test-app.js';
import { watchRequest } from './watches.js';

/** The account group the sandbox plants its measured cases in. */
export const MEASURED_GROUP = 'Acme - EMEA Branches';

/** The measured group as the customer's token sees it. */
export function measuredGroup(customer: SandboxCustomer): SandboxCustomer['groups'][number] {
  const found = customer.groups.find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
  if (!found) throw new Error(`the token sees no ${MEASURED_GROUP}`);
  return found;
}

/**
 * An app whose sandbox no test waits on (a limit far past what a run spends, "Run now" at any time), the TAM signed
 * in, the sandbox customer, and the TAM's health-check watch over the measured group.
 */
export async function measuredWatchSuite(): Promise<{
  testApp: TestApp;
  tam: TestClient;
  customer: SandboxCustomer;
  watch: Watch;
}> {
  const testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0' });
  testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
  const tam = await signedInClient(testApp.app, 'tam@demo.local');
  const customer = await sandboxCustomer(testApp, tam);
  const created = await tam.request({
    method: 'POST',
    url: '/api/watches',
    payload: watchRequest(customer, { accountGroups: [measuredGroup(customer)], runs: 'health' }),
  });
  expect(created.statusCode, created.body).toBe(201);
  return { testApp, tam, customer, watch: created.json<Watch>() };
}

/** Runs the watch now as `client` and waits until its `count`th run has finished, done. */
export async function runWatchNow(client: TestClient, watch: Watch, count: number): Promise<WatchRun> {
  const started = await client.request({ method: 'POST', url: `/api/watches/${watch.id}/runs` });
  expect(started.statusCode, started.body).toBe(202);
  const run = await untilFinished(async () => {
    const runs = (await client.request({ url: `/api/watches/${watch.id}/runs` })).json<{ runs: WatchRun[] }>().runs;
    expect(runs).toHaveLength(count);
    const [latest] = runs;
    if (!latest) throw new Error('no run yet');
    return latest;
  }, 300_000);
  expect(run.status, run.error ?? '').toBe('done');
  return run;
}

/** What a watch run's row keeps of what the platform measured. */
export async function keptMeasurements(testApp: TestApp, runId: string): Promise<Measurements> {
  const [row] = await testApp.database.db.select().from(watchRuns).where(eq(watchRuns.id, runId));
  return measurementsSchema.parse(row?.measurements);
}

/** The health score a watch run kept. */
export async function keptScore(testApp: TestApp, runId: string): Promise<number | null> {
  const [row] = await testApp.database.db
    .select({ score: watchRuns.score })
    .from(watchRuns)
    .where(eq(watchRuns.id, runId));
  return row?.score ?? null;
}
