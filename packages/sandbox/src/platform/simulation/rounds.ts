import type { Agent, Alert, AlertRule, Incident, Test } from '../model.js';
import { hashString } from '../random.js';

/**
 * The simulated measurements: each enabled test makes a round per agent at its interval (rounds start at
 * multiples of the interval since the epoch, `roundId` = the round's start in epoch seconds). Nothing is stored:
 * the rounds of a window are made when asked for, from the seed, the test, the agent and the round, so a week of
 * 10,000 tests costs no memory. A round fails while an incident touches it, or while a seeded alert on the test is
 * active (from as many of its agents as the rule needs); otherwise it is healthy, its figures drawn from the seed.
 */
export interface Round {
  testId: string;
  agentId: string;
  roundId: number;
  /** Epoch milliseconds of the round's start. */
  at: number;
  failed: boolean;
  /** Why it failed, in the words of the results' `errorDetails`. */
  cause?: string;
  /** 0..1, from the seed: the healthy figures (latency, times) are drawn from it. */
  draw: number;
}

/** What the rounds of one test are made from. */
export interface RoundSource {
  test: Test;
  agents: Agent[];
  /** Incidents on the test, or on its agents (local problems). */
  incidents: Incident[];
  /** Seeded alerts on the test (active periods make failing rounds), with their rules. */
  alerts: { alert: Alert; rule: AlertRule | undefined }[];
  seed: string;
  /** The world's clock: no round starts after it. */
  now: number;
}

const parse = (date: string | undefined) => (date ? Date.parse(date) : Number.NaN);

/** When an agent makes rounds: a cloud agent always; an enterprise agent not online only until it was last seen. */
export function agentActiveUntil(agent: Agent, now: number): number {
  if (agent.agentType === 'cloud' || agent.agentState === 'online') return now;
  const seen = parse(agent.lastSeen);
  return Number.isNaN(seen) ? Number.NEGATIVE_INFINITY : Math.min(seen, now);
}

/** The first and last round start (ms) of `test` in [from, to], counting the round in progress at `from`. */
export function roundSpan(test: Test, from: number, to: number, now: number): [number, number] | undefined {
  if (!test.enabled || test.type === 'bgp') return undefined;
  const step = test.interval * 1000;
  const created = parse(test.createdDate);
  const start = Math.max(
    Math.floor(from / step) * step,
    Number.isNaN(created) ? from : Math.ceil(created / step) * step,
  );
  const end = Math.floor(Math.min(to, now) / step) * step;
  return start > end ? undefined : [start, end];
}

/**
 * How many rounds an agent made for a test starting in [from, to] (counted, not made: units use it). A projection
 * passes a `now` past `to`: the test and its agents are taken to go on as they are.
 */
export function countRounds(test: Test, agent: Agent, from: number, to: number, now: number): number {
  const span = roundSpan(test, from, to, now);
  if (!span) return 0;
  const step = test.interval * 1000;
  const first = Math.max(span[0], Math.ceil(from / step) * step);
  const last = Math.min(span[1], Math.floor(agentActiveUntil(agent, now) / step) * step);
  return last < first ? 0 : Math.floor((last - first) / step) + 1;
}

function touches(incident: Incident, source: RoundSource, agent: Agent, at: number): boolean {
  if (at < incident.from || (incident.to !== undefined && at >= incident.to)) return false;
  if (incident.agentLocal) return incident.agentIds?.includes(agent.agentId) ?? false;
  if (incident.testId !== source.test.testId) return false;
  if (incident.agentIds && !incident.agentIds.includes(agent.agentId)) return false;
  if (incident.pattern === 'flap') {
    const period = (incident.periodSeconds ?? 3600) * 1000;
    return Math.floor(at / period) !== Math.floor((at - source.test.interval * 1000) / period);
  }
  return true;
}

/** The seeded alert on the test active at `at` that the agent's round fails for, if any. */
function alertFailure(source: RoundSource, agent: Agent, at: number): string | undefined {
  for (const { alert, rule } of source.alerts) {
    if (alert.suppressed) continue;
    const start = parse(alert.startDate);
    const end = alert.endDate ? parse(alert.endDate) : Number.POSITIVE_INFINITY;
    if (at < start || at >= end) continue;
    const needed = Math.max(1, Math.min(rule?.minimumSources ?? 1, source.agents.length));
    if (source.agents.slice(0, needed).some((candidate) => candidate.agentId === agent.agentId))
      return `Alert rule "${rule?.ruleName ?? alert.alertRuleId}" conditions met`;
  }
  return undefined;
}

/** One agent's round of the test starting at `at` (ms), or undefined when the agent made none. */
export function roundOf(source: RoundSource, agent: Agent, at: number): Round | undefined {
  if (at > agentActiveUntil(agent, source.now)) return undefined;
  const roundId = Math.floor(at / 1000);
  const draw = hashString(`${source.seed}|${source.test.testId}|${agent.agentId}|${roundId}`) / 4294967296;
  const incident = source.incidents.find((candidate) => touches(candidate, source, agent, at));
  const cause = incident?.cause ?? alertFailure(source, agent, at);
  return {
    testId: source.test.testId,
    agentId: agent.agentId,
    roundId,
    at,
    failed: cause !== undefined,
    ...(cause === undefined ? {} : { cause }),
    draw,
  };
}

/**
 * The rounds of a test in [from, to], round by round (each round's agents in the test's order), from the round
 * starting at `startAt` (a page's cursor) on; the round in progress at `from` is included, as the platform does.
 */
export function* roundsOf(source: RoundSource, from: number, to: number, startAt?: number): Generator<Round> {
  const span = roundSpan(source.test, from, to, source.now);
  if (!span) return;
  const step = source.test.interval * 1000;
  for (let at = Math.max(span[0], startAt ?? span[0]); at <= span[1]; at += step) {
    for (const agent of source.agents) {
      const round = roundOf(source, agent, at);
      if (round) yield round;
    }
  }
}
