import type { PersonChanges } from '@ce/contract';
import type { PlatformTestResult } from '@ce/platform-client';
import type { Readable } from '../../../../../report-kit/platform-reads.js';
import { MEASURED_LIMITS } from './measured-limits.js';

/** One agent's rounds of one test over the results window, counted as they were read. */
export interface AgentRounds {
  agentId: string;
  agentName: string;
  rounds: number;
  good: number;
  /** The first round of the failing run that reaches the window's end (none when its last round was good). */
  failingSince?: string;
}

/** A test's rounds over the results window: what availability is computed from (no round is kept). */
export interface TestMeasure {
  testId: string;
  testName: string;
  accountGroup: string;
  /** Agent-rounds (one agent's result of one round). */
  results: number;
  good: number;
  /** Distinct rounds (all agents of one round count once): how often the test ran. */
  rounds: number;
  agents: AgentRounds[];
  /** The mean of the results' average latency, ms (absent where the type measures none). */
  latencyMs?: number;
}

export interface MeasuredAgent {
  agentId: string;
  agentName: string;
  agentType: string;
  agentState?: string;
  lastSeen?: string;
  /** What the platform says is wrong with it (`errorDetails`), in its words. */
  errors: string[];
  /** The tests of the account group that run on it. */
  testIds: string[];
  accountGroup: string;
}

/** An alert rule's detail: the tests it names (existing or not) and whether it notifies anyone. */
export interface RuleDetail {
  ruleId: string;
  ruleName: string;
  accountGroup: string;
  testIds: string[];
  notifies: boolean;
}

export interface AgentNotificationRule {
  ruleId: string;
  ruleName: string;
  expression: string;
  accountGroup: string;
  /** The agents the rule is on (its detail), for a rule on their last contact; absent when not read. */
  agentIds?: string[];
}

export interface TestUnitsUse {
  testId: string;
  testName: string;
  accountGroup: string;
  used: number;
  projected: number;
  instant: boolean;
}

/** The units of the billing period by test (`/usage/units/tests`), with the plan's included units (`/usage`). */
export interface UnitsMeasure {
  periodStart: string;
  periodEnd: string;
  included?: number;
  tests: TestUnitsUse[];
}

export interface EndpointLicences {
  inUse: number;
  licensed?: number;
  /** Endpoint agents by version, when the endpoint agents were read. */
  versions?: { version: string; agents: number }[];
}

/** What the measured checks read, per account group joined (one refusal makes its checks unknown). */
export interface MeasuredInput {
  /** The results window, epoch ms. */
  from: number;
  to: number;
  results: Readable<TestMeasure[]>;
  agents: Readable<MeasuredAgent[]>;
  ruleDetails: Readable<RuleDetail[]>;
  agentNotificationRules: Readable<AgentNotificationRule[]>;
  endpoints: Readable<EndpointLicences>;
  units: Readable<UnitsMeasure>;
  /** Who changed what in the window, by person (tests' versions and the audit log), when it was read. */
  changes?: Readable<PersonChanges[]>;
}

/**
 * A round is good when it has no error (an error text, an HTTP or DNS error, a page or query error), its loss is at
 * most `maxLossPercent` and its average latency at most `maxLatencyMs` (where the type measures them).
 */
export function isGoodRound(result: PlatformTestResult): boolean {
  if (result.errorDetails) return false;
  if (result.errorType !== undefined && result.errorType !== 'None') return false;
  if ((result.numErrors ?? 0) > 0 || (result.failedQueries ?? 0) > 0) return false;
  if ((result.loss ?? 0) > MEASURED_LIMITS.maxLossPercent) return false;
  return (result.avgLatency ?? 0) <= MEASURED_LIMITS.maxLatencyMs;
}

/** Counts a test's results as they stream: per agent and in all, distinct rounds; memory is the test's agents. */
export class TestTally {
  private readonly agents = new Map<string, AgentRounds>();
  private results = 0;
  private good = 0;
  /** Round ids seen (a week of a one-minute test is 10,080 numbers: bounded by the window, not the customer). */
  private readonly rounds = new Set<number>();
  private latencySum = 0;
  private latencies = 0;

  add(result: PlatformTestResult): void {
    const ok = isGoodRound(result);
    const agentId = result.agent.agentId;
    let agent = this.agents.get(agentId);
    if (!agent) {
      agent = { agentId, agentName: result.agent.agentName ?? `Agent ${agentId}`, rounds: 0, good: 0 };
      this.agents.set(agentId, agent);
    }
    agent.rounds += 1;
    this.results += 1;
    if (ok) {
      agent.good += 1;
      this.good += 1;
      delete agent.failingSince;
    } else agent.failingSince ??= result.date;
    this.rounds.add(result.roundId);
    if (typeof result.avgLatency === 'number') {
      this.latencySum += result.avgLatency;
      this.latencies += 1;
    }
  }

  measure(test: { testId: string; testName: string; accountGroup: string }): TestMeasure {
    return {
      ...test,
      results: this.results,
      good: this.good,
      rounds: this.rounds.size,
      agents: [...this.agents.values()],
      ...(this.latencies > 0 ? { latencyMs: this.latencySum / this.latencies } : {}),
    };
  }
}
