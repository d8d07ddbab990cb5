import type { AlertRule, PlatformSession, SuppressionWindow } from '@ce/platform-client';
import { readingProgress } from '../../core/budget-waits.js';
import { mapPool } from '../../core/map-pool.js';
import type { Integration, RuleTest } from './rule-plan.js';

/** Details read at once per group; the organization's limiter decides the pace. */
const DETAIL_CONCURRENCY = 6;

export interface SourceGroup {
  /** The group's rules, each read in detail (tests, notifications); only those asked for when given. */
  rules: AlertRule[];
  tests: RuleTest[];
  /** Its suppression windows with their tests, when asked for. */
  windows: SuppressionWindow[];
}

export interface TargetGroup {
  /** The group's rules: in detail those whose name a migrated rule has, as listed the others. */
  rules: AlertRule[];
  tests: RuleTest[];
  webhooks: Integration[];
  windows: SuppressionWindow[];
}

const asTests = (tests: { testId: string; testName: string; type: string }[]): RuleTest[] =>
  tests.map(({ testId, testName, type }) => ({ testId, testName, type }));

/** Reads what a migration needs of its source group: each list once, each chosen rule's detail once. */
export async function readSource(
  session: PlatformSession,
  aid: string,
  options: { ruleIds?: readonly string[]; windows: boolean },
): Promise<SourceGroup> {
  const [listed, tests, windows] = await Promise.all([
    session.alertRules.list(aid),
    session.tests.list(aid),
    options.windows ? session.alertSuppressionWindows.list(aid) : Promise.resolve([]),
  ]);
  const wanted = options.ruleIds ? new Set(options.ruleIds) : null;
  const chosen = wanted ? listed.filter((rule) => wanted.has(rule.ruleId)) : listed;
  const reading = readingProgress('rule');
  reading.add(chosen.length);
  const rules = await mapPool(chosen, DETAIL_CONCURRENCY, async (rule) => {
    const detail = await session.alertRules.get(rule.ruleId, aid);
    reading.read();
    return detail;
  });
  const detailed = await mapPool(windows, DETAIL_CONCURRENCY, (window) =>
    session.alertSuppressionWindows.get(window.alertSuppressionWindowId, aid),
  );
  return { rules, tests: asTests(tests), windows: detailed };
}

/** Reads a target group: its lists once, and the detail of each rule a migrated rule would meet by name. */
export async function readTarget(
  session: PlatformSession,
  aid: string,
  names: ReadonlySet<string>,
  options: { windows: boolean },
): Promise<TargetGroup> {
  const [listed, tests, webhooks, windows] = await Promise.all([
    session.alertRules.list(aid),
    session.tests.list(aid),
    session.webhooks.list(aid),
    options.windows ? session.alertSuppressionWindows.list(aid) : Promise.resolve([]),
  ]);
  const reading = readingProgress('rule');
  reading.add(listed.filter((rule) => names.has(rule.ruleName)).length);
  const rules = await mapPool(listed, DETAIL_CONCURRENCY, async (rule) => {
    if (!names.has(rule.ruleName)) return rule;
    const detail = await session.alertRules.get(rule.ruleId, aid);
    reading.read();
    return detail;
  });
  return {
    rules,
    tests: asTests(tests),
    webhooks: webhooks.map((hook) => ({ integrationId: hook.id, integrationName: hook.name })),
    windows,
  };
}
