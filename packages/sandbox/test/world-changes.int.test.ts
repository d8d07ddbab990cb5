import { describe, expect, it } from 'vitest';
import { demoSandbox } from './demo-sandbox.js';

describe("changes to a customer's world on request, as a watch's next run finds them", () => {
  const { app } = demoSandbox();
  type Listed = { token: string; kind: string; organizationId: string };
  const admin = async () => {
    const tokens = (await app().inject({ method: 'POST', url: '/sandbox/te/organization-copies' })).json()
      .tokens as Listed[];
    const found = tokens.find((token) => token.kind === 'org-admin');
    if (!found) throw new Error('a copy has an Org Admin token');
    return found;
  };
  const read = async <T>(token: string, url: string) =>
    (await app().inject({ url: `/sandbox/te/v7${url}`, headers: { authorization: `Bearer ${token}` } })).json<T>();
  const change = (body: Record<string, unknown>) =>
    app().inject({ method: 'POST', url: '/sandbox/te/world-changes', payload: body });

  it('adds an inactive user, fixes one, deletes a test and renames a rule, each seen through the platform API', async () => {
    const { token, organizationId } = await admin();
    const [group] = (await read<{ accountGroups: { aid: string }[] }>(token, '/account-groups')).accountGroups;
    const aid = group?.aid ?? '';
    type Users = { users: { uid: string; email: string; lastLogin?: string }[] };
    type Tests = { tests: { testId: string; testName: string }[] };
    type Rules = { alertRules: { ruleId: string; ruleName: string }[] };

    const added = await change({ change: 'inactive-user', organizationId, aid });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ change: 'inactive-user', organizationId, aid });
    expect(added.json().what).toMatch(/^user Planted User \d+ <planted-\d+@.+> added, never signed in$/);
    const users = (await read<Users>(token, `/users?aid=${aid}`)).users;
    expect(users.find((user) => user.uid === added.json().id)?.lastLogin).toBeUndefined();

    const fixed = await change({ change: 'fix-inactive-user', organizationId, aid });
    expect(fixed.statusCode).toBe(200);
    const signedIn = (await read<Users>(token, `/users?aid=${aid}`)).users.find((user) => user.uid === fixed.json().id);
    expect(Date.now() - Date.parse(signedIn?.lastLogin ?? '')).toBeLessThan(60_000);

    const testsBefore = (await read<Tests>(token, `/tests?aid=${aid}`)).tests;
    const deleted = await change({ change: 'delete-test', organizationId, aid });
    expect(deleted.statusCode).toBe(200);
    const testsAfter = (await read<Tests>(token, `/tests?aid=${aid}`)).tests;
    expect(testsAfter).toHaveLength(testsBefore.length - 1);
    expect(testsAfter.map((test) => test.testId)).not.toContain(deleted.json().id);

    const renamed = await change({ change: 'rename-rule', organizationId, aid });
    expect(renamed.statusCode).toBe(200);
    const rule = (await read<Rules>(token, `/alerts/rules?aid=${aid}`)).alertRules.find(
      (candidate) => candidate.ruleId === renamed.json().id,
    );
    expect(rule?.ruleName).toMatch(/ \(renamed\)$/);
    expect(renamed.json().what).toBe(
      `alert rule '${rule?.ruleName.replace(/ \(renamed\)$/, '')}' renamed '${rule?.ruleName}'`,
    );

    const listed = (await app().inject({ url: '/sandbox/te/world-changes' })).json().changes as { id: string }[];
    expect(listed.map((entry) => entry.id)).toEqual(
      expect.arrayContaining([added.json().id, fixed.json().id, deleted.json().id, renamed.json().id]),
    );
  });

  it('says what it takes, and which organization or group it does not know', async () => {
    expect((await change({ change: 'flood', organizationId: '1' })).statusCode).toBe(400);
    expect((await change({ change: 'inactive-user' })).statusCode).toBe(400);
    const unknown = await change({ change: 'inactive-user', organizationId: 'no-such-org' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No organization no-such-org in the sandbox');
  });
});
