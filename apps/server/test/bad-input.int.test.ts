import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './build-test-app.js';
import { createTestApp, signedInClient, type TestApp } from './build-test-app.js';

describe('bad input and floods, answered in words', () => {
  let testApp: TestApp;
  let tam: TestClient;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WORKERS_ENABLED: 'false' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers 404 in words for a restore or a migration read as a bulk run, never 500', async () => {
    const sql = async <T>(text: string, values: unknown[] = []) =>
      (await testApp.database.sql.executeSql(text, values)).rows as T[];
    const [user] = await sql<{ id: string }>("select id from users where email = 'tam@demo.local'");
    for (const kind of ['restore', 'undo-restore', 'alerts-migration', 'undo-alerts-migration']) {
      const [run] = await sql<{ id: string }>(
        `insert into change_sets (user_id, kind, organization_id, organization_name, input, status)
         values ($1, $2, '9000', 'Acme', '{"aid": "1"}', 'done') returning id`,
        [user?.id, kind],
      );
      const read = await tam.request({ method: 'GET', url: `/api/bulk/runs/${run?.id}` });
      expect([read.statusCode, read.json().error.message], kind).toEqual([
        404,
        "No such bulk run: that id is another tool's change (a restore or an alerts migration).",
      ]);
    }
  });

  it('records the first bogus bearer token in the security log and counts the rest from the same address, not a row each', async () => {
    const bogus = (url: string, remoteAddress: string) =>
      testApp.app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: 'Bearer cet_bogus' } });
    for (let request = 0; request < 100; request++) {
      const answer = await bogus(request % 2 ? '/api/app-info' : '/api/reports', '198.51.100.90');
      expect(answer.statusCode).toBe(401);
    }
    await bogus('/api/app-info', '198.51.100.91');
    const { rows } = await testApp.database.sql.executeSql(
      "select ip_address, detail, count from security_events where type = 'api_token_refused' order by id",
    );
    const flood = (rows as { ip_address: string; detail: string; count: number }[]).filter(
      (row) => row.ip_address === '198.51.100.90',
    );
    // One row, or two when the flood straddles the end of a counting window; every request counted.
    expect(flood.length).toBeGreaterThanOrEqual(1);
    expect(flood.length).toBeLessThanOrEqual(2);
    expect(flood[0]).toMatchObject({ detail: 'an unknown token' });
    expect(flood.reduce((sum, row) => sum + row.count, 0)).toBe(100);
    expect(rows).toContainEqual({ ip_address: '198.51.100.91', detail: 'an unknown token', count: 1 });
  });
});
