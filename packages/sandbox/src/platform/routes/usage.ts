import type { FastifyInstance } from 'fastify';
import { billingPeriod, unitsOfTests } from '../simulation/measurements.js';
import { queryOf, list } from './http.js';
import type { RouteContext } from './context.js';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Usage and quotas: the current billing period's units, accrued from the tests' rounds (by type, interval and
 * agents: `simulation/measurements.ts`) and projected to the period's end, against the plan's included units.
 */
export function usageRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/usage', async (request, reply) => {
    const { org, serializer } = caller(request);
    const expand = list(queryOf(request).expand);
    const now = worldNow();
    const [start, end] = billingPeriod(now);
    const groups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    const aids = new Set(groups.map((group) => group.aid));
    const units = unitsOfTests(state.world, aids, start, end, now);
    const sum = (key: 'cloudUnitsUsed' | 'cloudUnitsProjected' | 'enterpriseUnitsUsed' | 'enterpriseUnitsProjected') =>
      units.reduce((total, item) => total + item[key], 0);
    const nameOf = (aid: string) => groups.find((group) => group.aid === aid)?.accountGroupName ?? '';
    return hal(reply).send({
      usage: {
        quota: {
          monthStart: iso(start),
          monthEnd: iso(end),
          cloudUnitsIncluded: org.billing?.cloudUnitsIncluded ?? 5_000_000,
          enterpriseAgentsIncluded: 50,
          endpointAgentsIncluded: org.billing?.endpointAgentsIncluded ?? 500,
          endpointAgentsEssentialsIncluded: 250,
        },
        cloudUnitsUsed: sum('cloudUnitsUsed'),
        cloudUnitsProjected: sum('cloudUnitsProjected'),
        cloudUnitsNextBillingPeriod: sum('cloudUnitsProjected'),
        enterpriseUnitsUsed: sum('enterpriseUnitsUsed'),
        enterpriseUnitsProjected: sum('enterpriseUnitsProjected'),
        enterpriseUnitsNextBillingPeriod: sum('enterpriseUnitsProjected'),
        endpointAgentsUsed: state.world.endpointAgents.filter((agent) => aids.has(agent.aid)).length,
        enterpriseAgentsUsed: state.world.agents.filter((agent) => agent.aids.some((aid) => aids.has(aid))).length,
        ...(expand.includes('test')
          ? {
              tests: units.map(({ test, cloudUnitsUsed, cloudUnitsProjected }) => ({
                aid: test.aid,
                accountGroupName: nameOf(test.aid),
                testId: test.testId,
                testName: test.testName,
                testType: test.type,
                cloudUnitsUsed,
                cloudUnitsProjected,
              })),
            }
          : {}),
      },
      _links: { self: serializer.link('/usage') },
    });
  });

  app.get('/quotas', async (request, reply) => {
    const { org, serializer } = caller(request);
    const groups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    const included = org.billing?.cloudUnitsIncluded ?? 5_000_000;
    return hal(reply).send({
      quotas: [
        {
          organizationQuota: { value: included, orgId: org.orgId },
          accountGroupQuotas: groups.map((group) => ({ value: Math.floor(included / groups.length), aid: group.aid })),
        },
      ],
      _links: { self: serializer.link('/quotas') },
    });
  });
}
