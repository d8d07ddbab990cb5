import { describe, expect, it } from 'vitest';
import type { CustomerTimeline, MigrationPlan } from '@ce/contract';
import { ANSWER_SUITE_DATABASES } from './build-test-app.js';
import { migrationSuite } from './support/alerts-migration.js';

describe.each(ANSWER_SUITE_DATABASES)('alerts migration: rules unable to alert, and both sides said (%s)', (kind) => {
  const suite = migrationSuite(kind);
  const { world, source, ruleIdOf, request, start, finished } = suite;

  /** Acme's "Migration: portal latency" into Globex: its tests, recipients and integrations all stay behind. */
  const intoGlobex = (options: Record<string, unknown> = {}) => {
    const globex = world().organizations[1];
    const token = world().tokens.find((each) => each.kind === 'org-admin' && each.orgId === globex?.orgId)?.token;
    const target = world().accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    if (!globex || !target || !token) throw new Error('the demo world has a second organization');
    return {
      target,
      payload: request({
        ruleIds: [ruleIdOf('Migration: portal latency')],
        targets: [{ aid: target.aid }],
        targetOrganization: { token, organization: { id: globex.orgId, name: globex.name } },
        options,
      }),
    };
  };
  const plan = async (payload: object) => {
    const response = await suite.tam().request({ method: 'POST', url: '/api/alerts-migration/plan', payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MigrationPlan>();
  };

  it('says before applying which rules would arrive with no test and no recipient, and leaves them out when asked', async () => {
    const { payload } = intoGlobex();
    const planned = await plan(payload);
    expect(planned.items).toHaveLength(1);
    expect(planned.items[0]).toMatchObject({ status: 'create', unableToAlert: true });
    expect(planned.writes).toBe(1);

    const leftOut = await plan(intoGlobex({ whenUnableToAlert: 'skip' }).payload);
    expect(leftOut.items[0]).toMatchObject({
      status: 'skip',
      reason: 'Left out: it would arrive with no test and no recipient, so it could never alert anyone',
    });
    expect(leftOut.items[0]?.unableToAlert).toBeUndefined();
    expect(leftOut.writes).toBe(0);

    // Within the organization the rule keeps a test and its recipients: nothing to say.
    const within = await plan(request({ ruleIds: [ruleIdOf('Migration: portal latency')] }));
    expect(within.items[0]?.unableToAlert).toBeUndefined();
  });

  it("shows both sides on the source customer's timeline, not the target group alone", async () => {
    const { payload, target } = intoGlobex();
    const run = await finished((await start(payload)).id);
    expect(run.status).toBe('done');
    const response = await suite.tam().request({
      method: 'GET',
      url: `/api/customers/${encodeURIComponent(suite.acme().organization.id)}/timeline`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const entry = response.json<CustomerTimeline>().entries.find((candidate) => candidate.id === run.id);
    expect(entry?.accountGroups).toEqual([`${source().accountGroupName} → ${target.accountGroupName}`]);
    expect(entry?.accountGroups[0]).toMatch(/^Acme - Data Centers → Globex/);
  });

  it("drops a second token that names the source's own organization: neither used nor sealed with the run", async () => {
    const revoked = world().tokens.find((each) => each.kind === 'revoked')?.token ?? '';
    const payload = request({
      ruleIds: [ruleIdOf('Migration: portal latency')],
      targetOrganization: { token: revoked, organization: suite.acme().organization },
    });
    const created = await start(payload);
    const [row] = (
      await suite.app().database.sql.executeSql('select target_token_id from change_sets where id = $1', [created.id])
    ).rows as { target_token_id: string | null }[];
    expect(row?.target_token_id).toBeNull();
    expect((await finished(created.id)).status).toBe('done');
  });
});
