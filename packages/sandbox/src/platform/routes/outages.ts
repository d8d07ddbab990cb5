import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Incident, Test } from '../model.js';
import type { PlatformState } from '../state.js';
import type { RouteContext } from './context.js';
import { DAY_MS, problem } from './http.js';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
const seconds = (time: number) => Math.floor(time / 1000);

/** A provider's network as the world names it on its agents: "Cloud Provider Beta (AS 64509)". */
function providerOf(network: string | undefined): { name: string; asn?: number } {
  const match = /^(.*?)\s*\(AS\s*(\d+)\)\s*$/.exec(network ?? '');
  if (!match) return { name: network || 'Unknown provider' };
  return { name: match[1] ?? '', asn: Number(match[2]) };
}

const hostOf = (test: Test) => {
  const { url, server, domain } = test.config as { url?: unknown; server?: unknown; domain?: unknown };
  if (typeof url === 'string') return new URL(url).hostname;
  if (typeof server === 'string') return server;
  return typeof domain === 'string' ? (domain.split(' ')[0] ?? domain) : test.testName;
};

/**
 * The Internet Insights outages of the world: its provider outages (planted incidents that event detection reports
 * as network events), each at the network of the agents it touched, with the account group's tests it touched (the
 * same tests, agents and times as the event `/events` answers for it).
 */
export function outagesOf(state: PlatformState, aid: string, now: number) {
  return state.world.incidents
    .filter((incident): incident is Incident => incident.event?.type === 'network' && incident.from <= now)
    .map((incident) => {
      const source = state.world.tests.find((test) => test.testId === incident.testId);
      const agentIds = incident.agentIds ?? source?.agentIds ?? [];
      const agents = agentIds.flatMap((agentId) => state.lookup.agent(agentId) ?? []);
      const tests = source && source.aid === aid ? [source] : [];
      const end = incident.to !== undefined && incident.to <= now ? incident.to : undefined;
      return {
        id: createHash('sha256').update(`outage|${incident.id}`).digest('hex').slice(0, 48).toUpperCase(),
        incident,
        provider: providerOf(agents[0]?.network),
        tests,
        agents,
        domains: [...new Set(tests.map(hostOf))],
        locations: [...new Set(agents.map((agent) => agent.location))],
        end,
      };
    })
    .sort((a, b) => b.incident.from - a.incident.from);
}

type Outage = ReturnType<typeof outagesOf>[number];

/** The filter's range: a window (`1d`, `3600`) or start and end dates, never both; one of them required. */
function rangeOf(body: Record<string, unknown>, now: number): [number, number] | string {
  const { window, startDate, endDate } = body;
  if (window !== undefined && (startDate !== undefined || endDate !== undefined))
    return 'Use window or startDate and endDate, not both';
  if (typeof window === 'string') {
    const match = /^(\d+)([smhdw]?)$/.exec(window);
    if (!match) return 'window must be a number followed by s, m, h, d or w';
    const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[match[2] ?? ''] ?? 1000;
    return [now - Number(match[1]) * unit, now];
  }
  if (typeof startDate === 'string' && typeof endDate === 'string') {
    const from = Date.parse(startDate);
    const to = Date.parse(endDate);
    if (Number.isNaN(from) || Number.isNaN(to) || from > to) return 'startDate and endDate must be dates, in order';
    return [from, to];
  }
  return 'Provide either window or startDate and endDate';
}

const names = (value: unknown) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function summary(outage: Outage, now: number, link: (path: string) => { href: string }) {
  const end = outage.end ?? now;
  return {
    id: outage.id,
    type: 'network',
    providerName: outage.provider.name,
    providerType: 'IAAS',
    name: outage.provider.name,
    startDate: iso(outage.incident.from),
    startRoundId: seconds(outage.incident.from),
    ...(outage.end !== undefined ? { endDate: iso(outage.end), endRoundId: seconds(outage.end) } : {}),
    duration: seconds(end - outage.incident.from),
    affectedTestsCount: outage.tests.length,
    affectedServersCount: outage.domains.length,
    affectedLocationsCount: outage.locations.length,
    ...(outage.provider.asn !== undefined ? { asn: outage.provider.asn } : {}),
    _links: { self: link(`/internet-insights/outages/net/${outage.id}`) },
  };
}

/** Internet Insights: `POST /internet-insights/outages/filter` and `GET /internet-insights/outages/net/{id}`. */
export function outageRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.post('/internet-insights/outages/filter', async (request, reply) => {
    const { group, serializer } = caller(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      return problem(reply, 400, 'Bad Request', 'The body is a filter object');
    const now = worldNow();
    const range = rangeOf(body, now);
    if (typeof range === 'string') return problem(reply, 400, 'Bad Request', range);
    const scope = body.outageScope ?? 'all';
    if (scope !== 'all' && scope !== 'with-affected-test')
      return problem(reply, 400, 'Bad Request', 'outageScope is all or with-affected-test');
    const providers = names(body.providerName);
    const networks = names(body.interfaceNetwork);
    // The world's outages are of networks only: an application filter leaves none.
    const applications = names(body.applicationName);
    const outages = outagesOf(state, group.aid, now).filter(
      (outage) =>
        outage.incident.from <= range[1] &&
        (outage.end === undefined || outage.end >= range[0]) &&
        (scope === 'all' || outage.tests.length > 0) &&
        (providers.length === 0 || providers.includes(outage.provider.name)) &&
        (networks.length === 0 || networks.includes(outage.provider.name)) &&
        applications.length === 0,
    );
    return hal(reply).send({
      outages: outages.map((outage) => summary(outage, now, (path) => serializer.link(path))),
      _links: { self: serializer.link('/internet-insights/outages/filter') },
    });
  });

  app.get<{ Params: { outageId: string } }>('/internet-insights/outages/net/:outageId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const now = worldNow();
    const outage = outagesOf(state, group.aid, now).find((candidate) => candidate.id === request.params.outageId);
    if (!outage) return problem(reply, 404, 'Not Found', `Outage ${request.params.outageId} not found`);
    const {
      type: _type,
      name: _name,
      affectedTestsCount: _tests,
      ...base
    } = summary(outage, now, (path) => serializer.link(path));
    const { affectedServersCount: _servers, affectedLocationsCount: _locations, ...rest } = base;
    return hal(reply).send({
      ...rest,
      networkName: outage.provider.name,
      affectedTests: outage.tests.map((test) => ({ id: Number(test.testId), name: test.testName })),
      affectedDomains: outage.domains,
      affectedAgents: outage.agents.map((agent) => ({ id: Number(agent.agentId), name: agent.agentName })),
      affectedLocations: outage.locations.map((location) => ({ location, affectedInterfaces: [] })),
    });
  });
}
