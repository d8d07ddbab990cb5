import type { FastifyInstance } from 'fastify';
import type { Test } from '../model.js';
import { queryOf, list } from './http.js';
import type { RouteContext } from './context.js';

/** Usage and quotas. */
export function usageRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/usage', async (request, reply) => {
    const { org, serializer } = caller(request);
    const expand = list(queryOf(request).expand);
    const aids = new Set(
      state.world.accountGroups.filter((group) => group.orgId === org.orgId).map((group) => group.aid),
    );
    const tests = state.world.tests.filter((test) => aids.has(test.aid));
    const unitsFor = (test: Test) =>
      Math.round((Math.max(1, test.agentIds.length) * 86_400 * 30) / test.interval / 100);
    const cloudUnitsUsed = tests.reduce((sum, test) => sum + unitsFor(test), 0);
    const monthStart = new Date(worldNow());
    monthStart.setUTCDate(1);
    const monthEnd = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 0));
    return hal(reply).send({
      usage: {
        quota: {
          monthStart: `${monthStart.toISOString().slice(0, 10)}T00:00:00Z`,
          monthEnd: `${monthEnd.toISOString().slice(0, 10)}T23:59:59Z`,
          cloudUnitsIncluded: 5_000_000,
          enterpriseAgentsIncluded: 50,
          endpointAgentsIncluded: 500,
          endpointAgentsEssentialsIncluded: 250,
        },
        cloudUnitsUsed,
        cloudUnitsProjected: Math.round(cloudUnitsUsed * 1.1),
        cloudUnitsNextBillingPeriod: Math.round(cloudUnitsUsed * 1.05),
        enterpriseUnitsUsed: 0,
        enterpriseUnitsProjected: 0,
        enterpriseUnitsNextBillingPeriod: 0,
        endpointAgentsUsed: state.world.endpointAgents.filter((agent) => aids.has(agent.aid)).length,
        enterpriseAgentsUsed: state.world.agents.filter((agent) => agent.aids.some((aid) => aids.has(aid))).length,
        ...(expand.includes('test')
          ? {
              tests: tests.map((test) => ({
                aid: test.aid,
                accountGroupName:
                  state.world.accountGroups.find((group) => group.aid === test.aid)?.accountGroupName ?? '',
                testId: test.testId,
                testName: test.testName,
                testType: test.type,
                cloudUnitsUsed: unitsFor(test),
                cloudUnitsProjected: Math.round(unitsFor(test) * 1.1),
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
    return hal(reply).send({
      quotas: [
        {
          organizationQuota: { value: 5_000_000, orgId: org.orgId },
          accountGroupQuotas: groups.map((group) => ({ value: Math.floor(5_000_000 / groups.length), aid: group.aid })),
        },
      ],
      _links: { self: serializer.link('/quotas') },
    });
  });
}
