import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { measurementsSchema, type Measurements, type Watch, type WatchRun } from '@ce/contract';
import { watchRuns } from '../../src/db/schema.js';
import { untilFinished, type TestApp, type TestClient } from '../build-test-app.js';

/** The account group the sandbox plants its measured cases in. */
export const MEASURED_GROUP = 'Acme - EMEA Branches';

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
