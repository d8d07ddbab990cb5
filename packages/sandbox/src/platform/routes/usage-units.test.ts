import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformRoutes } from '../platform-routes.js';
import { PlatformState } from '../state.js';
import { billingPeriod, unitsOfTests } from '../simulation/measurements.js';

const NOW = Date.UTC(2026, 10, 11, 9);
const PAGE = 7;

interface Page {
  breakdowns: { testId: string; cloudUnitsUsed: number; enterpriseUnitsProjected: number }[];
  _links: { next?: { href: string } };
}

describe('the units by test, page by page', () => {
  const state = new PlatformState({ now: NOW }, () => NOW);
  const app = Fastify({ logger: false });
  const admin = state.world.tokens.find((candidate) => candidate.kind === 'org-admin');
  const org = state.world.organizations.find((candidate) => candidate.orgId === admin?.orgId);
  const aids = new Set(state.world.accountGroups.filter((g) => g.orgId === org?.orgId).map((g) => g.aid));
  const get = async <T>(url: string) =>
    (await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin?.token ?? ''}` } })).json<T>();

  beforeAll(async () => {
    await app.register(platformRoutes, { prefix: '/te/v7', state });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answer every test of the organization once, with the units the whole list counts', async () => {
    expect(org?.billing?.usagePricing).toBe(true);
    const [start, end] = billingPeriod(NOW);
    const expected = unitsOfTests(state.world, aids, start, end, NOW);
    expect(expected.length).toBeGreaterThan(2 * PAGE);
    const got: Page['breakdowns'] = [];
    let url: string | undefined = `/te/v7/usage/units/tests?max=${PAGE}`;
    let pages = 0;
    while (url) {
      const page: Page = await get<Page>(url);
      got.push(...page.breakdowns);
      pages += 1;
      const next = page._links.next?.href;
      url = next ? `/te${next.slice(next.indexOf('/v7/'))}` : undefined;
    }
    expect(pages).toBe(Math.ceil(expected.length / PAGE));
    expect(got).toEqual(
      expected.map((units) =>
        expect.objectContaining({
          testId: units.test.testId,
          cloudUnitsUsed: units.cloudUnitsUsed,
          enterpriseUnitsProjected: units.enterpriseUnitsProjected,
        }),
      ),
    );
  });

  it("answer the enterprise agents' units as their tests' sum", async () => {
    const [start, end] = billingPeriod(NOW);
    const expected = unitsOfTests(state.world, aids, start, end, NOW).reduce(
      (sum, units) => sum + units.enterpriseUnitsProjected,
      0,
    );
    const page = await get<{ breakdowns: { enterpriseUnitsProjected: number }[] }>(
      '/te/v7/usage/units/enterprise-agents?max=1000',
    );
    expect(expected).toBeGreaterThan(0);
    expect(page.breakdowns.reduce((sum, entry) => sum + entry.enterpriseUnitsProjected, 0)).toBe(expected);
  });
});
