import type { Agent, Alert, AlertRule, Incident, Test } from '../model.js';
import { hashString } from '../random.js';
import type { World } from '../world.js';
import { countRounds, roundOf, type Round, type RoundSource } from './rounds.js';

/** An alert the sandbox derived from a rule's conditions over the simulated rounds (see `derivedAlerts`). */
export interface DerivedAlert extends Alert {
  /** The agents failing when it triggered, and their rounds' cause. */
  agentIds: string[];
  cause: string;
}

const hex = (text: string, length: number) =>
  Array.from({ length: Math.ceil(length / 8) }, (_, index) =>
    hashString(`${text}#${index}`).toString(16).padStart(8, '0'),
  )
    .join('')
    .slice(0, length);

/** A deterministic v4-shaped uuid from a text (alert and event ids are uuids in v7). */
export function uuidOf(text: string): string {
  return `${hex(text, 8)}-${hex(`${text}b`, 4)}-4${hex(`${text}c`, 3)}-a${hex(`${text}d`, 3)}-${hex(`${text}e`, 12)}`;
}

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What the rounds of one test are made from, in this world. */
export function sourceOf(
  world: World,
  test: Test,
  seed: string,
  now: number,
  agentsById: Map<string, Agent>,
): RoundSource {
  const agents = test.agentIds.flatMap((agentId) => agentsById.get(agentId) ?? []);
  const agentIds = new Set(test.agentIds);
  return {
    test,
    agents,
    incidents: world.incidents.filter(
      (incident) =>
        incident.testId === test.testId ||
        (incident.agentLocal === true && (incident.agentIds ?? []).some((agentId) => agentIds.has(agentId))),
    ),
    alerts: world.alerts
      .filter((alert) => alert.testId === test.testId && !alert.derived)
      .map((alert) => ({ alert, rule: world.alertRules.find((rule) => rule.ruleId === alert.alertRuleId) })),
    seed,
    now,
  };
}

/**
 * A rule's alerts over one test, from its own conditions: a round violates when at least `minimumSources` of its
 * agents failed (all of them when fewer); the rule triggers once `roundsViolatingRequired` of the last
 * `roundsViolatingOutOf` rounds violate, and clears at the first round that does not.
 */
function evaluate(rule: AlertRule, source: RoundSource, from: number, to: number): DerivedAlert[] {
  const step = source.test.interval * 1000;
  const alerts: DerivedAlert[] = [];
  let recent: boolean[] = [];
  let open: { start: number; violations: number; failing: Round[] } | undefined;
  const close = (end: number | undefined) => {
    if (!open) return;
    const id = uuidOf(`${rule.ruleId}|${source.test.testId}|${open.start}`);
    alerts.push({
      id,
      aid: rule.aid,
      alertType: rule.alertType,
      alertRuleId: rule.ruleId,
      alertState: end === undefined ? 'trigger' : 'clear',
      alertSeverity: rule.severity,
      startDate: iso(open.start),
      ...(end === undefined ? {} : { endDate: iso(end) }),
      violationCount: open.violations,
      duration: Math.round(((end ?? source.now) - open.start) / 1000),
      suppressed: false,
      testId: source.test.testId,
      agentIds: open.failing.map((round) => round.agentId),
      cause: open.failing[0]?.cause ?? '',
    });
    open = undefined;
    recent = [];
  };
  for (let at = Math.ceil(from / step) * step; at <= Math.min(to, source.now); at += step) {
    const rounds = source.agents.flatMap((agent) => roundOf(source, agent, at) ?? []);
    if (rounds.length === 0) continue;
    const failing = rounds.filter((round) => round.failed);
    const violating = failing.length >= Math.max(1, Math.min(rule.minimumSources, rounds.length));
    recent.push(violating);
    if (recent.length > Math.max(1, rule.roundsViolatingOutOf)) recent.shift();
    if (open && violating) open.violations += 1;
    else if (open) close(at);
    else if (recent.filter(Boolean).length >= Math.max(1, rule.roundsViolatingRequired))
      open = { start: at, violations: recent.filter(Boolean).length, failing };
  }
  close(undefined);
  return alerts;
}

/** The span an incident's rounds fail in, widened by a round on each side so triggers and clears fall in it. */
const spanOf = (incident: Incident, step: number, now: number): [number, number] => [
  incident.from - step,
  Math.min(incident.to ?? now, now) + step,
];

/**
 * The alerts the rules of an account group derive from the incidents on their tests, up to `now` (the planted
 * incidents only: elsewhere the seeded alerts are the history, and the rounds follow them).
 */
export function derivedAlerts(world: World, aid: string, seed: string, now: number): DerivedAlert[] {
  if (world.incidents.length === 0) return [];
  const touchedTests = new Set(world.incidents.flatMap((incident) => (incident.testId ? [incident.testId] : [])));
  const touchedAgents = new Set(
    world.incidents.flatMap((incident) => (incident.agentLocal ? (incident.agentIds ?? []) : [])),
  );
  const tests = world.tests.filter(
    (test) =>
      test.aid === aid &&
      test.alertsEnabled &&
      (touchedTests.has(test.testId) || test.agentIds.some((agentId) => touchedAgents.has(agentId))),
  );
  if (tests.length === 0) return [];
  const agentsById = new Map(world.agents.map((agent) => [agent.agentId, agent]));
  const alerts: DerivedAlert[] = [];
  for (const test of tests) {
    const source = sourceOf(world, test, seed, now, agentsById);
    const step = test.interval * 1000;
    const spans = source.incidents.map((incident) => spanOf(incident, step, now));
    const from = Math.min(...spans.map((span) => span[0]));
    const to = Math.max(...spans.map((span) => span[1]));
    for (const rule of world.alertRules)
      if (rule.aid === aid && rule.testIds.includes(test.testId)) alerts.push(...evaluate(rule, source, from, to));
  }
  return alerts.sort((a, b) => b.startDate.localeCompare(a.startDate));
}

/** Cloud units a round costs per agent, by test type (the sandbox's own weights; BGP tests cost none). */
export const UNITS_PER_ROUND: Record<Test['type'], number> = {
  'agent-to-server': 5,
  'http-server': 5,
  'page-load': 15,
  'dns-server': 2,
  'dns-trace': 2,
  bgp: 0,
};

export interface TestUnits {
  test: Test;
  cloudUnitsUsed: number;
  cloudUnitsProjected: number;
  enterpriseUnitsUsed: number;
  enterpriseUnitsProjected: number;
  /** The enterprise agents' share of it, agent by agent. */
  enterpriseAgents: { agentId: string; used: number; projected: number }[];
}

/** The billing period containing `now`: its first day 00:00 UTC to its last day 23:59:59 UTC. */
export function billingPeriod(now: number): [number, number] {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return [start, Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - 1000];
}

/**
 * Units each test used in [from, min(to, now)] (its rounds, by type, per agent: cloud agents' rounds in cloud
 * units, enterprise agents' in enterprise units), and projected to `to` as the test and its agents are now.
 */
export function unitsOfTests(world: World, aids: Set<string>, from: number, to: number, now: number): TestUnits[] {
  return unitsOf(
    world,
    world.tests.filter((test) => aids.has(test.aid)),
    from,
    to,
    now,
  );
}

/** The units of the given tests of the world, as `unitsOfTests` counts them (a page of tests costs its own tests). */
export function unitsOf(world: World, tests: Test[], from: number, to: number, now: number): TestUnits[] {
  const agentsById = new Map(world.agents.map((agent) => [agent.agentId, agent]));
  return tests.map((test) => {
    const units = { cloudUnitsUsed: 0, cloudUnitsProjected: 0, enterpriseUnitsUsed: 0, enterpriseUnitsProjected: 0 };
    const enterpriseAgents: TestUnits['enterpriseAgents'] = [];
    for (const agentId of test.agentIds) {
      const agent = agentsById.get(agentId);
      if (!agent) continue;
      const used = countRounds(test, agent, from, Math.min(to, now), now) * UNITS_PER_ROUND[test.type];
      const projected = now >= to ? used : countRounds(test, agent, from, to, to) * UNITS_PER_ROUND[test.type];
      if (agent.agentType === 'cloud') {
        units.cloudUnitsUsed += used;
        units.cloudUnitsProjected += projected;
      } else {
        units.enterpriseUnitsUsed += used;
        units.enterpriseUnitsProjected += projected;
        enterpriseAgents.push({ agentId, used, projected });
      }
    }
    return { test, ...units, enterpriseAgents };
  });
}
