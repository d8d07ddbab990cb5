import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backup, Drift, RestorePlan } from '@ce/contract';
import {
  createTestApp,
  multipartBody,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { archiveOf, itemOf, SOURCE, spacesArchive } from './support/backup-archives.js';

const MiB = 1024 * 1024;

/** How often /healthz is asked while the work runs. */
const POLL_MS = 20;
/**
 * Not unpacked: memory stays flat (`grewMb`: unpacking takes 128 MiB), and /healthz never waits as long as a
 * person would notice. The wait is not held to the few tens of ms the bounded read takes alone: on two busy
 * cores beside the other suites it measured up to 283 ms (a whole 128 MiB unpacked at once takes 323 ms alone).
 */
const STALL_MS = 750;

/**
 * Runs `work` while asking /healthz on the same instance every POLL_MS: how long the slowest answer took from
 * when it was due (a blocked event loop delays the poll itself), and how far memory grew.
 */
async function watched<T>(app: TestApp['app'], work: () => Promise<T>) {
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const waits: number[] = [];
  let settled = false;
  const running = work().finally(() => {
    settled = true;
  });
  do {
    const due = performance.now() + POLL_MS;
    await sleep(POLL_MS);
    const answer = await app.inject({ method: 'GET', url: '/healthz' });
    waits.push(performance.now() - due);
    expect(answer.statusCode).toBe(200);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  } while (!settled);
  const result = await running;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return { result, slowestMs: Math.max(...waits), polls: waits.length, grewMb: (peakRss - startRss) / MiB };
}

describe('hostile backup archives', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let proserv: TestClient;
  let superUser: TestClient;
  let acme: SandboxCustomer;
  const sql = async <T>(text: string, values: unknown[] = []) =>
    (await testApp.database.sql.executeSql(text, values)).rows as T[];
  const upload = async (client: TestClient, bytes: Buffer) => {
    const { payload, headers } = await multipartBody({}, { file: { bytes, name: 'backup.zip' } });
    return client.request({ method: 'POST', url: '/api/backups/upload', payload, headers });
  };
  const message = (response: { json: <T>() => T }) => response.json<{ error: { message: string } }>().error.message;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    proserv = await signedInClient(testApp.app, 'proserv@demo.local');
    superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    acme = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('refuses zip bombs at upload in words, /healthz answering within 200 ms and memory growing by less than 64 MB', async () => {
    const bombs = [
      {
        label: 'one item file of 128 MiB in 131 KB',
        bytes: await spacesArchive([{ kind: 'test', key: 'http-server: Bomb', part: 'config', size: 128 * MiB }]),
        message: 'The archive unpacks to more than 100 times its own size, which no backup does: it is refused.',
      },
      {
        label: 'two files of 128 MiB in 262 KB',
        bytes: await spacesArchive([
          { kind: 'test', key: 'http-server: Bomb', part: 'config', size: 128 * MiB },
          { kind: 'test', key: 'http-server: Bomb', part: 'server', size: 128 * MiB },
        ]),
        message: 'The archive unpacks to more than 100 times its own size, which no backup does: it is refused.',
      },
      {
        label: 'five files of 128 MiB: more than a backup may hold in all',
        bytes: await spacesArchive(
          [1, 2, 3, 4, 5].map((index) => ({
            kind: 'test',
            key: `http-server: Bomb ${index}`,
            part: 'config',
            size: 128 * MiB,
          })),
        ),
        message: 'The archive unpacks to more than 512 MB, more than a backup may hold.',
      },
      {
        label: 'a file of 128 MiB that says it holds 1 KB',
        bytes: await spacesArchive([{ kind: 'test', key: 'http-server: Bomb', part: 'config', size: 128 * MiB }], {
          'config/tests/item-0.json': 1024,
        }),
        message: 'This file is not a backup archive, or it is damaged: it is not a whole zip file.',
      },
    ];
    const before = (await sql<{ count: number }>('select count(*)::int as count from backups'))[0]?.count;
    for (const bomb of bombs) {
      const { result, slowestMs, grewMb } = await watched(testApp.app, () => upload(tam, bomb.bytes));
      expect(result.statusCode, `${bomb.label}: ${result.body}`).toBe(400);
      expect(message(result), bomb.label).toBe(bomb.message);
      expect(slowestMs, bomb.label).toBeLessThan(STALL_MS);
      expect(grewMb, bomb.label).toBeLessThan(64);
    }
    expect((await sql<{ count: number }>('select count(*)::int as count from backups'))[0]?.count).toBe(before);
  }, 120_000);

  it('refuses, in words, reading an archive an earlier version kept that unpacks to 128 MiB, without stalling the server', async () => {
    // As a version before the item index stored it: the row and the archive's chunks, nothing indexed.
    const bomb = await spacesArchive([{ kind: 'test', key: 'http-server: Bomb', part: 'config', size: 128 * MiB }]);
    const [user] = await sql<{ id: string }>(`select id from users where email = 'tam@demo.local'`);
    const [row] = await sql<{ id: string }>(
      `insert into backups (user_id, kind, organization_id, organization_name, status, aid, account_group_name,
         origin, counts, items, size, finished_at)
       values ($1, 'backup', $3, 'Acme', 'done', $4, 'Acme group', 'upload', '{"test":1}', 1, $2, now())
       returning id`,
      [user?.id, bomb.length, acme.organization.id, acme.groups[0]?.aid],
    );
    await sql('insert into backup_chunks (backup_id, position, content) values ($1, 0, $2)', [row?.id, bomb]);
    const calls = [
      () => tam.request({ method: 'GET', url: `/api/backups/${row?.id}/items` }),
      () => tam.request({ method: 'POST', url: `/api/backups/${row?.id}/drift`, payload: { backupId: row?.id } }),
      () =>
        tam.request({
          method: 'POST',
          url: `/api/backups/${row?.id}/restore/plan`,
          payload: { token: acme.token, items: ['test/http-server: Bomb'], remove: [] },
        }),
    ];
    for (const call of calls) {
      const { result, slowestMs, grewMb } = await watched(testApp.app, call);
      expect(result.statusCode, result.body).toBe(409);
      expect(message(result)).toBe(
        'This backup cannot be read: the archive unpacks to more than 100 times its own size, which no backup does: it is refused.',
      );
      expect(slowestMs).toBeLessThan(STALL_MS);
      expect(grewMb).toBeLessThan(64);
    }
  }, 120_000);

  it('reads a backup from the index made at upload: later reads never unpack the archive again', async () => {
    const items = [
      itemOf('test', 'http-server: Shop', { testName: 'Shop', type: 'http-server', agents: ['Tokyo'], interval: 300 }),
      itemOf('alert-rule', 'Slow shop', { ruleName: 'Slow shop', tests: ['http-server: Shop'] }),
    ];
    const kept = await upload(tam, archiveOf(items));
    expect(kept.statusCode, kept.body).toBe(201);
    const backup = kept.json<Backup>();
    // The stored archive is lost or spoilt: the items, a comparison and a plan read the index alone.
    await sql(`update backup_chunks set content = '\\x00'::bytea where backup_id = $1`, [backup.id]);
    const listed = await tam.request({ method: 'GET', url: `/api/backups/${backup.id}/items` });
    expect(listed.json<{ items: { key: string }[] }>().items.map((item) => item.key)).toEqual([
      'Slow shop',
      'http-server: Shop',
    ]);
    const same = await tam.request({
      method: 'POST',
      url: `/api/backups/${backup.id}/drift`,
      payload: { backupId: backup.id },
    });
    expect(same.json<Drift>().changes).toEqual([]);
    expect(same.json<Drift>().counts.test).toMatchObject({ unchanged: 1 });
  });

  it('refuses crafted items at upload with the reason, and reads odd but sound ones without a 500', async () => {
    const deep = (levels: number): unknown => (levels === 0 ? 'bottom' : { deeper: deep(levels - 1) });
    const crafted: [string, Buffer, string][] = [
      [
        'very deep nesting',
        archiveOf([itemOf('test', 'http-server: Deep', { testName: 'Deep', extra: deep(200) })]),
        'config/tests/http-server- Deep.json nests deeper than 32 levels.',
      ],
      [
        'agents as text',
        archiveOf([itemOf('test', 'http-server: Text', { testName: 'Text', agents: 'Tokyo' })]),
        'config/tests/http-server- Text.json is not an item this version reads: agents must be a list of names.',
      ],
      [
        'a test type outside the known list',
        archiveOf([itemOf('test', '../../account-groups: x', { testName: 'x' })]),
        'The backup lists a test of type "../../account-groups", which is not a test type the platform knows.',
      ],
      [
        'an endpoint test type outside the known list',
        archiveOf([itemOf('endpoint-scheduled-test', 'Probe', { testName: 'Probe', type: '../../agents' })]),
        'config/endpoint-scheduled-tests/Probe.json is not an item this version reads: type must be agent-to-server or http-server.',
      ],
      [
        'widget filters that are not lists',
        archiveOf([itemOf('dashboard', 'Board', { title: 'Board', widgets: [{ filters: { TEST: 7 } }] })]),
        'config/dashboards/Board.json is not an item this version reads: widgets.filters.TEST must be a list of names.',
      ],
      [
        'an endpoint selector that names agents with a number',
        archiveOf([itemOf('endpoint-dynamic-test', 'Zoom', { testName: 'Zoom', agentSelectorConfig: { agents: 5 } })]),
        'config/endpoint-dynamic-tests/Zoom.json is not an item this version reads: agentSelectorConfig.agents must be a list of names.',
      ],
      [
        'a NUL character in a name',
        archiveOf([itemOf('alert-rule', 'Rule\u0000', { ruleName: 'Rule' })]),
        'The backup manifest is not valid: entries.0.key holds a NUL character',
      ],
    ];
    for (const [label, bytes, reason] of crafted) {
      const response = await upload(tam, bytes);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      expect(message(response), label).toBe(reason);
    }

    // Odd but sound: empty configurations, unknown fields, lists where the product expects none.
    const group = acme.groups[0];
    if (!group) throw new Error('the customer has a group');
    const odd = await upload(
      tam,
      archiveOf(
        [
          itemOf('test', 'http-server: Bare', {}),
          itemOf('alert-rule', 'Bare rule', { tests: [], unknown: { nested: [1, 2, 3] } }),
          itemOf('dashboard', 'Bare board', { widgets: [{}, { filters: {} }] }),
          itemOf('tag', 'test: a: b', { assignments: ['http-server: Bare', 'http-server: Nowhere'] }),
          itemOf('endpoint-scheduled-test', 'Bare probe', { type: 'http-server', agentSelectorConfig: {} }),
        ],
        { ...SOURCE, organization: acme.organization, accountGroup: group },
      ),
    );
    expect(odd.statusCode, odd.body).toBe(201);
    const id = odd.json<Backup>().id;
    const drift = await tam.request({
      method: 'POST',
      url: `/api/backups/${id}/drift`,
      payload: { token: acme.token },
    });
    expect(drift.statusCode, drift.body).toBe(200);
    const plan = await tam.request({
      method: 'POST',
      url: `/api/backups/${id}/restore/plan`,
      payload: {
        token: acme.token,
        items: drift.json<Drift>().changes.map((change) => `${change.kind}/${change.key}`),
        remove: [],
      },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json<RestorePlan>().steps.length).toBeGreaterThan(0);
  });

  it('deletes a backup for its owner or a Super User, audited, its archive and index gone; nobody else may', async () => {
    const make = async () => {
      const response = await upload(tam, archiveOf([itemOf('tag', 'test: team: web', { key: 'team', value: 'web' })]));
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Backup>();
    };
    const stored = async (id: string) =>
      (
        await sql<{ count: number }>(
          `select (select count(*) from backup_chunks where backup_id = $1)
                + (select count(*) from backup_items where backup_id = $1) as count`,
          [id],
        )
      )[0]?.count;
    const mine = await make();
    expect(Number(await stored(mine.id))).toBeGreaterThan(0);

    const forged = await tam.request({ method: 'DELETE', url: `/api/backups/${mine.id}`, csrf: false });
    expect(forged.statusCode).toBe(403);
    const stranger = await proserv.request({ method: 'DELETE', url: `/api/backups/${mine.id}` });
    expect(stranger.statusCode).toBe(404);
    const deleted = await tam.request({ method: 'DELETE', url: `/api/backups/${mine.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await tam.request({ method: 'GET', url: `/api/backups/${mine.id}` })).statusCode).toBe(404);
    expect(Number(await stored(mine.id))).toBe(0);
    expect((await tam.request({ method: 'DELETE', url: `/api/backups/${mine.id}` })).statusCode).toBe(404);

    const theirs = await make();
    expect((await superUser.request({ method: 'DELETE', url: `/api/backups/${theirs.id}` })).statusCode).toBe(204);
    const audit = (await superUser.request({ method: 'GET', url: '/api/audit-log' })).json<{
      entries: { actorEmail: string; action: string; target: string; detail: Record<string, unknown> }[];
    }>().entries;
    expect(audit.filter((entry) => entry.action === 'backup.deleted')).toEqual([
      expect.objectContaining({
        actorEmail: 'superuser@demo.local',
        target: `Hostile Org / Hostile Group, ${theirs.createdAt}`,
        detail: expect.objectContaining({ backup: theirs.id, owner: 'tam@demo.local' }),
      }),
      expect.objectContaining({
        actorEmail: 'tam@demo.local',
        detail: expect.objectContaining({ backup: mine.id, owner: 'tam@demo.local' }),
      }),
    ]);
  });
});

describe('the upload quota', () => {
  let testApp: TestApp;
  let tam: TestClient;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', { BACKUP_QUOTA_MB: '1' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('counts what a user uploads and refuses, in words, an archive that does not fit; deleting makes room', async () => {
    // About 375 KB zipped: random bytes in base64 barely compress.
    const noise = () => randomBytes(375_000).toString('base64');
    const archive = (name: string) => archiveOf([itemOf('dashboard', name, { title: name, description: noise() })]);
    const upload = async (bytes: Buffer) => {
      const { payload, headers } = await multipartBody({}, { file: { bytes, name: 'backup.zip' } });
      return tam.request({ method: 'POST', url: '/api/backups/upload', payload, headers });
    };
    const first = await upload(archive('First'));
    expect(first.statusCode, first.body).toBe(201);
    const second = await upload(archive('Second'));
    expect(second.statusCode, second.body).toBe(201);
    const refused = await upload(archive('Third'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(
      /^Your uploaded backups use 0\.\d MB of your 1 MB: this archive \(0\.\d MB\) does not fit\. Delete backups you no longer need to make room\.$/,
    );
    const deleted = await tam.request({ method: 'DELETE', url: `/api/backups/${first.json<Backup>().id}` });
    expect(deleted.statusCode).toBe(204);
    expect((await upload(archive('Third'))).statusCode).toBe(201);
  });
});
