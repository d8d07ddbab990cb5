import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { untilFinished } from './build-test-app.js';
import { HttpClient, startServer } from './child-server.js';

describe('a server killed in the middle of a report', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-crash-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  });

  it('finishes the report exactly once after a restart, and keeps no token', async () => {
    const first = await startServer(dataDir);
    children.push(first.process);
    const client = new HttpClient(first.url);
    await client.call('GET', '/api/app-info');
    expect(
      (await client.call('POST', '/api/session', { email: 'tam@demo.local', password: 'demo-password' })).status,
    ).toBe(200);
    await client.call('PUT', '/sandbox/te/scenario', { latencyMs: 400 });
    const { token } = (await client.call('GET', '/sandbox/te/tokens')).body.tokens[0];
    const groups = (await client.call('POST', '/api/account-groups', { token })).body.accountGroups;
    const created = await client.call('POST', '/api/reports', {
      kind: 'alerts-config',
      token,
      organization: { id: groups[0].organizationId, name: groups[0].organizationName },
      accountGroups: groups,
      options: {},
    });
    expect(created.status).toBe(202);
    const id = created.body.id as string;

    await vi.waitFor(
      async () => {
        const { body } = await client.call('GET', `/api/reports/${id}`);
        expect(body).toMatchObject({ status: 'running' });
        expect(body.progress.done).toBeGreaterThanOrEqual(1);
      },
      { timeout: 60_000, interval: 200 },
    );
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));

    const second = await startServer(dataDir);
    children.push(second.process);
    client.base = second.url;
    const done = await untilFinished(async () => (await client.call('GET', `/api/reports/${id}`)).body);
    expect(done).toMatchObject({
      status: 'done',
      progress: { done: 7, total: 7 },
      delivery: { status: 'delivered' },
    });
    expect(done.artifacts.map((artifact: { filename: string }) => artifact.filename.split('.').pop()).sort()).toEqual([
      'html',
      'xlsx',
    ]);
    const inbox = (await client.call('GET', '/sandbox/webex/messages?toPersonEmail=tam@demo.local')).body.items;
    expect(inbox).toHaveLength(1);

    second.process.kill('SIGTERM');
    await new Promise((resolve) => second.process.once('exit', resolve));
    const database = new PGlite(path.join(dataDir, 'pglite'));
    // Taken twice (the worker that died, then the one that finished it): a third run would need a third
    // claim, which a finished report refuses (see the reports tests); and no queue job is left waiting
    // to try, besides the dead worker's, which finds it finished.
    const reports = await database.query<{ status: string; token_id: string | null; attempts: number }>(
      'select status, token_id, attempts from report_requests',
    );
    expect(reports.rows).toEqual([{ status: 'done', token_id: null, attempts: 2 }]);
    const waiting = await database.query(
      "select id from pgboss.job where name like 'reports.generate.%' and state in ('created', 'retry') and data->>'reportId' = $1",
      [id],
    );
    expect(waiting.rows).toEqual([]);
    expect((await database.query('select * from sealed_tokens')).rows).toEqual([]);
    const tables = await database.query<{ table_schema: string; table_name: string }>(
      "select table_schema, table_name from information_schema.tables where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'",
    );
    for (const { table_schema: schema, table_name: table } of tables.rows) {
      const rows = await database.query(`select * from "${schema}"."${table}"`);
      expect(JSON.stringify(rows.rows), `${schema}.${table}`).not.toContain(token);
    }
    await database.close();
  }, 240_000);
});
