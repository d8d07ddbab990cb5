import { describe, expect, it } from 'vitest';
import type { MigrationPlan } from '@ce/contract';
import { ANSWER_SUITE_DATABASES } from './build-test-app.js';
import { migrationSuite } from './support/alerts-migration.js';

describe.each(ANSWER_SUITE_DATABASES)('alerts migration, when things go wrong (%s)', (kind) => {
  const suite = migrationSuite(kind);
  const { world, source, staging, ruleIdOf, snapshot, request, start, finished, undo } = suite;
  const acme = () => suite.acme();

  it('says in the plan, before anything is confirmed, that a read-only token cannot write, and writes nothing', async () => {
    const readOnly = world().tokens.find((candidate) => candidate.kind === 'read-only')?.token ?? '';
    const before = snapshot(suite.saas().aid);
    const response = await suite.tam().request({
      method: 'POST',
      url: '/api/alerts-migration/plan',
      payload: { ...request({ options: { includeWindows: true } }), token: readOnly },
    });
    expect(response.statusCode, response.body).toBe(200);
    const plan = response.json<MigrationPlan>();
    expect(plan.writes).toBeGreaterThan(0);
    expect(plan.problems).toEqual([
      'The token cannot write into Acme - SaaS Apps: the platform refused a write that changes nothing (the "Edit alert rules" permission is needed).',
      'The token cannot write into Acme - SaaS Apps: the platform refused a write that changes nothing (the "Edit alert suppression windows" permission is needed).',
    ]);
    expect(snapshot(suite.saas().aid)).toEqual(before);
  });

  it('names the permission a token lacks, per item, without stopping the others', async () => {
    const readOnly = world().tokens.find((candidate) => candidate.kind === 'read-only')?.token ?? '';
    const run = await finished(
      (await start({ ...request({ targets: [{ aid: staging().aid }] }), token: readOnly })).id,
    );
    expect(run.totals.failed).toBe(3);
    expect(run.items[0]?.error).toBe(
      'The token does not have permission for this operation. The token\'s user needs the "Edit alert rules" permission in this account group.',
    );
  });

  it('finds a creation sent before a crash instead of sending it again', async () => {
    const before = snapshot(staging().aid);
    const run = await finished(
      (await start(request({ ruleIds: [ruleIdOf('Migration: portal errors')], targets: [{ aid: staging().aid }] }))).id,
    );
    const createdId = run.items[0]?.resultId;
    // The crash: the worker sent the creation and died before recording its answer.
    const sql = (text: string, values: unknown[]) => suite.app().database.sql.executeSql(text, values);
    await sql(
      `update change_set_items set status = 'running', result_id = null, started_at = now() where run_id = $1`,
      [run.id],
    );
    await sql(
      `update change_sets set status = 'running', finished_at = null, lease_until = now() - interval '1 minute' where id = $1`,
      [run.id],
    );
    await sql('update change_sets set token_id = $2 where id = $1', [
      run.id,
      await suite.app().tokens.seal(acme().token),
    ]);
    expect(await suite.app().jobs.changeSets.recoverOrphans(false)).toEqual({ requeued: 1, failed: 0 });
    await suite.app().jobs.changeSets.run(run.id);
    const resumed = await finished(run.id);
    expect(resumed.items[0]).toMatchObject({ status: 'done', resultId: createdId, note: 'Confirmed after a restart' });
    expect(
      world().alertRules.filter((rule) => rule.aid === staging().aid && rule.ruleName === 'Migration: portal errors'),
    ).toHaveLength(1);
    await undo(run.id);
    expect(snapshot(staging().aid)).toEqual(before);
  });

  it("shows the platform's own validation error per item, in its words, and writes the others", async () => {
    const before = snapshot(staging().aid);
    const valid = world().alertRules.find(
      (rule) => rule.aid === source().aid && rule.ruleName === 'Migration: portal errors',
    );
    if (!valid) throw new Error('the demo world has the migration cases');
    // A rule the platform would no longer take as it is (its rounds out of order).
    const broken = {
      ...structuredClone(valid),
      ruleId: '77000001',
      ruleName: 'Migration: broken rounds',
      roundsViolatingRequired: 9,
    };
    world().alertRules.push(broken);
    try {
      const run = await finished(
        (await start(request({ ruleIds: [valid.ruleId, broken.ruleId], targets: [{ aid: staging().aid }] }))).id,
      );
      expect(run.status).toBe('done');
      expect(run.items.map((item) => [item.subject, item.status, item.error])).toEqual([
        ['Migration: portal errors', 'done', null],
        ['Migration: broken rounds', 'failed', 'roundsViolatingRequired must be from 1 to roundsViolatingOutOf'],
      ]);
      await undo(run.id);
    } finally {
      world().alertRules.splice(world().alertRules.indexOf(broken), 1);
    }
    expect(snapshot(staging().aid)).toEqual(before);
  });
});
