import { describe, expect, it } from 'vitest';
import { LIMITS } from '../src/bounded.js';
import { demoSandbox } from './demo-sandbox.js';

describe('copies of the organizations, one per test', () => {
  const { app, sandbox } = demoSandbox();
  type Listed = { token: string; kind: string; organizationId: string; organizationName: string };
  const copy = async () => {
    const response = await app().inject({ method: 'POST', url: '/sandbox/te/organization-copies' });
    expect(response.statusCode).toBe(201);
    return response.json().tokens as Listed[];
  };
  const get = (token: string | undefined, url: string) =>
    app().inject({ url: `/sandbox/te/v7${url}`, headers: { authorization: `Bearer ${token}` } });

  it("has the world's names and data under new ids and tokens, and its own rate budget", async () => {
    const base = (await app().inject({ url: '/sandbox/te/tokens' })).json().tokens as Listed[];
    const [first, second] = [await copy(), await copy()];
    for (const tokens of [first, second]) {
      expect(tokens.map(({ kind, organizationName }) => [kind, organizationName])).toEqual(
        base.map(({ kind, organizationName }) => [kind, organizationName]),
      );
    }
    const all = [...base, ...first, ...second];
    expect(new Set(all.map((token) => token.token)).size).toBe(all.length);
    expect(new Set(all.filter((token) => token.kind === 'org-admin').map((token) => token.organizationId)).size).toBe(
      6,
    );
    // The listing still names the world's own tokens only.
    expect((await app().inject({ url: '/sandbox/te/tokens' })).json().tokens).toEqual(base);

    const admin = (tokens: Listed[]) => tokens.find((token) => token.kind === 'org-admin')?.token;
    const groupsOf = async (tokens: Listed[]) =>
      (await get(admin(tokens), '/account-groups')).json().accountGroups as {
        aid: string;
        accountGroupName: string;
      }[];
    const [baseGroups, copyGroups] = [await groupsOf(base), await groupsOf(first)];
    expect(copyGroups.map((group) => group.accountGroupName)).toEqual(
      baseGroups.map((group) => group.accountGroupName),
    );
    expect(copyGroups.some((group) => baseGroups.some((other) => other.aid === group.aid))).toBe(false);
    const testsOf = async (tokens: Listed[], aid: string) =>
      (await get(admin(tokens), `/tests?aid=${aid}`)).json().tests as { testId: string; testName: string }[];
    const [baseTests, copyTests] = [
      await testsOf(base, baseGroups[0]?.aid ?? ''),
      await testsOf(first, copyGroups[0]?.aid ?? ''),
    ];
    expect(copyTests.map((test) => test.testName)).toEqual(baseTests.map((test) => test.testName));
    expect(copyTests.some((test) => baseTests.some((other) => other.testId === test.testId))).toBe(false);
    // A token of one copy does not reach another copy's account group.
    expect((await get(admin(second), `/tests?aid=${copyGroups[0]?.aid}`)).statusCode).toBe(403);

    // Every id of every record is new: nothing of the copies collides with the world or with each other.
    const world = sandbox().platform.world;
    const ids = [
      ...world.organizations.map((org) => `org ${org.orgId}`),
      ...world.accountGroups.map((group) => `group ${group.aid}`),
      ...world.agents.map((agent) => `agent ${agent.agentId}`),
      ...world.tests.map((test) => `test ${test.testId}`),
      ...world.alertRules.map((rule) => `rule ${rule.ruleId}`),
      ...world.alerts.map((alert) => `alert ${alert.id}`),
      ...world.users.map((user) => `user ${user.uid}`),
      ...world.dashboards.map((dashboard) => `dashboard ${dashboard.dashboardId}`),
      ...world.suppressionWindows.map((window) => `window ${window.alertSuppressionWindowId}`),
      ...world.webhooks.map((webhook) => `webhook ${webhook.id}`),
      ...world.tags.map((tag) => `tag ${tag.id}`),
      ...world.endpointAgents.map((agent) => `endpoint agent ${agent.id}`),
      ...world.endpointTests.map((test) => `endpoint test ${test.testId}`),
      ...world.endpointDynamicTests.map((test) => `dynamic test ${test.testId}`),
      ...world.endpointLabels.map((label) => `label ${label.id}`),
    ];
    expect(world.organizations).toHaveLength(6);
    expect(new Set(ids).size).toBe(ids.length);

    // Spending one organization's budget leaves the copy's untouched.
    sandbox().platform.setScenario({ ...sandbox().platform.scenario, rateLimitPerMinute: 2 });
    for (let call = 0; call < 2; call++) expect((await get(admin(base), '/account-groups')).statusCode).toBe(200);
    expect((await get(admin(base), '/account-groups')).statusCode).toBe(429);
    expect((await get(admin(first), '/account-groups')).statusCode).toBe(200);
  });

  it("scopes a scenario to one organization, leaving everyone else's calls as they were", async () => {
    const tokens = await copy();
    const admin = tokens.find((token) => token.kind === 'org-admin');
    const other = sandbox().platform.world.tokens.find((token) => token.kind === 'org-admin')?.token;
    const scoped = await app().inject({
      method: 'PUT',
      url: `/sandbox/te/scenario?organizationId=${admin?.organizationId}`,
      payload: { errorRate: 1, errorStatus: 503 },
    });
    expect(scoped.json()).toMatchObject({ errorRate: 1, errorStatus: 503 });
    expect((await get(admin?.token, '/account-groups')).statusCode).toBe(503);
    expect((await get(other, '/account-groups')).statusCode).toBe(200);
    expect((await app().inject({ url: '/sandbox/te/scenario' })).json()).toMatchObject({ errorRate: 0 });
    expect(
      (await app().inject({ url: `/sandbox/te/scenario?organizationId=${admin?.organizationId}` })).json(),
    ).toMatchObject({ errorRate: 1 });

    const cleared = await app().inject({
      method: 'DELETE',
      url: `/sandbox/te/scenario?organizationId=${admin?.organizationId}`,
    });
    expect(cleared.json()).toMatchObject({ errorRate: 0 });
    expect((await get(admin?.token, '/account-groups')).statusCode).toBe(200);
    const unknown = await app().inject({ method: 'PUT', url: '/sandbox/te/scenario?organizationId=1', payload: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No organization 1 in the sandbox');
  });

  it('keeps a bounded number of copies, removing the oldest with everything in it', async () => {
    const oldest = (await copy()).find((token) => token.kind === 'org-admin');
    for (let index = 0; index < LIMITS.organizationCopies; index++) sandbox().platform.addOrganizationCopy();
    expect(sandbox().platform.world.organizations).toHaveLength(2 + 2 * LIMITS.organizationCopies);
    expect((await get(oldest?.token, '/account-groups')).statusCode).toBe(401);
    expect(sandbox().platform.world.accountGroups.filter((group) => group.orgId === oldest?.organizationId)).toEqual(
      [],
    );
  });
});
