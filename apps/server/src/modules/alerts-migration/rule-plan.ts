import type { AlertRule, AlertRuleBody } from '@ce/platform-client';
import {
  differencesOf,
  type ChangeItem,
  type DroppedReference,
  type ResolvedReference,
} from '../../core/change-sets/change-item.js';
import { ALERTS_MIGRATION_MESSAGES } from '@ce/contract';
import { listOf, recordOf, recordsOf } from '../../core/json.js';

/** A test as a rule names it: matched in a target by name and type. */
export interface RuleTest {
  testId: string;
  testName: string;
  type: string;
}

/** A webhook integration of an organization, matched by name. */
export interface Integration {
  integrationId: string;
  integrationName: string;
}

export interface RuleSource {
  /** The source account group's rules, read in detail (tests, notifications). */
  rules: AlertRule[];
  /** The source account group's tests, to name the rules' tests. */
  tests: RuleTest[];
}

export interface RuleTarget {
  aid: string;
  accountGroupName: string;
  /** Whether the target is in the source's organization (third-party integrations are kept only there). */
  sameOrganization: boolean;
  rules: AlertRule[];
  tests: RuleTest[];
  webhooks: Integration[];
}

export interface RulePlanOptions {
  /** A rule of that name exists in the target and differs: what to do. `ask` leaves it to the user. */
  onConflict: 'ask' | 'skip' | 'update' | 'rename';
  /** A rule whose tests exist nowhere in the target: keep it without them, or leave it out. */
  whenNoTestsLeft: 'keep' | 'skip';
  /** Make a default rule default in the target too (a default rule applies to every new test). */
  keepDefault: boolean;
  /** Into another organization, keep the email recipients (the source organization's addresses). */
  keepRecipients: boolean;
  /** A rule that would arrive with no test and no recipient (it could never alert anyone): keep it, or leave it out. */
  whenUnableToAlert?: 'keep' | 'skip';
  /** The user's answer for one conflict (source rule, target group), over `onConflict`. */
  decide?: (ruleId: string, aid: string) => 'skip' | 'update' | 'rename' | undefined;
}

export type RuleChange = ChangeItem<AlertRuleBody> & {
  /** The plan's words for the item: create, update, unchanged, conflict (to decide) or skip. */
  status: 'create' | 'update' | 'unchanged' | 'conflict' | 'skip';
  /** The source rule, its id and name. */
  sourceId: string;
  sourceName: string;
  /** The target's rule of that name (an update's), and the ids of the target's rules of the item's name. */
  existingId: string | null;
  knownIds: string[];
  /** What arrives has no test and no recipient: it could never alert anyone. */
  unableToAlert?: boolean;
};

/** The fields a rule may leave out; a body carries them only when the rule has them. */
const OPTIONAL_FIELDS = [
  'direction',
  'notifyOnClear',
  'isDefault',
  'alertGroupType',
  'minimumSources',
  'minimumSourcesPct',
  'roundsViolatingMode',
  'severity',
  'description',
] as const satisfies readonly (keyof AlertRuleBody)[];

/** The fields a migration compares and writes. */
const FIELDS = [
  'ruleName',
  'expression',
  'alertType',
  'roundsViolatingOutOf',
  'roundsViolatingRequired',
  ...OPTIONAL_FIELDS,
  'testIds',
  'notifications',
] as const satisfies readonly (keyof AlertRuleBody)[];

const WEBHOOK_KINDS = ['webhook', 'customWebhook'] as const;
type Notification = Record<string, unknown>;

/** A rule as the body a POST or PUT takes, with its tests and notifications as given. */
function bodyOf(rule: AlertRule, testIds: string[], notifications: Record<string, unknown>): AlertRuleBody {
  const body: AlertRuleBody = {
    ruleName: rule.ruleName,
    expression: rule.expression ?? '',
    alertType: rule.alertType ?? '',
    roundsViolatingOutOf: rule.roundsViolatingOutOf ?? 1,
    roundsViolatingRequired: rule.roundsViolatingRequired ?? 1,
    testIds: [...testIds].sort(),
    notifications,
  };
  for (const field of OPTIONAL_FIELDS) if (rule[field] !== undefined) Object.assign(body, { [field]: rule[field] });
  return body;
}

/** The notifications of a target's own rule, as comparable as a mapped one. */
const ownNotifications = (rule: AlertRule) => {
  const notifications = { ...rule.notifications };
  for (const [key, value] of Object.entries(notifications))
    if (Array.isArray(value) && value.length === 0) delete notifications[key];
  return notifications;
};

/**
 * Maps a source item's tests into a target by name and type: the target's ids, each test resolved, and each
 * one the target lacks dropped with the reason.
 */
export function mapTests(sourceTests: RuleTest[], target: { accountGroupName: string; tests: RuleTest[] }) {
  const bySource = new Map(sourceTests.map((test) => [test.testId, test]));
  const byKey = new Map(target.tests.map((test) => [`${test.type}\u0000${test.testName}`, test]));
  return (ids: string[]) => {
    const resolved: ResolvedReference[] = [];
    const dropped: DroppedReference[] = [];
    const testIds: string[] = [];
    for (const testId of ids) {
      const test = bySource.get(testId);
      const match = test && byKey.get(`${test.type}\u0000${test.testName}`);
      if (test && match) {
        testIds.push(match.testId);
        resolved.push({ kind: 'test', name: test.testName, from: testId, to: match.testId });
      } else
        dropped.push({
          kind: 'test',
          name: test?.testName ?? `test ${testId}`,
          reason: test
            ? `No ${test.type} test of this name in ${target.accountGroupName}`
            : 'Not a test of the source account group',
        });
    }
    return { testIds, resolved, dropped };
  };
}

/** The first name free in the target: "Name (2)", "Name (3)", ... */
function freeName(name: string, taken: Set<string>): string {
  for (let counter = 2; ; counter++) if (!taken.has(`${name} (${counter})`)) return `${name} (${counter})`;
}

/**
 * Plans copying (or moving) alert rules into target account groups, one item per rule and target, and
 * writes nothing. Tests are mapped by name and type (those missing are dropped, or the rule is left out when
 * none is left and the options say so); email recipients are kept within the organization and, being the
 * source organization's addresses, dropped across unless asked; webhooks are mapped by name in the target
 * organization; third-party integrations are kept within the organization and dropped across (the platform
 * lists none, so they cannot be matched by name); a default rule stays default only when asked. A rule of the
 * same name in the target is unchanged when identical, and otherwise a conflict resolved by the options.
 */
export function planRules(source: RuleSource, targets: RuleTarget[], options: RulePlanOptions): RuleChange[] {
  return targets.flatMap((target) => {
    const testMapper = mapTests(source.tests, target);
    const webhooksByName = new Map(target.webhooks.map((hook) => [hook.integrationName, hook]));
    const byName = new Map(target.rules.map((rule) => [rule.ruleName, rule]));
    const taken = new Set(target.rules.map((rule) => rule.ruleName));
    return source.rules.map((rule): RuleChange => {
      const { testIds, resolved, dropped } = testMapper(rule.testIds);
      const notifications: Record<string, unknown> = {};
      const given = rule.notifications ?? {};
      const recipients = listOf(recordOf(given.email).recipients);
      if (recipients.length && (target.sameOrganization || options.keepRecipients)) notifications.email = given.email;
      else
        for (const recipient of recipients)
          dropped.push({
            kind: 'recipient',
            name: String(recipient),
            reason: "An email address of the source's organization: kept in another organization only when asked",
          });
      const thirdParty = recordsOf(given.thirdParty);
      if (target.sameOrganization && thirdParty.length) notifications.thirdParty = thirdParty;
      for (const integration of target.sameOrganization ? [] : thirdParty)
        dropped.push({
          kind: 'integration',
          name: String(integration.integrationType ?? integration.integrationId),
          reason: 'A third-party integration cannot be matched in another organization: add it there again',
        });
      for (const kind of WEBHOOK_KINDS) {
        const mapped: Notification[] = [];
        for (const integration of recordsOf(given[kind])) {
          const name = String(integration.integrationName ?? integration.integrationId ?? '');
          const match = webhooksByName.get(name);
          if (match) {
            mapped.push({ ...integration, integrationId: match.integrationId });
            resolved.push({
              kind: 'integration',
              name,
              from: String(integration.integrationId ?? ''),
              to: match.integrationId,
            });
          } else
            dropped.push({
              kind: 'integration',
              name,
              reason: 'No integration of this name in the target organization',
            });
        }
        if (mapped.length) notifications[kind] = mapped;
      }

      const after = bodyOf(
        { ...rule, isDefault: options.keepDefault ? rule.isDefault === true : false },
        testIds,
        notifications,
      );
      const knownIds: string[] = [];
      const item = {
        kind: 'alert-rule',
        targetAid: target.aid,
        name: rule.ruleName,
        resolved,
        dropped,
        sourceId: rule.ruleId,
        sourceName: rule.ruleName,
        existingId: null,
        knownIds,
      };
      const hadTests = rule.testIds.length > 0;
      if (hadTests && testIds.length === 0 && options.whenNoTestsLeft === 'skip')
        return {
          ...item,
          action: 'skip',
          status: 'skip',
          before: null,
          after: null,
          differences: [],
          reason: `None of its tests exist in ${target.accountGroupName}`,
        };
      // No test to watch and no one to tell: such a rule can never alert anyone.
      const unableToAlert = testIds.length === 0 && Object.keys(notifications).length === 0;
      if (unableToAlert && options.whenUnableToAlert === 'skip')
        return {
          ...item,
          action: 'skip',
          status: 'skip',
          before: null,
          after: null,
          differences: [],
          reason: ALERTS_MIGRATION_MESSAGES.leftOutUnableToAlert,
        };
      const silent = unableToAlert ? { unableToAlert } : {};
      const existing = byName.get(rule.ruleName);
      if (!existing) {
        taken.add(rule.ruleName);
        return { ...item, ...silent, action: 'create', status: 'create', before: null, after, differences: [] };
      }
      const before = bodyOf(existing, existing.testIds, ownNotifications(existing));
      const differences = differencesOf(before, after, FIELDS);
      const found = { ...item, existingId: existing.ruleId, knownIds: [existing.ruleId] };
      if (differences.length === 0)
        return { ...found, action: 'skip', status: 'unchanged', before, after: null, differences, reason: 'Identical' };
      switch (options.decide?.(rule.ruleId, target.aid) ?? options.onConflict) {
        case 'update':
          return { ...found, ...silent, action: 'update', status: 'update', before, after, differences };
        case 'rename': {
          const name = freeName(rule.ruleName, taken);
          taken.add(name);
          return {
            ...found,
            ...silent,
            existingId: null,
            name,
            action: 'create',
            status: 'create',
            before: null,
            after: { ...after, ruleName: name },
            differences: [],
          };
        }
        case 'skip':
          return {
            ...found,
            action: 'skip',
            status: 'skip',
            before,
            after: null,
            differences,
            reason: 'A rule of this name exists',
          };
        case 'ask':
          return {
            ...found,
            ...silent,
            action: 'skip',
            status: 'conflict',
            before,
            after,
            differences,
            reason: 'A different rule of this name exists: skip it, update it, or create this one under a new name',
          };
      }
    });
  });
}

/** A rule's own definition as a body (its tests and notifications as they are): what an undo puts back. */
export const ownBody = (rule: AlertRule): AlertRuleBody => bodyOf(rule, rule.testIds, ownNotifications(rule));
