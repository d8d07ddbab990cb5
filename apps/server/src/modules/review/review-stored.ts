import {
  MEASURED_FELL_POINTS,
  MEASURED_FELL_TESTS,
  REVIEW_KEY_TESTS_MAX,
  REVIEW_MESSAGES,
  TIMELINE_TOOL_LABELS,
  type HealthFindings,
  type Measurements,
  type ReviewNarrative,
  type TestMeasurement,
  type TimelineTool,
} from '@ce/contract';
import type { Figure, KeyTestWeeks, Known, ReviewPack, Unknown } from './review-pack.js';
import { runsByWeek, weekSpans } from './review-weeks.js';

/**
 * The sections of a pack drawn from what the toolkit stored: the watches' measurements, the health checks, the
 * timeline and the hours, the narrative. Pure, so the preview and the pack give the same figures from the same rows.
 */

/** The availability target of the measured checks, in percent (MEASURED_LIMITS.availabilityTarget). */
export const TARGET_PERCENT = 99;
/** Tests proposed as key (and followed when the TAM chose none): as many as a pack follows. */
export const PROPOSED_KEY_TESTS = REVIEW_KEY_TESTS_MAX;
/** Rows of the noisiest rules a pack names. */
const NOISIEST_RULES = 10;
/** Top open findings a pack adds to the narrative's next steps. */
const TOP_FINDINGS = 3;

export interface StoredFacts {
  organizationId: string;
  from: string;
  /** The end of what is counted: the period's end or the cut-off, whichever comes first. */
  until: string;
  cutOff: string;
  preparedBy: string;
  /** The runs' measurements in the period up to the cut-off, oldest first. */
  runs: Measurements[];
  keyTests: string[];
  health: { at: string; findings: HealthFindings }[];
  /** The latest health check's open checks (waivers taken out), heaviest first. */
  openFindings: { title: string; remediation: string }[];
  /** The timeline's entries in the period by tool, or why they could not be read. */
  work: Known<{ tool: TimelineTool; count: number }[]>;
  hours: Figure;
  narrative: ReviewNarrative;
}

type Content<K extends keyof ReviewPack> = ReviewPack[K] extends { content: infer C } ? Exclude<C, Unknown> : never;

const round1 = (value: number) => Math.round(value * 10) / 10;
const unknown = (reason: string) => ({ unknown: reason });

/** The median of values each counted `weight` times (null without any). */
export function weightedMedian(values: { value: number; weight: number }[]): number | null {
  const sorted = values.filter((entry) => entry.weight > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, entry) => sum + entry.weight, 0);
  if (total === 0) return null;
  const at = (rank: number) => {
    let seen = 0;
    for (const entry of sorted) {
      seen += entry.weight;
      if (rank < seen) return entry.value;
    }
    return sorted.at(-1)?.value ?? 0;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/** The part of the latest run that read it, or why none could be determined. */
function latestPart<P extends 'tests' | 'rules' | 'agents' | 'units' | 'changes'>(runs: Measurements[], part: P) {
  const latest = runs.at(-1);
  if (!latest) return { ok: false as const, reason: REVIEW_MESSAGES.noStoredMeasurements };
  return latest[part];
}

const TICK_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const TICK_MINUTE = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const TICK_SECOND = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
});

/**
 * The health trend's ticks, each a distinct moment: a check's day ("2 Dec"); with its time (UTC) when another check
 * fell on that day ("2 Dec 09:00"), to the second when another fell in that minute; checks of one second are one tick,
 * the latest's score.
 */
export function healthTicks(checks: { at: string; score: number }[]): { label: string; score: number }[] {
  const many = (label: (at: Date) => string) => {
    const seen = new Map<string, number>();
    for (const check of checks) {
      const key = label(new Date(check.at));
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return (at: Date) => (seen.get(label(at)) ?? 0) > 1;
  };
  const dayOf = (at: Date) => TICK_DAY.format(at);
  const minuteOf = (at: Date) => `${dayOf(at)} ${TICK_MINUTE.format(at)}`;
  const sharedDay = many(dayOf);
  const sharedMinute = many(minuteOf);
  const ticks: { label: string; score: number }[] = [];
  for (const check of checks) {
    const at = new Date(check.at);
    const label = !sharedDay(at)
      ? dayOf(at)
      : !sharedMinute(at)
        ? minuteOf(at)
        : `${dayOf(at)} ${TICK_SECOND.format(at)}`;
    const last = ticks.at(-1);
    if (last?.label === label) last.score = check.score;
    else ticks.push({ label, score: check.score });
  }
  return ticks;
}

export class StoredSections {
  private readonly spans;
  private readonly weekly;

  constructor(private readonly facts: StoredFacts) {
    this.spans = weekSpans(Date.parse(facts.from), Date.parse(facts.until));
    this.weekly = runsByWeek(this.spans, facts.runs);
  }

  get weeks(): string[] {
    return this.spans.map((span) => span.label);
  }

  /**
   * What the pack proposes as key: the tests that fell most over the period (the first run that measured each against
   * the latest, by at least `MEASURED_FELL_POINTS`; at most `MEASURED_FELL_TESTS`), then the latest run's worst by
   * availability, `PROPOSED_KEY_TESTS` in all. A test that fell is what a review is about, even when others are worse.
   */
  proposedKeyTests() {
    const tests = latestPart(this.facts.runs, 'tests');
    if (!tests.ok) return [];
    const first = new Map<string, number>();
    for (const run of this.facts.runs)
      if (run.tests.ok)
        for (const test of run.tests.value)
          if (test.availability !== null && !first.has(test.testId)) first.set(test.testId, test.availability);
    const measured = tests.value.filter((test) => test.availability !== null);
    const drop = (test: (typeof measured)[number]) => (first.get(test.testId) ?? 0) - (test.availability ?? 0);
    const fell = measured
      .filter((test) => drop(test) >= MEASURED_FELL_POINTS)
      .sort((a, b) => drop(b) - drop(a) || a.testName.localeCompare(b.testName))
      .slice(0, MEASURED_FELL_TESTS);
    const worst = measured
      .filter((test) => !fell.includes(test))
      .sort((a, b) => (a.availability ?? 0) - (b.availability ?? 0) || a.testName.localeCompare(b.testName));
    return [...fell, ...worst]
      .slice(0, PROPOSED_KEY_TESTS)
      .map(({ testId, testName, accountGroup, availability }) => ({ testId, testName, accountGroup, availability }));
  }

  units(): Known<Content<'units'>> {
    const units = latestPart(this.facts.runs, 'units');
    if (!units.ok) return unknown(units.reason);
    const value = units.value;
    return {
      included: value.included ?? unknown('the platform names no included units for this plan'),
      used: value.used,
      projected: value.projected,
      forecastToTermEnd: value.projected,
      termEnd: value.periodEnd,
      // Each week's latest run: units used in the billing period so far, as the platform counted them then.
      trend: this.weekly.flatMap((run, index) =>
        run?.units.ok ? [{ label: this.spans[index]?.label ?? '', used: run.units.value.used }] : [],
      ),
      largestConsumers: value.consumers.map((consumer) => ({
        test: `${consumer.testName} (${consumer.accountGroup})`,
        units: consumer.used,
      })),
    };
  }

  availability(): Known<Content<'availability'>> {
    const tests = latestPart(this.facts.runs, 'tests');
    if (!tests.ok) return unknown(tests.reason);
    const chosen = this.facts.keyTests.length
      ? this.facts.keyTests
      : this.proposedKeyTests().map((test) => test.testId);
    const named = new Map(tests.value.map((test) => [test.testId, test]));
    const rows: KeyTestWeeks[] = chosen.flatMap((testId) => {
      const latest = named.get(testId);
      if (!latest) return [];
      const week = (value: (test: TestMeasurement) => number | null) =>
        this.weekly.map((run) => {
          const found = run?.tests.ok ? run.tests.value.find((test) => test.testId === testId) : undefined;
          return found ? value(found) : null;
        });
      return [
        {
          test: `${latest.testName} (${latest.accountGroup})`,
          availability: week((test) => test.availability),
          latencyMs: week((test) => test.latencyMs),
          belowTarget: latest.availability !== null && latest.availability < TARGET_PERCENT,
        },
      ];
    });
    return { weeks: this.weeks, targetPercent: TARGET_PERCENT, tests: rows };
  }

  alerts(): Known<Content<'alerts'>> {
    const rules = latestPart(this.facts.runs, 'rules');
    if (!rules.ok) return unknown(rules.reason);
    const read = this.weekly.flatMap((run) => (run?.rules.ok ? [run.rules.value] : []));
    const byRule = new Map<string, { rule: string; alerts: number }>();
    for (const week of read)
      for (const rule of week) {
        const key = `${rule.accountGroup}|${rule.ruleId}`;
        const entry = byRule.get(key) ?? { rule: `${rule.ruleName} (${rule.accountGroup})`, alerts: 0 };
        entry.alerts += rule.alerts;
        byRule.set(key, entry);
      }
    const median = weightedMedian(
      read.flatMap((week) =>
        week.flatMap((rule) =>
          rule.medianClearMinutes === null ? [] : [{ value: rule.medianClearMinutes, weight: rule.cleared }],
        ),
      ),
    );
    return {
      weeks: this.weeks,
      volume: this.weekly.map((run) =>
        run?.rules.ok ? run.rules.value.reduce((sum, rule) => sum + rule.alerts, 0) : null,
      ),
      noisiestRules: [...byRule.values()]
        .filter((entry) => entry.alerts > 0)
        .sort((a, b) => b.alerts - a.alerts || a.rule.localeCompare(b.rule))
        .slice(0, NOISIEST_RULES),
      silentRules: rules.value
        .filter((rule) => (byRule.get(`${rule.accountGroup}|${rule.ruleId}`)?.alerts ?? 0) === 0)
        .map((rule) => `${rule.ruleName} (${rule.accountGroup})`)
        .sort(),
      medianMinutesToClear: median === null ? unknown('no alert cleared in the period') : round1(median),
    };
  }

  agents(): Known<Content<'agents'>> {
    const agents = latestPart(this.facts.runs, 'agents');
    if (!agents.ok) return unknown(agents.reason);
    const { offline, outdated } = agents.value;
    return {
      offline: offline.map((agent) => ({
        agent: `${agent.agentName} (${agent.accountGroup})`,
        lastSeen: agent.since ?? '',
      })),
      // The measurements count outdated agents without naming them.
      outdated:
        outdated > 0
          ? [
              {
                agent: outdated === 1 ? '1 enterprise agent' : `${outdated} enterprise agents`,
                problem: 'running an outdated version',
              },
            ]
          : [],
    };
  }

  changes(): Known<Content<'changes'>> {
    const latest = latestPart(this.facts.runs, 'changes');
    if (!latest.ok) return unknown(latest.reason);
    const people = new Map<string, { changes: number; what: Map<string, number> }>();
    for (const run of this.weekly)
      for (const person of run?.changes.ok ? run.changes.value : []) {
        const entry = people.get(person.person) ?? { changes: 0, what: new Map<string, number>() };
        entry.changes += person.events + person.testVersions;
        for (const what of person.what) entry.what.set(what.event, (entry.what.get(what.event) ?? 0) + what.count);
        people.set(person.person, entry);
      }
    const byPerson = [...people.entries()]
      .map(([person, entry]) => ({
        person,
        changes: entry.changes,
        what: [...entry.what.entries()]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, 3)
          .map(([event, count]) => `${event} (${count})`)
          .join(', '),
      }))
      .sort((a, b) => b.changes - a.changes || a.person.localeCompare(b.person));
    return { activeUsers: byPerson.length, byPerson };
  }

  health(): Known<Content<'health'>> {
    const checks = this.facts.health;
    if (checks.length === 0) return unknown('no health check of this customer finished in the period');
    const first = checks[0]?.findings.score.value ?? 0;
    const last = checks.at(-1)?.findings.score.value ?? 0;
    const latest = checks.at(-1)?.findings;
    const titles = new Map(latest?.checks.map((check) => [check.id, check.title]));
    const moved = (latest?.changes.items ?? []).slice(0, 5).map((change) => {
      const title = titles.get(change.checkId) ?? change.checkId;
      return `${title}: ${change.detail}`;
    });
    return {
      points: healthTicks(checks.map((check) => ({ at: check.at, score: check.findings.score.value }))),
      movers: [`Score ${first} at the first check of the period, ${last} at the last`, ...moved],
    };
  }

  teamWork(): Known<Content<'teamWork'>> {
    const { work, hours } = this.facts;
    if ('unknown' in work) return work;
    return {
      items: work.map((entry) => ({ what: TIMELINE_TOOL_LABELS[entry.tool], count: entry.count })),
      hours: typeof hours === 'number' ? Math.round(hours * 100) / 100 : hours,
    };
  }

  recommendations(): Content<'recommendations'> {
    return {
      items: [
        ...this.facts.narrative.nextSteps.map((step) => ({
          recommendation: step.step,
          owner: step.owner,
          due: step.due,
        })),
        ...this.facts.openFindings.slice(0, TOP_FINDINGS).map((finding) => ({
          recommendation: `${finding.title}: ${finding.remediation}`,
          owner: this.facts.preparedBy,
          due: '',
        })),
      ],
    };
  }

  /** The top outcomes (the narrative's highlights first, then what was measured) and the top actions. */
  executiveSummary(): Content<'executiveSummary'> {
    const measured: string[] = [];
    const availability = this.availability();
    if (!('unknown' in availability)) {
      const below = availability.tests.filter((test) => test.belowTarget).length;
      if (availability.tests.length)
        measured.push(
          below === 0
            ? `All ${availability.tests.length} key tests at or above the ${TARGET_PERCENT}% target at the cut-off`
            : `${below} of ${availability.tests.length} key tests below the ${TARGET_PERCENT}% target at the cut-off`,
        );
    }
    const units = this.units();
    if (!('unknown' in units)) {
      const { projected, included } = units;
      if (typeof projected === 'number' && typeof included === 'number' && included > 0)
        measured.push(`Units projected at ${Math.round((projected / included) * 100)}% of the plan`);
    }
    const health = this.health();
    if (!('unknown' in health) && health.points.length)
      measured.push(`Health score ${health.points.at(-1)?.score ?? 0} at the last check of the period`);
    const actions = this.recommendations().items.map((item) => item.recommendation);
    return {
      goals: this.facts.narrative.goals,
      outcomes: [...this.facts.narrative.highlights, ...measured].slice(0, 3),
      actions: actions.slice(0, 3),
    };
  }
}
