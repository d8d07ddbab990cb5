import { afterAll, beforeAll, expect } from 'vitest';
import type { Backup, Drift, RestoreRun } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type DatabaseKind,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from '../build-test-app.js';

/**
 * What the backup suites share: the app and a signed-in TAM (made before and closed after the suite), the
 * demo group they back up ("Acme - Staging"), a backup taken to its end, a drift against live, and a
 * restore or its undo followed to its end.
 */
export function backupSuite(kind: DatabaseKind) {
  let testApp: TestApp;
  let tam: TestClient;
  let acme: SandboxCustomer;
  beforeAll(async () => {
    testApp = await createTestApp(kind);
    // Backups, drifts and restores read whole groups many times over here: the pacing has tests of its own. The
    // limit is raised before the first call: a window the product has already counted keeps its count until it ends.
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    acme = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });
  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const group = () => {
    const found = world().accountGroups.find((candidate) => candidate.accountGroupName === 'Acme - Staging');
    if (!found) throw new Error('the demo world has Acme - Staging');
    return found;
  };
  const readRun = (id: string) =>
    untilFinished(() =>
      tam.request({ method: 'GET', url: `/api/restores/${id}` }).then((answer) => answer.json<RestoreRun>()),
    );
  return {
    app: () => testApp,
    tam: () => tam,
    acme: () => acme,
    world,
    group,
    async backUp(): Promise<Backup> {
      const response = await tam.request({
        method: 'POST',
        url: '/api/backups',
        payload: { token: acme.token, organization: acme.organization, accountGroups: [{ aid: group().aid }] },
      });
      expect(response.statusCode, response.body).toBe(202);
      const [queued] = response.json<{ backups: Backup[] }>().backups;
      return untilFinished(() =>
        tam.request({ method: 'GET', url: `/api/backups/${queued?.id}` }).then((answer) => answer.json<Backup>()),
      );
    },
    async driftNow(backupId: string): Promise<Drift> {
      const response = await tam.request({
        method: 'POST',
        url: `/api/backups/${backupId}/drift`,
        payload: { token: acme.token },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Drift>();
    },
    /** Starts a restore of `backupId` with the customer's token and follows it to its end. */
    async restore(backupId: string, request: Record<string, unknown>): Promise<RestoreRun> {
      const started = await tam.request({
        method: 'POST',
        url: `/api/backups/${backupId}/restore`,
        payload: { token: acme.token, ...request },
      });
      expect(started.statusCode, started.body).toBe(202);
      return readRun(started.json<RestoreRun>().id);
    },
    async undo(runId: string): Promise<RestoreRun> {
      const undo = await tam.request({
        method: 'POST',
        url: `/api/restores/${runId}/undo`,
        payload: { token: acme.token },
      });
      expect(undo.statusCode, undo.body).toBe(202);
      return readRun(undo.json<RestoreRun>().id);
    },
  };
}
