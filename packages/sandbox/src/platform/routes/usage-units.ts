import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { billingPeriod, unitsOf } from '../simulation/measurements.js';
import { paginate, problem, queryOf } from './http.js';
import type { RouteContext } from './context.js';

/**
 * Units by test and by enterprise agent for a period (`startDate`/`endDate`, the current billing period by
 * default), paginated; only for organizations on usage-based pricing (403 otherwise, as the document says the
 * operations are "only available to customers on usage based pricing model").
 */
export function usageUnitRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  const period = (request: FastifyRequest, reply: FastifyReply) => {
    const { org } = caller(request);
    if (!org.billing?.usagePricing) {
      problem(reply, 403, 'Forbidden', 'Only available to organizations on usage-based pricing');
      return undefined;
    }
    const now = worldNow();
    const [start, end] = billingPeriod(now);
    const query = queryOf(request);
    const from = query.startDate ? Date.parse(query.startDate) : start;
    const to = query.endDate ? Date.parse(query.endDate) : end;
    if (Number.isNaN(from) || Number.isNaN(to) || from > to) {
      problem(reply, 400, 'Bad Request', 'startDate and endDate must be dates, the start before the end');
      return undefined;
    }
    const groups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    const aids = new Set(groups.map((group) => group.aid));
    const tests = state.world.tests.filter((test) => aids.has(test.aid));
    const nameOf = (aid: string) => groups.find((group) => group.aid === aid)?.accountGroupName ?? '';
    // Only the units asked for are counted: a page of tests its own tests' (an organization's 10,000 tests each page
    // would cost the whole list over again).
    return { tests, units: (some: typeof tests) => unitsOf(state.world, some, from, to, now), nameOf };
  };

  app.get('/usage/units/tests', async (request, reply) => {
    const found = period(request, reply);
    if (!found) return reply;
    const { serializer } = caller(request);
    const page = paginate(request, found.tests, 100, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      breakdowns: found.units(page.items).map(({ test, enterpriseAgents: _agents, ...units }) => ({
        aid: test.aid,
        accountGroupName: found.nameOf(test.aid),
        testId: test.testId,
        testName: test.testName,
        testType: test.type,
        isInstantTest: false,
        ...units,
      })),
      _links: page.links,
    });
  });

  app.get('/usage/units/enterprise-agents', async (request, reply) => {
    const found = period(request, reply);
    if (!found) return reply;
    const { serializer } = caller(request);
    // An agent's units are shared among the account groups whose tests run on it (not its primary group's alone).
    const byGroupAndAgent = new Map<string, { aid: string; agentId: string; used: number; projected: number }>();
    for (const { test, enterpriseAgents } of found.units(found.tests)) {
      for (const { agentId, used, projected } of enterpriseAgents) {
        const key = `${test.aid}|${agentId}`;
        const entry = byGroupAndAgent.get(key) ?? { aid: test.aid, agentId, used: 0, projected: 0 };
        entry.used += used;
        entry.projected += projected;
        byGroupAndAgent.set(key, entry);
      }
    }
    const page = paginate(request, [...byGroupAndAgent.values()], 100, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      breakdowns: page.items.map((entry) => ({
        aid: entry.aid,
        accountGroupName: found.nameOf(entry.aid),
        agentId: entry.agentId,
        agentName: state.lookup.agent(entry.agentId)?.agentName ?? '',
        enterpriseUnitsUsed: entry.used,
        enterpriseUnitsProjected: entry.projected,
      })),
      _links: page.links,
    });
  });
}
