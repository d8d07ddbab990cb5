import { describe, expect, it } from 'vitest';
import { demoSandbox } from './demo-sandbox.js';

interface Event {
  event: string;
  user: string;
  aid: string;
  accountGroupName: string;
  resources: { type: string; name: string }[];
}

describe("the platform stand-in's activity log of writes", () => {
  const { app, sandbox } = demoSandbox();
  const token = (kind: string) => sandbox().platform.world.tokens.find((candidate) => candidate.kind === kind)?.token;
  const events = async (headers: Record<string, string>) =>
    (await app().inject({ url: '/sandbox/te/v7/audit-user-events?window=1h', headers })).json<{
      auditEvents: Event[];
    }>().auditEvents;

  it("records each write it took as the token's user made it: created, renamed and deleted, by name", async () => {
    const headers = { authorization: `Bearer ${token('org-admin')}` };
    const admin = (await app().inject({ url: '/sandbox/te/v7/users/current', headers })).json<{
      name: string;
      email: string;
    }>();
    const agents = (await app().inject({ url: '/sandbox/te/v7/agents', headers })).json<{
      agents: { agentId: string }[];
    }>().agents;
    const body = { interval: 300, url: 'https://hr.example.com', agents: agents.slice(0, 1) };
    const created = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/tests/http-server',
      headers,
      payload: { ...body, testName: 'HR portal watch' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const testId = created.json<{ testId: string }>().testId;
    const renamed = await app().inject({
      method: 'PUT',
      url: `/sandbox/te/v7/tests/http-server/${testId}`,
      headers,
      payload: { ...body, testName: 'HR portal watch (EU)' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const deleted = await app().inject({
      method: 'DELETE',
      url: `/sandbox/te/v7/tests/http-server/${testId}`,
      headers,
    });
    expect(deleted.statusCode).toBe(204);

    const recorded = (await events(headers)).filter((event) =>
      event.resources.some((resource) => resource.name.startsWith('HR portal watch')),
    );
    const user = `${admin.name} (${admin.email})`;
    expect(recorded.map(({ event, user: who, resources }) => ({ event, user: who, resources }))).toEqual([
      { event: 'Test deleted', user, resources: [{ type: 'test', name: 'HR portal watch (EU)' }] },
      {
        event: 'Test updated',
        user,
        resources: [
          { type: 'test', name: 'HR portal watch (EU)' },
          { type: 'test', name: 'HR portal watch' },
        ],
      },
      { event: 'Test created', user, resources: [{ type: 'test', name: 'HR portal watch' }] },
    ]);
    expect(recorded[0]?.accountGroupName).toEqual(expect.stringMatching(/\S/));
  });

  it('records nothing for a write it refused', async () => {
    const admin = { authorization: `Bearer ${token('org-admin')}` };
    const before = (await events(admin)).length;
    const refused = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/tests/http-server',
      headers: { authorization: `Bearer ${token('read-only')}` },
      payload: { testName: 'Not allowed', interval: 300, url: 'https://example.com', agents: [] },
    });
    expect(refused.statusCode).toBe(403);
    const invalid = await app().inject({
      method: 'POST',
      url: '/sandbox/te/v7/tests/http-server',
      headers: admin,
      payload: { interval: 300 },
    });
    expect(invalid.statusCode).toBe(400);
    expect(await events(admin)).toHaveLength(before);
  });
});
