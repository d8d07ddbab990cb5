import type { AccountGroup, Agent, Test } from '../model.js';
import type { World } from '../world.js';
import { agentActiveUntil } from './rounds.js';

/**
 * Measured regressions a test plants between two runs of a watch (world changes `agent-offline`, `test-failing`):
 * the simulation makes the rounds, the results and the alerts from them as from the seeded cases.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** How many of the test's agents fail, and since how long: a regression between two daily runs of a watch. */
export const PLANTED_FAILING_AGENTS = 3;
/**
 * The world's clock moves with real time, so a test cannot wait a day between two runs: the planted failure begins
 * this far back, as a failure begun after the previous daily run would have been seen by the next.
 */
export const PLANTED_FAILING_FOR_MS = DAY;
export const PLANTED_CAUSE = 'Connection timed out';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class RegressionError extends Error {}

/** What the group's incidents touch: tests, and agents (a local problem touches every test on its agent). */
function touched(world: World): { tests: Set<string>; agents: Set<string> } {
  return {
    tests: new Set(world.incidents.flatMap((incident) => (incident.testId ? [incident.testId] : []))),
    agents: new Set(world.incidents.flatMap((incident) => incident.agentIds ?? [])),
  };
}

/**
 * An enterprise agent of the group, online, goes offline now: it makes no round from now, and `/agents` says
 * `agentState: offline` with its last contact. The one running most of the group's tests goes (its absence shows).
 */
export function plantAgentOffline(world: World, group: AccountGroup, now: number): Agent {
  const onTests = (agent: Agent) =>
    world.tests.filter((test) => test.aid === group.aid && test.agentIds.includes(agent.agentId)).length;
  const agent = world.agents
    .filter(
      (candidate) =>
        candidate.agentType !== 'cloud' && candidate.agentState === 'online' && candidate.aids.includes(group.aid),
    )
    .sort((a, b) => onTests(b) - onTests(a) || a.agentId.localeCompare(b.agentId))[0];
  if (!agent) throw new RegressionError(`No online enterprise agent in ${group.accountGroupName}`);
  agent.agentState = 'offline';
  agent.lastSeen = iso(now);
  return agent;
}

/**
 * A healthy test of the group (its agents all making rounds, no incident on it or them, no alert of its own in the
 * last week) fails from `PLANTED_FAILING_AGENTS` of its agents since `PLANTED_FAILING_FOR_MS` ago, and goes on
 * failing: its rounds carry the cause, its rules derive their alerts from them. The one with the most agents.
 */
export function plantTestFailing(world: World, group: AccountGroup, now: number, id: string): Test {
  const { tests, agents } = touched(world);
  const agentsById = new Map(world.agents.map((agent) => [agent.agentId, agent]));
  const recentAlert = new Set(
    world.alerts
      .filter((alert) => !alert.endDate || Date.parse(alert.endDate) > now - 7 * DAY)
      .map((alert) => alert.testId),
  );
  const healthy = (test: Test) =>
    test.aid === group.aid &&
    test.enabled &&
    test.type !== 'bgp' &&
    test.agentIds.length >= PLANTED_FAILING_AGENTS &&
    !tests.has(test.testId) &&
    !recentAlert.has(test.testId) &&
    test.agentIds.every((agentId) => {
      const agent = agentsById.get(agentId);
      return agent !== undefined && !agents.has(agentId) && agentActiveUntil(agent, now) >= now - HOUR;
    });
  const test = world.tests
    .filter(healthy)
    .sort((a, b) => b.agentIds.length - a.agentIds.length || a.testId.localeCompare(b.testId))[0];
  if (!test)
    throw new RegressionError(`No healthy test with ${PLANTED_FAILING_AGENTS} agents in ${group.accountGroupName}`);
  const step = test.interval * 1000;
  world.incidents.push({
    id,
    testId: test.testId,
    agentIds: test.agentIds.slice(0, PLANTED_FAILING_AGENTS),
    from: Math.ceil((now - PLANTED_FAILING_FOR_MS) / step) * step,
    pattern: 'down',
    cause: PLANTED_CAUSE,
  });
  return test;
}
