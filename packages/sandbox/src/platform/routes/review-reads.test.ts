import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformRoutes } from '../platform-routes.js';
import { PlatformState } from '../state.js';
import { snapshotShareRoutes } from './snapshots.js';

// A Wednesday: the measured cases' provider outage was on Sunday, 10:00 to 12:00 UTC.
const NOW = Date.UTC(2026, 10, 11);
const HOUR = 3_600_000;
const iso = (time: number) => new Date(time).toISOString();

describe('the outages and snapshots the sandbox serves', () => {
  let clock = NOW;
  const state = new PlatformState({ now: NOW }, () => clock);
  const app = Fastify({ logger: false });
  const token = state.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token ?? '';
  const group = state.world.accountGroups.find((candidate) => candidate.accountGroupName === 'Acme - EMEA Branches');
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/te/v7${url}${url.includes('?') ? '&' : '?'}aid=${group?.aid ?? ''}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  const warehouse = state.world.tests.find((test) => test.aid === group?.aid && test.testName === 'Warehouse network');
  const outageStart = Date.UTC(2026, 10, 8, 10);
  const snapshotBody = (displayName: string, hours = 2) => ({
    displayName,
    startDate: iso(outageStart),
    endDate: iso(outageStart + hours * HOUR),
  });

  beforeAll(async () => {
    await app.register(platformRoutes, { prefix: '/te/v7', state });
    snapshotShareRoutes(app, state);
    await app.ready();
  });
  afterAll(() => app.close());

  it('answer the provider outage that touched "Warehouse network", at the times and with the tests its event has', async () => {
    const filtered = (await call('POST', '/internet-insights/outages/filter', {
      window: '7d',
      outageScope: 'with-affected-test',
    }).then((answer) => answer.json())) as { outages: Record<string, unknown>[] };
    expect(filtered.outages).toHaveLength(1);
    const [outage] = filtered.outages;
    const events = (await call('GET', '/events?window=7d').then((answer) => answer.json())) as {
      events: { id: string; type: string; startDate: string; endDate?: string }[];
    };
    const network = events.events.find((event) => event.type === 'network');
    expect(outage).toMatchObject({
      type: 'network',
      startDate: network?.startDate,
      endDate: network?.endDate,
      duration: 2 * 3600,
      affectedTestsCount: 1,
    });
    const event = await call('GET', `/events/${network?.id ?? ''}`).then((answer) => answer.json());
    const detail = await call('GET', `/internet-insights/outages/net/${String(outage?.id)}`).then((answer) =>
      answer.json(),
    );
    expect(detail.affectedTests).toEqual([{ id: Number(warehouse?.testId), name: 'Warehouse network' }]);
    expect(detail.affectedTests.map((test: { name: string }) => test.name)).toEqual(
      event.affectedTests.tests.map((test: { name: string }) => test.name),
    );
    expect(detail.affectedAgents.map((agent: { name: string }) => agent.name).sort()).toEqual(
      event.affectedAgents.agents.map((agent: { name: string }) => agent.name).sort(),
    );
  });

  it('leave out outages outside the range, and need a range', async () => {
    const before = await call('POST', '/internet-insights/outages/filter', {
      startDate: iso(outageStart - 48 * HOUR),
      endDate: iso(outageStart - HOUR),
    }).then((answer) => answer.json());
    expect(before.outages).toEqual([]);
    const none = await call('POST', '/internet-insights/outages/filter', {});
    expect(none.statusCode).toBe(400);
  });

  it('make at most 5 snapshots per organization in 5 minutes; the 6th is 429 until the oldest is 5 minutes old', async () => {
    const made = [];
    for (let index = 0; index < 5; index += 1) {
      made.push(await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, snapshotBody(`Outage ${index}`)));
      clock += 10_000;
    }
    expect(made.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const sixth = await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, snapshotBody('Sixth'));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(Number(sixth.headers['retry-after'])).toBe(5 * 60 - 50);
    // The organization's budget is not what refused it: its other calls still have room.
    expect(Number(sixth.headers['x-organization-rate-limit-remaining'])).toBeGreaterThan(0);
    clock += (5 * 60 - 50) * 1000;
    const later = await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, snapshotBody('Later'));
    expect(later.statusCode).toBe(201);
  });

  it('refuse a range of other hours, or one that ends later than now', async () => {
    const three = await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, snapshotBody('Three', 3));
    expect(three.statusCode).toBe(400);
    expect(three.json().errors[0]).toMatchObject({ field: 'endDate' });
    const future = await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, {
      displayName: 'Tomorrow',
      startDate: iso(clock),
      endDate: iso(clock + HOUR),
    });
    expect(future.statusCode).toBe(400);
  });

  it('serve the share link until 30 days after it was made, then answer that it expired', async () => {
    clock += 10 * 60_000;
    const made = (
      await call('POST', `/tests/${warehouse?.testId ?? ''}/snapshot`, snapshotBody('Evidence'))
    ).json() as { _links: { appLink: { href: string } }; shareDate: string };
    const share = new URL(made._links.appLink.href).pathname;
    const open = await app.inject({ method: 'GET', url: share });
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('Test: Warehouse network');
    clock += 30 * 24 * HOUR - 1000;
    expect((await app.inject({ method: 'GET', url: share })).statusCode).toBe(200);
    clock += 1000;
    const expired = await app.inject({ method: 'GET', url: share });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This snapshot expired on');
  });
});
