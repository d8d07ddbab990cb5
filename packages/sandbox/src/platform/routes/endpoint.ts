import type { FastifyInstance } from 'fastify';
import { problem, queryOf, list, paginate } from './http.js';
import type { RouteContext } from './context.js';

/** Endpoint agents, labels and tests. */
export function endpointRoutes(app: FastifyInstance, { state, caller, hal }: RouteContext): void {
  app.get('/endpoint/agents', async (request, reply) => {
    const { group, serializer } = caller(request);
    const agents = state.world.endpointAgents.filter((agent) => agent.aid === group.aid);
    const page = paginate(request, agents, 20, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      totalAgents: agents.length,
      agents: page.items.map((agent) => ({
        ...agent,
        deleted: false,
        agentType: 'enterprise',
        _links: { self: serializer.link(`/endpoint/agents/${agent.id}`) },
      })),
      _links: page.links,
    });
  });

  app.get('/endpoint/labels', async (request, reply) => {
    const { group, serializer } = caller(request);
    const withFilters = list(queryOf(request).expand).includes('filters');
    const labels = state.world.endpointLabels.filter((label) => label.aid === group.aid);
    const page = paginate(request, labels, 20, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      labels: page.items.map(({ aid: _aid, filters, ...label }) => ({
        ...label,
        ...(withFilters ? { filters } : {}),
        _links: { self: serializer.link(`/endpoint/labels/${label.id}`) },
      })),
      _links: page.links,
    });
  });

  app.get('/endpoint/tests/dynamic-tests/agent-to-server', async (request, reply) => {
    const { group, serializer } = caller(request);
    const tests = state.world.endpointDynamicTests.filter((test) => test.aid === group.aid);
    return hal(reply).send({
      tests: tests.map((test) => ({
        ...test,
        isPrioritized: false,
        _links: { self: serializer.link(`/endpoint/tests/dynamic-tests/agent-to-server/${test.testId}`) },
      })),
      _links: { self: serializer.link('/endpoint/tests/dynamic-tests/agent-to-server') },
    });
  });

  app.get('/endpoint/tests/scheduled-tests', async (request, reply) => {
    const { group, serializer } = caller(request);
    const tests = state.world.endpointTests.filter((test) => test.aid === group.aid);
    return hal(reply).send({
      tests: tests.map((test) => ({
        ...test,
        isPrioritized: false,
        _links: { self: serializer.link(`/endpoint/tests/scheduled-tests/${test.type}/${test.testId}`) },
      })),
      _links: { self: serializer.link('/endpoint/tests/scheduled-tests') },
    });
  });
}
