import type { FastifyInstance } from 'fastify';
import { problem, queryOf, list } from './http.js';
import type { RouteContext } from './context.js';

/** Cloud and enterprise agents. */
export function agentRoutes(app: FastifyInstance, { state, caller, hal }: RouteContext): void {
  const agentsOf = (aid: string) =>
    state.world.agents.filter((agent) => agent.agentType === 'cloud' || agent.aids.includes(aid));

  app.get('/agents', async (request, reply) => {
    const { group, serializer } = caller(request);
    const types = list(queryOf(request).agentTypes);
    const expand = list(queryOf(request).expand);
    const agents = agentsOf(group.aid).filter((agent) => types.length === 0 || types.includes(agent.agentType));
    return hal(reply).send({
      agents: agents.map((agent) =>
        serializer.agent(agent, {
          expandTests: expand.includes('test-ids') || expand.includes('test'),
          aid: group.aid,
        }),
      ),
      _links: { self: serializer.link('/agents') },
    });
  });

  app.get<{ Params: { agentId: string } }>('/agents/:agentId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const agent = agentsOf(group.aid).find((candidate) => candidate.agentId === request.params.agentId);
    if (!agent) return problem(reply, 404, 'Not Found', `Agent ${request.params.agentId} not found`);
    return hal(reply).send(serializer.agent(agent, { expandTests: true, aid: group.aid }));
  });

  app.delete<{ Params: { agentId: string } }>('/agents/:agentId', async (request, reply) => {
    const { group } = caller(request);
    const agent = agentsOf(group.aid).find((candidate) => candidate.agentId === request.params.agentId);
    if (!agent) return problem(reply, 404, 'Not Found', `Agent ${request.params.agentId} not found`);
    if (agent.agentType === 'cloud') return problem(reply, 403, 'Forbidden', 'Cloud agents cannot be deleted');
    const usedBy = state.world.tests.filter((test) => test.agentIds.includes(agent.agentId));
    if (usedBy.length > 0) {
      return problem(reply, 400, 'Bad Request', `Agent is currently in use by active tests (${usedBy.length})`, [
        { code: 'AGENT_IN_USE', field: 'agentId', message: 'Agent is currently in use by active tests' },
      ]);
    }
    state.world.agents = state.world.agents.filter((candidate) => candidate.agentId !== agent.agentId);
    return reply.status(204).send();
  });
}
