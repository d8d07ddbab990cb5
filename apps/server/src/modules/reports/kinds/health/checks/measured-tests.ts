import type { EvidenceItem, HealthCheck, HealthStatus } from '@ce/contract';
import { day, finished, percent, plural, type CheckSpec, type HealthInput, unknownCheck } from './input.js';
import type { MeasuredInput, TestMeasure } from './measured-input.js';
import { MEASURED_LIMITS as L } from './measured-limits.js';

const DAYS = L.resultDays;
const when = (iso: string) => `${day(iso)} ${iso.slice(11, 16)} UTC`;
const share = (good: number, all: number) => (all === 0 ? 1 : good / all);

const ROUND_RULE = `A round is good when it has no error and at most ${L.maxLossPercent}% loss and ${L.maxLatencyMs} ms average latency where the test type measures them.`;

function testItem(test: TestMeasure, detail: string): EvidenceItem {
  return { type: 'test', id: test.testId, name: test.testName, detail, accountGroup: test.accountGroup };
}

/** "3 of 5 agents failing since 2026-03-10 09:00 UTC" (the earliest of the failing runs still going on). */
function failingAgents(test: TestMeasure): string {
  const failing = test.agents.filter((agent) => agent.failingSince !== undefined);
  if (failing.length === 0) return `no agent failing at the window's end`;
  const since = failing.map((agent) => agent.failingSince ?? '').sort()[0] ?? '';
  return `${failing.length} of ${plural(test.agents.length, 'agent')} failing since ${when(since)}`;
}

type Results = { ok: true; measured: MeasuredInput; tests: TestMeasure[] } | { ok: false; check: HealthCheck };

/** The tests' results, or the check unknown with the reason they could not be read. */
function resultsOf(input: HealthInput, spec: CheckSpec): Results {
  const measured = input.measured;
  if (!measured) return { ok: false, check: unknownCheck(spec, 'The results were not read.') };
  if (!measured.results.ok) return { ok: false, check: unknownCheck(spec, measured.results.reason) };
  return { ok: true, measured, tests: measured.results.value };
}

/** Tests with rounds whose share of good rounds is below the target, the worst first. */
export function testAvailability(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'test-availability',
    title: 'Tests below their availability target',
    threshold: `below ${percent(L.availabilityTarget)} of rounds good over ${DAYS} days (below ${percent(L.availabilityFail)} fails)`,
    definition: `Each enabled test's results of the last ${DAYS} days, round by round and agent by agent (/test-results): its availability is the share of good rounds. ${ROUND_RULE} Tests below ${percent(L.availabilityTarget)} are listed, the worst first; one below ${percent(L.availabilityFail)} fails the check.`,
    remediation:
      'Start with the worst tests: look at the failing agents and since when, fix the target or the path, or move the test off agents that cannot reach it.',
  };
  const read = resultsOf(input, spec);
  if (!read.ok) return read.check;
  const below = read.tests
    .filter((test) => test.results > 0 && share(test.good, test.results) < L.availabilityTarget)
    .sort((a, b) => share(a.good, a.results) - share(b.good, b.results));
  const items = below.map((test) =>
    testItem(
      test,
      `availability ${percent(share(test.good, test.results))} over ${DAYS} days (${test.good.toLocaleString('en-US')} of ${test.results.toLocaleString('en-US')} rounds good); ${failingAgents(test)}`,
    ),
  );
  const worst = below[0];
  const status: HealthStatus =
    worst && share(worst.good, worst.results) < L.availabilityFail ? 'fail' : items.length ? 'warn' : 'pass';
  return { ...finished(spec, items, 'warn'), status };
}

export function testsAlwaysFailing(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'tests-always-failing',
    title: 'Tests that always fail',
    threshold: `no good round in ${DAYS} days`,
    definition: `Enabled tests that made rounds in the last ${DAYS} days and not one good round from any agent. ${ROUND_RULE}`,
    remediation:
      'A test that never passes tells nobody anything: fix its target or settings, or delete it (its units are spent for nothing).',
  };
  const read = resultsOf(input, spec);
  if (!read.ok) return read.check;
  const items = read.tests
    .filter((test) => test.results > 0 && test.good === 0)
    .map((test) => testItem(test, `${plural(test.results, 'round')} in ${DAYS} days, none good`));
  return finished(spec, items, 'fail');
}

export function agentTestPairsFailing(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'agent-test-pairs-failing',
    title: 'Agents that never succeed on a test',
    threshold: `no good round in ${DAYS} days from one agent`,
    definition: `Agents whose every round of a test in the last ${DAYS} days failed while other agents of the same test had good rounds (a test failing from every agent is a test that always fails). ${ROUND_RULE}`,
    remediation:
      'The agent cannot reach the target (a firewall, a proxy, a route): fix its path, or take the agent off the test.',
  };
  const read = resultsOf(input, spec);
  if (!read.ok) return read.check;
  const items = read.tests
    .filter((test) => test.good > 0)
    .flatMap((test) =>
      test.agents
        .filter((agent) => agent.rounds > 0 && agent.good === 0)
        .map((agent): EvidenceItem => ({
          type: 'test',
          id: `${test.testId}:${agent.agentId}`,
          name: `${test.testName} from ${agent.agentName}`,
          detail: `${plural(agent.rounds, 'round')} in ${DAYS} days, none good`,
          accountGroup: test.accountGroup,
        })),
    );
  return finished(spec, items, 'warn');
}

export function testsWithoutAgents(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'tests-without-agents',
    title: 'Tests whose agents are all offline',
    threshold: `no round in ${DAYS} days`,
    definition: `Enabled tests that made no round in the last ${DAYS} days: every agent they run on is offline (the agents list names the test's agents and their state).`,
    remediation: 'Bring the agents back online, or move the test to agents that run; until then it measures nothing.',
  };
  const read = resultsOf(input, spec);
  if (!read.ok) return read.check;
  const { agents: agentsRead, from } = read.measured;
  if (!agentsRead.ok) return unknownCheck(spec, agentsRead.reason);
  const agents = agentsRead.value;
  const created = new Map(input.tests.ok ? input.tests.value.map((test) => [test.testId, test.createdDate]) : []);
  const items = read.tests
    .filter((test) => test.results === 0)
    // A test created inside the window may simply not have run yet.
    .filter((test) => (Date.parse(created.get(test.testId) ?? '') || 0) < from)
    .map((test) => {
      const on = agents.filter(
        (agent) => agent.testIds.includes(test.testId) && agent.accountGroup === test.accountGroup,
      );
      const named = on.map(
        (agent) =>
          `${agent.agentName} (${agent.agentState ?? 'unknown'}${agent.lastSeen ? `, last seen ${day(agent.lastSeen)}` : ''})`,
      );
      return testItem(test, `no round in ${DAYS} days${named.length ? `; runs on ${named.join(', ')}` : ''}`);
    });
  return finished(spec, items, 'fail');
}
