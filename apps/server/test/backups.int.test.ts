import { describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { restoreItemRef, type Backup, type Drift, type RestorePlan } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import { readArchive } from '../src/modules/backup-restore/archive-reader.js';
import { writeZip } from '../src/core/zip.js';
import { utcMinute } from '../src/report-kit/dates.js';
import { DATABASES, multipartBody } from './build-test-app.js';
import { backupSuite } from './support/backups.js';

describe.each(DATABASES)('backups (%s)', (kind) => {
  const suite = backupSuite(kind);
  const { world, group, backUp, driftNow } = suite;
  const archiveOf = async (id: string) =>
    (await suite.tam().request({ method: 'GET', url: `/api/backups/${id}/archive` })).rawPayload;
  const upload = async (bytes: Buffer, name = 'anything.bin') => {
    const { payload, headers } = await multipartBody({}, { file: { bytes, name } });
    return suite.tam().request({ method: 'POST', url: '/api/backups/upload', payload, headers });
  };

  it('backs up a group whole, each list and each detail read once, as an archive a team can keep, and keeps no token', async () => {
    const calls = suite.app().sandbox?.platform.calls ?? [];
    const from = calls.length;
    const backup = await backUp();
    const read = (path: string) =>
      calls.slice(from).filter((call) => call.method === 'GET' && call.path === path).length;
    expect(backup).toMatchObject({
      status: 'done',
      origin: 'live',
      accountGroupName: 'Acme - Staging',
      requestedBy: 'tam@demo.local',
    });
    const tests = world().tests.filter((test) => test.aid === group().aid);
    const rules = world().alertRules.filter((rule) => rule.aid === group().aid);
    expect(backup.counts).toMatchObject({ test: tests.length, 'alert-rule': rules.length });
    expect([read('/tests'), read('/alerts/rules'), read('/alerts/rules/:ruleId'), read('/dashboards')]).toEqual([
      1,
      1,
      rules.length,
      1,
    ]);
    const bytes = await archiveOf(backup.id);
    expect(bytes.length).toBe(backup.size);
    const { manifest, items } = await readArchive(bytes);
    expect(manifest.source).toMatchObject({ accountGroup: { aid: group().aid, accountGroupName: 'Acme - Staging' } });
    const test = items.find((item) => item.kind === 'test' && item.name === tests[0]?.testName);
    expect(test?.server).toHaveProperty('testId', tests[0]?.testId);
    expect(test?.config).not.toHaveProperty('testId');
    expect(test?.config.agents).toEqual(expect.arrayContaining([expect.any(String)]));
    const listed = await suite.tam().request({ method: 'GET', url: `/api/backups/${backup.id}/items` });
    expect(listed.json<{ items: { kind: string; name: string }[] }>().items).toContainEqual(
      expect.objectContaining({ kind: 'alert-rule', name: rules[0]?.ruleName }),
    );
    const { rows } = await suite
      .app()
      .database.sql.executeSql('select token_id from backups where id = $1', [backup.id]);
    expect(rows).toEqual([{ token_id: null }]);
  });

  it('finds exactly what changed since the backup: a test edited, a rule deleted, a dashboard added', async () => {
    const backup = await backUp();
    const test = world().tests.find((candidate) => candidate.aid === group().aid && candidate.type === 'http-server');
    const rule = world().alertRules.find((candidate) => candidate.aid === group().aid);
    if (!test || !rule) throw new Error('the group has a test and a rule');
    test.interval = test.interval === 300 ? 600 : 300;
    world().alertRules.splice(world().alertRules.indexOf(rule), 1);
    world().dashboards.push({
      dashboardId: 'f00dfeedf00dfeedf00dfeed',
      aid: group().aid,
      title: 'Added after the backup',
      description: '',
      isBuiltIn: false,
      isPrivate: false,
      createdBy: '1',
      modifiedDate: new Date().toISOString(),
      widgets: [],
    });
    const response = await suite.tam().request({
      method: 'POST',
      url: `/api/backups/${backup.id}/drift`,
      payload: { token: suite.acme().token },
    });
    expect(response.statusCode, response.body).toBe(200);
    const drift = response.json<Drift>();
    expect(
      drift.changes.map((change) => [
        change.kind,
        change.name,
        change.change,
        change.fields.map((field) => field.path),
      ]),
    ).toEqual([
      ['test', test.testName, 'changed', ['interval']],
      ['alert-rule', rule.ruleName, 'removed', []],
      ['dashboard', 'Added after the backup', 'added', []],
    ]);
    expect(drift.counts.dashboard).toMatchObject({ added: 1 });

    const xlsx = await suite.tam().request({
      method: 'POST',
      url: `/api/backups/${backup.id}/drift/export?format=xlsx`,
      payload: { token: suite.acme().token },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Changes')?.rowCount).toBe(4);
    const html = await suite.tam().request({
      method: 'POST',
      url: `/api/backups/${backup.id}/drift/export?format=html`,
      payload: { token: suite.acme().token },
    });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('Added after the backup');
    // Its heading says when the backup was made, to the minute in UTC as reports say it.
    expect(html.body).toContain(`backup of ${utcMinute(new Date(backup.createdAt))}</h1>`);
  });

  it('keeps an uploaded archive, recognised by its content whatever its name, and compares two backups', async () => {
    const first = await backUp();
    const bytes = await archiveOf(first.id);
    const uploaded = await upload(bytes, 'notes.txt');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const kept = uploaded.json<Backup>();
    expect(kept).toMatchObject({
      origin: 'upload',
      status: 'done',
      accountGroupName: 'Acme - Staging',
      items: first.items,
    });
    const same = await suite.tam().request({
      method: 'POST',
      url: `/api/backups/${first.id}/drift`,
      payload: { backupId: kept.id },
    });
    expect(same.json<Drift>().changes).toEqual([]);

    const listed = await suite.tam().request({
      method: 'GET',
      url: '/api/backups?search=staging&sort=createdAt&direction=asc',
    });
    const ids = listed.json<{ backups: Backup[] }>().backups.map((backup) => backup.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(kept.id));
    const none = await suite.tam().request({ method: 'GET', url: '/api/backups?search=no-such-group' });
    expect(none.json<{ backups: Backup[] }>().backups).toEqual([]);
  });

  it('refuses a hostile or foreign upload with a clear message, and keeps nothing of it', async () => {
    const before = (await suite.tam().request({ method: 'GET', url: '/api/backups' })).json<{ backups: Backup[] }>()
      .backups.length;
    const refusals = [
      [
        Buffer.from('%PDF-1.7 not a zip'),
        'This file is not a backup archive, or it is damaged: it is not a whole zip file.',
      ],
      [
        writeZip([{ name: 'readme.txt', content: Buffer.from('hello') }]),
        'This zip is not a backup archive: it holds no manifest.json.',
      ],
    ] as const;
    for (const [bytes, message] of refusals) {
      const response = await upload(bytes, 'backup.zip');
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    const after = (await suite.tam().request({ method: 'GET', url: '/api/backups' })).json<{ backups: Backup[] }>()
      .backups.length;
    expect(after).toBe(before);
  });

  it('restores what changed so the group equals the backup again, in order, each once; undo brings the changes back', async () => {
    const backup = await backUp();
    const test = world().tests.find((candidate) => candidate.aid === group().aid && candidate.type === 'http-server');
    const rule = world().alertRules.find((candidate) => candidate.aid === group().aid && candidate.testIds.length > 0);
    if (!test || !rule) throw new Error('the group has a test and a rule with tests');
    test.interval = test.interval === 300 ? 600 : 300;
    world().alertRules.splice(world().alertRules.indexOf(rule), 1);
    world().dashboards.push({
      dashboardId: 'c0ffeec0ffeec0ffeec0ffee',
      aid: group().aid,
      title: 'Made after the backup',
      description: '',
      isBuiltIn: false,
      isPrivate: false,
      createdBy: '1',
      modifiedDate: new Date().toISOString(),
      widgets: [],
    });
    const changes = (await driftNow(backup.id)).changes;
    expect(changes).toHaveLength(3);
    const request = {
      token: suite.acme().token,
      items: changes.filter((change) => change.change !== 'added').map(restoreItemRef),
      remove: changes.filter((change) => change.change === 'added').map(restoreItemRef),
    };
    const plan = await suite
      .tam()
      .request({ method: 'POST', url: `/api/backups/${backup.id}/restore/plan`, payload: request });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json<RestorePlan>().steps.map((step) => [step.kind, step.status, step.phase])).toEqual([
      ['test', 'update', 0],
      ['alert-rule', 'create', 1],
      ['dashboard', 'delete', 2],
    ]);
    expect(plan.json<RestorePlan>().steps[0]?.differences.map((difference) => difference.path)).toEqual(['interval']);

    const calls = suite.app().sandbox?.platform.calls ?? [];
    const from = calls.length;
    const restored = await suite.restore(backup.id, request);
    expect(restored).toMatchObject({ status: 'done', totals: { done: 3, failed: 0 } });
    const writes = calls
      .slice(from)
      .filter((call) => call.method !== 'GET')
      .map((call) => `${call.method} ${call.path} ${call.status}`);
    expect(writes.sort()).toEqual(
      ['DELETE /dashboards/:dashboardId 204', 'POST /alerts/rules 201', 'PUT /tests/http-server/:testId 200'].sort(),
    );
    expect((await driftNow(backup.id)).changes).toEqual([]);
    const restoredRule = world().alertRules.find(
      (candidate) => candidate.aid === group().aid && candidate.ruleName === rule.ruleName,
    );
    expect(restoredRule?.testIds.sort()).toEqual([...rule.testIds].sort());

    expect(await suite.undo(restored.id)).toMatchObject({ status: 'done', totals: { done: 3, failed: 0 } });
    expect((await driftNow(backup.id)).changes.map((change) => [change.kind, change.name, change.change])).toEqual(
      changes.map((change) => [change.kind, change.name, change.change]),
    );
    const csv = await suite.tam().request({ method: 'GET', url: `/api/restores/${restored.id}/results?format=csv` });
    expect(csv.body).toContain(`Acme - Staging,alert-rule,${rule.ruleName},Create,done`);
  });

  it('restores into an emptied group of another organization with every reference remapped by name', async () => {
    const backup = await backUp();
    const globex = world().organizations[1];
    const globexToken =
      world().tokens.find((token) => token.kind === 'org-admin' && token.orgId === globex?.orgId)?.token ?? '';
    const target = world()
      .accountGroups.filter((candidate) => candidate.orgId === globex?.orgId)
      .at(-1);
    if (!globex || !target) throw new Error('the demo world has a second organization');
    // The target group emptied of what a restore writes.
    for (const list of [
      world().tests,
      world().alertRules,
      world().suppressionWindows,
      world().dashboards,
      world().tags,
    ])
      for (let index = list.length - 1; index >= 0; index--) if (list[index]?.aid === target.aid) list.splice(index, 1);
    const contents = (await suite.tam().request({ method: 'GET', url: `/api/backups/${backup.id}/items` })).json<{
      items: { kind: string; key: string }[];
    }>().items;
    const restorable = contents.filter((item) =>
      ['test', 'alert-rule', 'suppression-window', 'dashboard', 'tag'].includes(item.kind),
    );
    const run = await suite.restore(backup.id, {
      aid: target.aid,
      targetOrganization: { token: globexToken, organization: { id: globex.orgId, name: globex.name } },
      items: restorable.map(restoreItemRef),
    });
    expect(run).toMatchObject({ status: 'done', targetOrganizationName: globex.name, totals: { failed: 0 } });
    const cloud = new Set(
      world()
        .agents.filter((agent) => agent.agentType === 'cloud')
        .map((agent) => agent.agentId),
    );
    const sourceTests = world().tests.filter((test) => test.aid === group().aid);
    const onCloud = sourceTests.filter((test) => test.agentIds.every((id) => cloud.has(id)));
    const onEnterprise = sourceTests.filter((test) => !onCloud.includes(test));
    expect([onCloud.length > 0, onEnterprise.length > 0]).toEqual([true, true]);
    // A test on an agent the target lacks is not written, and says why.
    expect(run.items.find((item) => item.subject === onEnterprise[0]?.testName)).toMatchObject({
      status: 'skipped',
      note: expect.stringMatching(/^No agent .+ in Globex - /),
    });
    const targetTests = new Map(
      world()
        .tests.filter((test) => test.aid === target.aid)
        .map((test) => [test.testName, test]),
    );
    for (const test of onCloud)
      expect(targetTests.get(test.testName)?.agentIds.sort(), test.testName).toEqual([...test.agentIds].sort());
    const sourceName = (id: string) => sourceTests.find((test) => test.testId === id)?.testName ?? '';
    const targetIds = (ids: string[]) =>
      ids
        .flatMap((id) => {
          const copy = targetTests.get(sourceName(id));
          return copy ? [copy.testId] : [];
        })
        .sort();
    for (const rule of world().alertRules.filter((candidate) => candidate.aid === group().aid)) {
      const copy = world().alertRules.find(
        (candidate) => candidate.aid === target.aid && candidate.ruleName === rule.ruleName,
      );
      expect(copy?.testIds.sort(), rule.ruleName).toEqual(targetIds(rule.testIds));
    }
    for (const dashboard of world().dashboards.filter((candidate) => candidate.aid === group().aid)) {
      const copy = world().dashboards.find(
        (candidate) => candidate.aid === target.aid && candidate.title === dashboard.title,
      );
      const filtered = (board: typeof dashboard | undefined) =>
        (board?.widgets ?? []).map((widget) => [...(widget.filters?.TEST ?? [])].sort());
      expect(filtered(copy), dashboard.title).toEqual(filtered(dashboard).map(targetIds));
    }
  });

  it('puts a changed suppression window back as it was', async () => {
    const backup = await backUp();
    const window = world().suppressionWindows.find((candidate) => candidate.aid === group().aid);
    if (!window) throw new Error('the group has a suppression window');
    window.duration += 3600;
    const [change] = (await driftNow(backup.id)).changes;
    expect(change).toMatchObject({
      kind: 'suppression-window',
      change: 'changed',
      fields: [expect.objectContaining({ path: 'duration' })],
    });
    const run = await suite.restore(backup.id, { items: [restoreItemRef(change ?? { kind: '', key: '' })] });
    expect(run.items.map((item) => [item.action, item.status])).toEqual([['restore-update', 'done']]);
    expect((await driftNow(backup.id)).changes).toEqual([]);
  });

  it("says a deleted test restored under a new id, its history staying with the old one's", async () => {
    const backup = await backUp();
    const test = world().tests.find((candidate) => candidate.aid === group().aid && candidate.type === 'http-server');
    if (!test) throw new Error('the group has an HTTP server test');
    // Deleted as the platform deletes a test: the rules that named it no longer do.
    world().tests.splice(world().tests.indexOf(test), 1);
    for (const rule of world().alertRules) rule.testIds = rule.testIds.filter((id) => id !== test.testId);
    const removed = (await driftNow(backup.id)).changes.find(
      (change) => change.kind === 'test' && change.change === 'removed',
    );
    if (!removed) throw new Error('the drift finds the test removed');
    const run = await suite.restore(backup.id, { items: [restoreItemRef(removed)] });
    const recreated = world().tests.find(
      (candidate) => candidate.aid === group().aid && candidate.testName === test.testName,
    );
    expect(recreated?.testId).toBeDefined();
    expect(recreated?.testId).not.toBe(test.testId);
    expect(run.items.map((item) => [item.action, item.status, item.note])).toEqual([
      [
        'restore-create',
        'done',
        `'${test.testName}' restored as test ${recreated?.testId}: its history stays with the old test (${test.testId})`,
      ],
    ]);
  });

  // Last in the file: the app's backup job stays stopped.
  it('gives a backup under way back when its instance stops: its claim let go, its token kept, queued again', async () => {
    const testApp = suite.app();
    const platform = testApp.sandbox?.platform;
    if (!platform) throw new Error('the sandbox is mounted in tests');
    platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000, latencyMs: 150 });
    const from = platform.calls.length;
    const response = await suite.tam().request({
      method: 'POST',
      url: '/api/backups',
      payload: {
        token: suite.acme().token,
        organization: suite.acme().organization,
        accountGroups: [{ aid: group().aid }],
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    const id = response.json<{ backups: Backup[] }>().backups[0]?.id ?? '';
    const row = async () =>
      (
        await testApp.database.sql.executeSql(
          'select status, lease_until is null as released, token_id is not null as holds_token from backups where id = $1',
          [id],
        )
      ).rows[0];
    // Mid-read: claimed, and the group's lists being read.
    await vi.waitFor(
      async () => {
        expect(await row()).toMatchObject({ status: 'running', released: false });
        expect(platform.calls.length - from).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 20 },
    );
    await testApp.jobs.backups.stop();
    await vi.waitFor(
      async () => expect(await row()).toEqual({ status: 'running', released: true, holds_token: true }),
      {
        timeout: 10_000,
        interval: 20,
      },
    );
    // Not failed: the next recovery sends it back to the queue for another worker, token and all.
    expect(await testApp.jobs.backups.recoverOrphans(false)).toEqual({ requeued: 1, failed: 0 });
    expect(await row()).toEqual({ status: 'queued', released: true, holds_token: true });
  });
});
