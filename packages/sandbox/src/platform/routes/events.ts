import type { FastifyInstance } from 'fastify';
import type { Incident } from '../model.js';
import type { PlatformState } from '../state.js';
import { paginate, problem, queryOf, timeRange } from './http.js';
import type { RouteContext } from './context.js';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The planted incidents event detection reports, of the group's tests (or agents), with what they touched. */
function eventsOf(state: PlatformState, aid: string, now: number) {
  return state.world.incidents
    .filter(
      (incident): incident is Incident & { event: NonNullable<Incident['event']> } => incident.event !== undefined,
    )
    .flatMap((incident) => {
      const tests = state.world.tests.filter(
        (test) =>
          test.aid === aid &&
          (incident.agentLocal
            ? test.agentIds.some((agentId) => incident.agentIds?.includes(agentId))
            : test.testId === incident.testId),
      );
      if (tests.length === 0 || incident.from > now) return [];
      const agents = incident.agentIds ?? tests.flatMap((test) => test.agentIds);
      const ended = incident.to !== undefined && incident.to <= now;
      return [{ incident, event: incident.event, tests, agents: [...new Set(agents)], ended }];
    })
    .sort((a, b) => b.incident.from - a.incident.from);
}

type Found = ReturnType<typeof eventsOf>[number];

function summary(
  { incident, event, tests, agents, ended }: Found,
  aid: string,
  link: (path: string) => { href: string },
) {
  return {
    id: incident.id,
    typeName: event.typeName,
    type: event.type,
    state: ended ? 'resolved' : 'active',
    severity: event.severity,
    startDate: iso(incident.from),
    ...(ended && incident.to !== undefined ? { endDate: iso(incident.to) } : {}),
    agentType: 'cloud-enterprise-agent',
    affectedTests: { total: tests.length, inAccountGroup: tests.length },
    affectedTargets: { total: tests.length, inAccountGroup: tests.length },
    affectedAgents: { total: agents.length, inAccountGroup: agents.length },
    aid,
    _links: { self: link(`/events/${incident.id}`) },
  };
}

/** Event detection: `/events` (a window or dates required) and `/events/{id}`. */
export function eventRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/events', async (request, reply) => {
    const { group, serializer } = caller(request);
    const query = queryOf(request);
    if (query.window === undefined && query.startDate === undefined)
      return problem(reply, 400, 'Bad Request', 'Provide either window or startDate and endDate');
    const range = timeRange(request, worldNow(), 1);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    const ongoing = query.ongoing === 'true';
    const events = eventsOf(state, group.aid, worldNow()).filter(
      (found) =>
        found.incident.from <= range[1] &&
        (found.incident.to === undefined || found.incident.to >= range[0]) &&
        (!ongoing || !found.ended),
    );
    const page = paginate(request, events, 50, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      aid: group.aid,
      startDate: iso(range[0]),
      endDate: iso(range[1]),
      events: page.items.map((found) => {
        const { aid: _aid, ...rest } = summary(found, group.aid, (path) => serializer.link(path));
        return rest;
      }),
      _links: page.links,
    });
  });

  app.get<{ Params: { id: string } }>('/events/:id', async (request, reply) => {
    const { group, serializer } = caller(request);
    const found = eventsOf(state, group.aid, worldNow()).find(
      (candidate) => candidate.incident.id === request.params.id,
    );
    if (!found) return problem(reply, 404, 'Not Found', `Event ${request.params.id} not found`);
    const base = summary(found, group.aid, (path) => serializer.link(path));
    const agents = found.agents.flatMap((agentId) => state.lookup.agent(agentId) ?? []);
    const grouping =
      found.event.type === 'target'
        ? { target: String(found.tests[0]?.config.url ?? found.tests[0]?.testName ?? '') }
        : found.event.type === 'network'
          ? { sourceAsn: 64500, destAsn: 64501, sourceCountryCode: agents[0]?.countryId ?? 'US' }
          : { agentId: found.agents[0] ?? '' };
    return hal(reply).send({
      ...base,
      summary: found.incident.cause,
      cause: [found.incident.cause],
      affectedTests: {
        ...base.affectedTests,
        tests: found.tests.map((test) => ({ id: test.testId, name: test.testName })),
      },
      affectedAgents: {
        ...base.affectedAgents,
        agents: agents.map((agent) => ({ id: agent.agentId, name: agent.agentName })),
      },
      grouping,
    });
  });
}
