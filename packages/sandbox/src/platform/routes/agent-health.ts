import type { FastifyInstance } from 'fastify';
import { problem, timeRange } from './http.js';
import type { AccountGroup } from '../model.js';
import type { RouteContext } from './context.js';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * What the platform says of the agents beyond their list: the agent notification rules (every account group has
 * the default "agent offline" one, its detail naming the agents it is on) and the local problems of its enterprise agents (planted incidents).
 */
export function agentHealthRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  /** The group's agent notification rules: the default "agent offline" one, unless the group deleted it. */
  const rulesOf = (group: AccountGroup) =>
    group.noAgentOfflineRule
      ? []
      : [
          {
            ruleId: `${group.aid}-agent-offline`,
            ruleName: 'Default Agent Offline Notification',
            expression: '((lastSeen >= 10 minutes))',
            notifyOnClear: true,
            isDefault: true,
          },
        ];

  app.get('/agents/notification-rules', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send({
      agentAlertRules: rulesOf(group),
      _links: { self: serializer.link('/agents/notification-rules') },
    });
  });

  // A default rule is on every enterprise agent of the group, but those someone took out of it.
  app.get<{ Params: { ruleId: string } }>('/agents/notification-rules/:ruleId', async (request, reply) => {
    const { org, group, serializer } = caller(request);
    const rule = rulesOf(group).find((candidate) => candidate.ruleId === request.params.ruleId);
    if (!rule) return problem(reply, 404, 'Not Found', `Agent notification rule ${request.params.ruleId} not found`);
    const outside = new Set(group.agentsOutsideOfflineRule ?? []);
    const agents = state.world.agents.filter(
      (agent) => agent.agentType === 'enterprise' && agent.aids.includes(group.aid) && !outside.has(agent.agentId),
    );
    return hal(reply).send({
      ...rule,
      notifications: { email: { recipients: [`noc@${org.slug}.example.com`] } },
      agents: agents.map((agent) => ({
        agentId: agent.agentId,
        agentName: agent.agentName,
        agentType: agent.agentType,
        location: agent.location,
        countryId: agent.countryId,
      })),
      _links: { self: serializer.link(`/agents/notification-rules/${rule.ruleId}`) },
    });
  });

  app.get('/agents/local-problems', async (request, reply) => {
    const { group, serializer } = caller(request);
    const now = worldNow();
    const range = timeRange(request, now, 1);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    const localProblems = state.world.incidents
      .filter((incident) => incident.agentLocal && incident.from <= Math.min(range[1], now))
      .filter((incident) => incident.to === undefined || incident.to >= range[0])
      .flatMap((incident) =>
        (incident.agentIds ?? []).flatMap((agentId) => {
          const agent = state.lookup.agent(agentId);
          if (!agent?.aids.includes(group.aid)) return [];
          const active = incident.to === undefined || incident.to > now;
          return [
            {
              agent: {
                agentId: agent.agentId,
                agentName: agent.agentName,
                countryId: agent.countryId,
                location: agent.location,
              },
              startDate: iso(incident.from),
              ...(active || incident.to === undefined ? {} : { endDate: iso(incident.to) }),
              duration: Math.round(((active ? now : (incident.to ?? now)) - incident.from) / 1000),
              active,
            },
          ];
        }),
      );
    return hal(reply).send({
      localProblems,
      startDate: iso(range[0]),
      endDate: iso(range[1]),
      _links: { self: serializer.link('/agents/local-problems') },
    });
  });
}
