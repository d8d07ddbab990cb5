import { z } from 'zod';
import type { Measurements, RuleMeasurement, TestMeasurement } from '@ce/contract';
import { MEASURED_LIMITS as L } from '../reports/index.js';

/**
 * What the platform measured that moved since a watch's previous run, in the words its message says (decision
 * 0037). Pure: the run passes the two runs' measurements. Only moves a TAM acts on are said: a test falling below
 * its availability target or back above it, enterprise agents going offline or back, a rule crossing the noisy
 * line or doubling over it, the units' projection crossing the included units or moving 5 points over them.
 */

/** One measure that moved: `pass` is a recovery; `warn` and `fail` weigh as a new finding of that status does. */
export const measuredMoveSchema = z.object({
  part: z.enum(['tests', 'agents', 'rules', 'units']),
  /** What moved (a test's or a rule's account group and id; the organization's agents or units). */
  key: z.string(),
  status: z.enum(['pass', 'warn', 'fail']),
  line: z.string(),
});
export type MeasuredMove = z.infer<typeof measuredMoveSchema>;

const DAY_MS = 86_400_000;
const TARGET = L.availabilityTarget * 100;
const FAILS_BELOW = L.availabilityFail * 100;
/** The units' projection is said again when it moves by this many points of the included units while over them. */
const UNITS_MOVE_POINTS = 5;

const percent = (value: number) => `${value.toFixed(1)}%`;
const dayOf = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone }).format(date);

/** "today", a weekday within the last 7 days ("Tuesday"), else the date ("3 Dec"), in the watch's time zone. */
export function sinceWords(iso: string, now: Date, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (dayOf(date, timeZone) === dayOf(now, timeZone) && now.getTime() - date.getTime() < DAY_MS) return 'today';
  if (now.getTime() - date.getTime() < 7 * DAY_MS)
    return new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone }).format(date);
  return dayOf(date, timeZone);
}

interface Context {
  now: Date;
  timeZone?: string;
}

const byKey = <T extends { accountGroup: string }>(items: T[], id: (item: T) => string) =>
  new Map(items.map((item) => [`${item.accountGroup}|${id(item)}`, item]));

function testMoves(before: TestMeasurement[], after: TestMeasurement[], context: Context): MeasuredMove[] {
  const then = byKey(before, (test) => test.testId);
  return after.flatMap((test): MeasuredMove[] => {
    const key = `${test.accountGroup}|${test.testId}`;
    const was = then.get(key)?.availability ?? null;
    const now = test.availability;
    if (was === null || now === null) return [];
    const head = `'${test.testName}' availability ${percent(was)} → ${percent(now)}`;
    if (was - now >= 1 && now < TARGET) {
      const failing =
        test.failingAgents > 0 && test.failingSince
          ? `, ${test.failingAgents} of ${test.agents} agents failing since ${sinceWords(test.failingSince, context.now, context.timeZone)}`
          : '';
      return [{ part: 'tests', key, status: now < FAILS_BELOW ? 'fail' : 'warn', line: `${head}${failing}` }];
    }
    return was < TARGET && now >= TARGET ? [{ part: 'tests', key, status: 'pass', line: head }] : [];
  });
}

function agentMoves(before: Measurements['agents'], after: Measurements['agents'], context: Context): MeasuredMove[] {
  if (!before.ok || !after.ok) return [];
  const [was, now] = [before.value.offline, after.value.offline];
  if (was.length === now.length) return [];
  const head = `Enterprise agents offline ${was.length} → ${now.length}`;
  const ids = (agents: typeof was) => new Set(agents.map((agent) => agent.agentId));
  if (now.length > was.length) {
    const known = ids(was);
    const named = now
      .filter((agent) => !known.has(agent.agentId))
      .map(
        (agent) =>
          `'${agent.agentName}' ${agent.since ? `since ${sinceWords(agent.since, context.now, context.timeZone)}` : 'never seen'}`,
      );
    return [{ part: 'agents', key: 'offline', status: 'warn', line: `${head}: ${named.join(', ')}` }];
  }
  const still = ids(now);
  const back = was.filter((agent) => !still.has(agent.agentId)).map((agent) => `'${agent.agentName}'`);
  return [{ part: 'agents', key: 'offline', status: 'pass', line: `${head}: ${back.join(', ')} back online` }];
}

function ruleMoves(before: RuleMeasurement[], after: RuleMeasurement[]): MeasuredMove[] {
  const then = byKey(before, (rule) => rule.ruleId);
  const noisy = L.noisyTriggersPerWeek;
  return after.flatMap((rule): MeasuredMove[] => {
    const key = `${rule.accountGroup}|${rule.ruleId}`;
    const earlier = then.get(key);
    if (!earlier) return [];
    const [was, now] = [earlier.alerts, rule.alerts];
    const line = `'${rule.ruleName}' ${was.toLocaleString('en-US')} → ${now.toLocaleString('en-US')} alerts a week`;
    if ((was <= noisy && now > noisy) || (was > noisy && now >= 2 * was))
      return [{ part: 'rules', key, status: 'warn', line }];
    return was > noisy && now <= noisy ? [{ part: 'rules', key, status: 'pass', line }] : [];
  });
}

function unitsMoves(before: Measurements['units'], after: Measurements['units'], context: Context): MeasuredMove[] {
  if (!before.ok || !after.ok || !before.value.included || !after.value.included) return [];
  const share = (units: typeof after.value) => Math.round((units.projected / (units.included ?? 1)) * 100);
  const [was, now] = [share(before.value), share(after.value)];
  const over = now > 100;
  if (!(was > 100 !== over || (over && Math.abs(now - was) >= UNITS_MOVE_POINTS))) return [];
  const runOut = after.value.runOutAt;
  const by = over && runOut ? ` by ${dayOf(new Date(runOut), context.timeZone ?? 'UTC')}` : '';
  return [
    {
      part: 'units',
      key: 'projected',
      status: over ? 'fail' : 'pass',
      line: `units projected at ${now}% of included${by}`,
    },
  ];
}

/** The moves between two runs' measurements (none when either run kept none): tests, agents, rules, units. */
export function measuredMoves(
  before: Measurements | null,
  after: Measurements | null,
  context: Context,
): MeasuredMove[] {
  if (!before || !after) return [];
  // The falls first, the worst first (the tests come worst first), then the recoveries.
  const rank = { fail: 0, warn: 1, pass: 2 } as const;
  const tests =
    before.tests.ok && after.tests.ok
      ? testMoves(before.tests.value, after.tests.value, context).sort((a, b) => rank[a.status] - rank[b.status])
      : [];
  const rules = before.rules.ok && after.rules.ok ? ruleMoves(before.rules.value, after.rules.value) : [];
  return [
    ...tests,
    ...agentMoves(before.agents, after.agents, context),
    ...rules,
    ...unitsMoves(before.units, after.units, context),
  ];
}
