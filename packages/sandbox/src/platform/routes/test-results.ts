import type { FastifyInstance } from 'fastify';
import type { Agent, Test } from '../model.js';
import { roundSpan, roundsOf, type Round } from '../simulation/rounds.js';
import { sourceOf } from '../simulation/measurements.js';
import { problem, queryOf, timeRange } from './http.js';
import type { RouteContext } from './context.js';

/** The results path of each test type the sandbox measures (agent-to-server results are the network ones). */
export const RESULT_KINDS: Record<string, Test['type']> = {
  network: 'agent-to-server',
  'http-server': 'http-server',
  'page-load': 'page-load',
  'dns-server': 'dns-server',
  'dns-trace': 'dns-trace',
};

/**
 * Results a page holds at most (whole rounds: a round's agents are never split over two pages). The document names
 * no size; this holds a week of a usual test (5 agents every 5 minutes) in one page, the platform's cost as issue 58
 * counts it ("one page a test"), so a health check over the demo's customers stays within a minute of its budget.
 */
export const RESULTS_PER_PAGE = 10_000;

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
const between = (draw: number, low: number, high: number) => Math.round((low + draw * (high - low)) * 10) / 10;

/** One round as the document's result of its type says it (figures healthy, or the failure by type). */
function resultOf(kind: string, round: Round, agent: Agent, test: Test, appLink: string) {
  const base = {
    agent: { agentId: agent.agentId, agentName: agent.agentName, countryId: agent.countryId, location: agent.location },
    date: iso(round.at),
    roundId: round.roundId,
    startTime: round.roundId,
    endTime: round.roundId + test.interval,
    _links: { appLink: { href: `${appLink}&roundId=${round.roundId}&agentId=${agent.agentId}` } },
  };
  const failed = round.failed ? { errorDetails: round.cause ?? 'Error' } : {};
  const time = Math.round(between(round.draw, 40, 400));
  switch (kind) {
    case 'network':
      return {
        ...base,
        server: `${String(test.config.server ?? '')}:${String(test.config.port ?? 80)}`,
        serverIp: '192.0.2.10',
        loss: round.failed ? 100 : 0,
        ...(round.failed
          ? {}
          : {
              avgLatency: between(round.draw, 8, 90),
              minLatency: between(round.draw, 5, 8),
              maxLatency: between(round.draw, 90, 120),
              jitter: between(round.draw, 0.2, 4),
            }),
        ...failed,
      };
    case 'http-server':
      return {
        ...base,
        serverIp: '192.0.2.20',
        responseCode: round.failed ? (round.cause?.startsWith('HTTP ') ? Number(round.cause.slice(5)) : 0) : 200,
        errorType: round.failed ? (round.cause?.startsWith('HTTP ') ? 'HTTP' : 'Connect') : 'None',
        ...(round.failed
          ? {}
          : { dnsTime: 12, connectTime: 20, waitTime: time, receiveTime: 8, responseTime: time + 40 }),
        ...failed,
      };
    case 'page-load':
      return {
        ...base,
        numErrors: round.failed ? 1 : 0,
        ...(round.failed ? {} : { responseTime: time, domLoadTime: time * 3, pageLoadTime: time * 4, numObjects: 42 }),
      };
    case 'dns-server':
      return {
        ...base,
        serverId: '1447',
        server: 'ns1.example.net',
        ...(round.failed ? {} : { resolutionTime: Math.round(time / 10), mappings: '192.0.2.30' }),
        ...failed,
      };
    default:
      return {
        ...base,
        queries: 4,
        failedQueries: round.failed ? 4 : 0,
        ...(round.failed ? {} : { finalQueryTime: Math.round(time / 10), mappings: '192.0.2.30' }),
        ...failed,
      };
  }
}

/**
 * Test results by type (`/test-results/{testId}/{kind}`), made on request from the simulated rounds. Without a
 * range, the most recent round; with one, every round that started in it and the one in progress at its start.
 * Pages hold whole rounds, at most `RESULTS_PER_PAGE` results; the cursor names the next page's first round.
 */
export function testResultRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get<{ Params: { testId: string; kind: string } }>('/test-results/:testId/:kind', async (request, reply) => {
    const { group, serializer } = caller(request);
    const { testId, kind } = request.params;
    const test = state.lookup.testsOf(group.aid).find((candidate) => candidate.testId === testId);
    if (!test) return problem(reply, 404, 'Not Found', `Test ${testId} not found`);
    if (RESULT_KINDS[kind] !== test.type)
      return problem(reply, 400, 'Bad Request', `Test ${testId} is a ${test.type} test: it has no ${kind} results`);
    const now = worldNow();
    const query = queryOf(request);
    const given = query.window !== undefined || query.startDate !== undefined || query.endDate !== undefined;
    const range = given ? timeRange(request, now, 1) : ([now - test.interval * 1000, now] as [number, number]);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    let startAt: number | undefined;
    if (query.cursor) {
      startAt = Number(Buffer.from(query.cursor, 'base64url').toString('utf8'));
      if (!Number.isFinite(startAt)) return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    }
    const agentsById = new Map(state.world.agents.map((agent) => [agent.agentId, agent]));
    const source = sourceOf(state.world, test, state.world.seed, now, agentsById);
    const perRound = Math.max(1, source.agents.length);
    const roundsPerPage = Math.max(1, Math.floor(RESULTS_PER_PAGE / perRound));
    const step = test.interval * 1000;
    const span = roundSpan(test, range[0], range[1], now);
    const first = Math.max(span?.[0] ?? 0, startAt ?? 0);
    const last = first + (roundsPerPage - 1) * step;
    const base = serializer.link('').href;
    const appLink = `https://app.thousandeyes.com/view/tests?__a=${group.aid}&testId=${test.testId}`;
    const results = span
      ? [...roundsOf(source, range[0], Math.min(range[1], last), first)].map((round) =>
          resultOf(kind, round, agentsById.get(round.agentId) as Agent, test, appLink),
        )
      : [];
    const params = new URLSearchParams(
      Object.entries(query).filter(
        (entry): entry is [string, string] => entry[0] !== 'cursor' && entry[1] !== undefined,
      ),
    );
    const path = `/test-results/${test.testId}/${kind}`;
    const links: Record<string, { href: string }> = { self: { href: `${base}${path}?${params}` } };
    if (span && last + step <= span[1]) {
      const next = new URLSearchParams(params);
      next.set('cursor', Buffer.from(String(last + step)).toString('base64url'));
      links.next = { href: `${base}${path}?${next}` };
    }
    return hal(reply).send({
      results,
      test: { ...serializer.testSummary(test, false) },
      startDate: iso(range[0]),
      endDate: iso(range[1]),
      _links: links,
    });
  });
}
