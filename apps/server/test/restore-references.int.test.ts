import { describe, expect, it } from 'vitest';
import { restoreItemRef, type RestorePlan } from '@ce/contract';
import type { World } from '@ce/sandbox';
import { DATABASES } from './build-test-app.js';
import { backupSuite } from './support/backups.js';

/** Restores of items that name others: endpoint tests their labels, rules and dashboards their tests. */
describe.each(DATABASES)('restoring what names other items (%s)', (kind) => {
  const suite = backupSuite(kind);
  const { world, group, backUp, driftNow } = suite;

  it('puts back a deleted label and the endpoint tests on it, labels first, each once; undo takes them away again', async () => {
    const world = suite.world();
    const aid = suite.group().aid;
    const backup = await suite.backUp();
    expect(backup.counts).toMatchObject({
      'endpoint-label': world.endpointLabels.filter((label) => label.aid === aid).length,
      'endpoint-scheduled-test': world.endpointTests.filter((test) => test.aid === aid).length,
      'endpoint-dynamic-test': world.endpointDynamicTests.filter((test) => test.aid === aid).length,
    });
    // After the backup: a label deleted with every endpoint test on it, another test slowed, a label added.
    const label = world.endpointLabels.find((candidate) => candidate.aid === aid);
    if (!label) throw new Error('the group has endpoint labels');
    const onLabel = (test: {
      aid: string;
      agentSelectorConfig?: World['endpointTests'][number]['agentSelectorConfig'];
    }) =>
      test.aid === aid &&
      test.agentSelectorConfig?.agentSelectorType === 'agent-labels' &&
      test.agentSelectorConfig.endpointAgentLabels.includes(label.id);
    const scheduled = world.endpointTests.filter(onLabel);
    const dynamic = world.endpointDynamicTests.filter(onLabel);
    const slowed = world.endpointTests.find((test) => test.aid === aid && !onLabel(test));
    if (!scheduled.length || !dynamic.length || !slowed) throw new Error('the group has tests on the label and off it');
    world.endpointLabels.splice(world.endpointLabels.indexOf(label), 1);
    for (const test of scheduled) world.endpointTests.splice(world.endpointTests.indexOf(test), 1);
    for (const test of dynamic) world.endpointDynamicTests.splice(world.endpointDynamicTests.indexOf(test), 1);
    slowed.interval = slowed.interval === 3600 ? 1800 : 3600;
    world.endpointLabels.push({ ...label, id: 'added-after', name: 'Added after the backup', filters: [] });

    const changes = (await suite.driftNow(backup.id)).changes;
    expect(changes.map((change) => [change.kind, change.name, change.change]).sort()).toEqual(
      [
        ['endpoint-label', label.name, 'removed'],
        ['endpoint-label', 'Added after the backup', 'added'],
        ['endpoint-scheduled-test', slowed.testName, 'changed'],
        ...scheduled.map((test) => ['endpoint-scheduled-test', test.testName, 'removed']),
        ...dynamic.map((test) => ['endpoint-dynamic-test', test.testName, 'removed']),
      ].sort(),
    );
    const calls = suite.app().sandbox?.platform.calls ?? [];
    const from = calls.length;
    const run = await suite.restore(backup.id, {
      items: changes.filter((change) => change.change !== 'added').map(restoreItemRef),
      remove: changes.filter((change) => change.change === 'added').map(restoreItemRef),
    });
    expect(run).toMatchObject({ status: 'done', totals: { failed: 0, done: changes.length } });
    const writes = calls.slice(from).filter((call) => call.method !== 'GET');
    expect(writes[0]).toMatchObject({ method: 'POST', path: '/endpoint/labels', status: 201 });
    expect(
      writes
        .filter((call) => call.method === 'POST')
        .map((call) => call.path)
        .sort(),
    ).toEqual(
      [
        '/endpoint/labels',
        ...scheduled.map((test) => `/endpoint/tests/scheduled-tests/${test.type}`),
        ...dynamic.map(() => '/endpoint/tests/dynamic-tests/agent-to-server'),
      ].sort(),
    );
    // Field by field, server-managed fields aside, the group is the backup again: the tests run on the new label.
    expect((await suite.driftNow(backup.id)).changes).toEqual([]);
    const restoredLabel = world.endpointLabels.find(
      (candidate) => candidate.aid === aid && candidate.name === label.name,
    );
    for (const test of scheduled)
      expect(
        world.endpointTests.find((candidate) => candidate.aid === aid && candidate.testName === test.testName)
          ?.agentSelectorConfig,
      ).toMatchObject({ endpointAgentLabels: [restoredLabel?.id] });

    const undone = await suite.undo(run.id);
    expect(undone).toMatchObject({ status: 'done', totals: { failed: 0 } });
    expect(
      (await suite.driftNow(backup.id)).changes.map((change) => [change.kind, change.name, change.change]).sort(),
    ).toEqual(changes.map((change) => [change.kind, change.name, change.change]).sort());
  });

  it('says which test types the target plan leaves out before writing anything', async () => {
    const world = suite.world();
    const backup = await suite.backUp();
    const test = world.tests.find(
      (candidate) => candidate.aid === suite.group().aid && candidate.type === 'dns-server',
    );
    if (!test) throw new Error('the group has a DNS server test');
    const target = world.accountGroups.find((candidate) => candidate.accountGroupName === 'Acme - Data Centers');
    if (!target) throw new Error('the demo world has Acme - Data Centers');
    target.testTypesNotInPlan = ['dns-server'];
    try {
      const plan = await suite.tam().request({
        method: 'POST',
        url: `/api/backups/${backup.id}/restore/plan`,
        payload: {
          token: suite.acme().token,
          aid: target.aid,
          items: [restoreItemRef({ kind: 'test', key: `dns-server: ${test.testName}` })],
        },
      });
      expect(plan.statusCode, plan.body).toBe(200);
      expect(plan.json().steps).toEqual([
        expect.objectContaining({
          status: 'cannot',
          reason: 'The plan of Acme - Data Centers does not include dns-server tests',
        }),
      ]);
    } finally {
      delete target.testTypesNotInPlan;
    }
  });

  it('renames back a test renamed since the backup: the plan says so and the restore does what the plan said', async () => {
    const backup = await backUp();
    const test =
      world().tests.find((candidate) => candidate.aid === group().aid && candidate.type === 'page-load') ??
      world().tests.find((candidate) => candidate.aid === group().aid);
    if (!test) throw new Error('the group has a test');
    const name = test.testName;
    test.testName = `${name} RENAMED`;
    try {
      const [change] = (await driftNow(backup.id)).changes;
      expect(change).toMatchObject({ kind: 'test', change: 'renamed', name: `${name} RENAMED`, previousName: name });
      if (!change) throw new Error('the rename is a change');
      const request = { token: suite.acme().token, items: [restoreItemRef(change)] };
      const plan = await suite
        .tam()
        .request({ method: 'POST', url: `/api/backups/${backup.id}/restore/plan`, payload: request });
      expect(plan.statusCode, plan.body).toBe(200);
      expect(plan.json<RestorePlan>().steps).toMatchObject([
        { kind: 'test', status: 'update', name, previousName: `${name} RENAMED` },
      ]);
      const restored = await suite.restore(backup.id, request);
      // What the plan said: one update, none left as it was.
      expect(restored).toMatchObject({ status: 'done', totals: { done: 1, failed: 0, skipped: 0 } });
      expect(restored.items).toMatchObject([{ action: 'restore-update', status: 'done' }]);
      expect(
        world()
          .tests.filter((candidate) => candidate.testId === test.testId)
          .map((found) => found.testName),
      ).toEqual([name]);
      expect((await driftNow(backup.id)).changes).toEqual([]);
    } finally {
      test.testName = name;
    }
  });

  it('keeps a rule on its test when the test was renamed: drift says only what changed, the restore keeps the rule on it', async () => {
    const backup = await backUp();
    const rule = world().alertRules.find(
      (candidate) =>
        candidate.aid === group().aid &&
        candidate.testIds.some((testId) => world().tests.some((test) => test.testId === testId)),
    );
    const test = world().tests.find((candidate) => candidate.testId === rule?.testIds[0]);
    if (!rule || !test) throw new Error('the group has a rule on one of its tests');
    const [name, severity] = [test.testName, rule.severity];
    test.testName = `${name} RENAMED`;
    rule.severity = severity === 'major' ? 'minor' : 'major';
    try {
      const { changes } = await driftNow(backup.id);
      // The rename, and the rule's own change: not its tests, which are the same tests.
      expect(changes.map((change) => [change.kind, change.change, change.fields.map((field) => field.path)])).toEqual([
        ['test', 'renamed', ['testName']],
        ['alert-rule', 'changed', ['severity']],
      ]);
      const restored = await suite.restore(backup.id, {
        token: suite.acme().token,
        items: changes.map((change) => restoreItemRef(change)),
      });
      expect(restored).toMatchObject({ status: 'done', totals: { done: 2, failed: 0, skipped: 0 } });
      expect(world().alertRules.find((candidate) => candidate.ruleId === rule.ruleId)?.testIds).toContain(test.testId);
      expect((await driftNow(backup.id)).changes).toEqual([]);
    } finally {
      test.testName = name;
      rule.severity = severity;
    }
  });
});
