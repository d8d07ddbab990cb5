import { z } from 'zod';
import {
  bulkAccountGroupSchema,
  migrationDecisionSchema,
  migrationOptionsSchema,
  type MigrationPlanItem,
} from '@ce/contract';
import type { PlatformSession } from '@ce/platform-client';
import type { ChangeSessions } from '../../core/change-sets/handlers.js';
import type { NewChangeItem } from '../../core/change-sets/repository.js';
import { recordOf } from '../../core/json.js';
import { mapPool } from '../../core/map-pool.js';
import { MIGRATION_ACTIONS } from './actions.js';
import { notificationsInWords, valueInWords } from './describe.js';
import { readSource, readTarget, type SourceGroup } from './read.js';
import { ownBody, planRules, type RuleChange } from './rule-plan.js';
import { planWindows, type WindowChange } from './window-plan.js';
import type { PlannedWrite } from './write-access.js';

/** A migration as stored with its change set (jsonb): what was asked, without the tokens. */
export const migrationInputSchema = z.object({
  aid: z.string(),
  accountGroupName: z.string(),
  ruleIds: z.array(z.string()),
  targets: z.array(bulkAccountGroupSchema),
  /** The targets are in another organization, written with its own token. */
  crossOrganization: z.boolean(),
  targetOrganizationName: z.string().nullable(),
  options: migrationOptionsSchema,
  decisions: z.array(migrationDecisionSchema),
  /** Every group the migration touches (the run lists show them). */
  accountGroups: z.array(bulkAccountGroupSchema),
});
export type MigrationInput = z.infer<typeof migrationInputSchema>;

/** Target groups read at once; each read's calls are paced by the organization's limiter. */
const TARGET_CONCURRENCY = 3;

export interface PlannedMigration {
  source: SourceGroup;
  rules: RuleChange[];
  windows: WindowChange[];
  /** A move: the source's rules to delete once every target took them. */
  deletions: { ruleId: string; ruleName: string; before: Record<string, unknown> }[];
  /** Each target's tests by id, to name a difference's tests. */
  testNames: Map<string, string>;
}

/**
 * Reads the source and every target once and plans the migration: nothing is written. The plan shown
 * to the user and the one the job carries out are made by this same function.
 */
export async function planMigration(input: MigrationInput, sessions: ChangeSessions): Promise<PlannedMigration> {
  const { options } = input;
  const source = await readSource(sessions.source, input.aid, {
    ruleIds: input.ruleIds,
    windows: options.includeWindows,
  });
  const names = new Set(source.rules.map((rule) => rule.ruleName));
  const writer: PlatformSession = input.crossOrganization && sessions.target ? sessions.target : sessions.source;
  const targets = await mapPool(input.targets, TARGET_CONCURRENCY, async (group) => ({
    ...group,
    sameOrganization: !input.crossOrganization,
    ...(await readTarget(writer, group.aid, names, { windows: options.includeWindows })),
  }));
  const decisions = new Map(input.decisions.map((decision) => [`${decision.ruleId}\u0000${decision.aid}`, decision]));
  const rules = planRules({ rules: source.rules, tests: source.tests }, targets, {
    ...options,
    decide: (ruleId, aid) => decisions.get(`${ruleId}\u0000${aid}`)?.choice,
  });
  const migratedTests = new Set(source.rules.flatMap((rule) => rule.testIds));
  const windows = options.includeWindows ? planWindows(source.windows, migratedTests, source.tests, targets) : [];
  const deletions =
    options.mode === 'move'
      ? source.rules.map((rule) => ({
          ruleId: rule.ruleId,
          ruleName: rule.ruleName,
          before: { ...ownBody(rule) },
        }))
      : [];
  const testNames = new Map(targets.flatMap((target) => target.tests.map((test) => [test.testId, test.testName])));
  return { source, rules, windows, deletions, testNames };
}

const differenceInWords = (field: string, value: unknown, testNames: Map<string, string>) =>
  field === 'testIds' && Array.isArray(value)
    ? valueInWords(value.map((testId: string) => testNames.get(testId) ?? testId))
    : field === 'notifications'
      ? valueInWords(notificationsInWords({ notifications: recordOf(value) }))
      : valueInWords(value);

/** The plan's account of a rule item, as its table and the results file show it. */
function ruleDetails(change: RuleChange, testNames: Map<string, string>) {
  return {
    kind: change.kind,
    status: change.status,
    sourceId: change.sourceId,
    sourceName: change.sourceName,
    differences: change.differences.map(({ field, before, after }) => ({
      field,
      before: differenceInWords(field, before, testNames),
      after: differenceInWords(field, after, testNames),
    })),
    resolved: change.resolved,
    dropped: change.dropped,
    reason: change.reason ?? null,
    ...(change.unableToAlert ? { unableToAlert: true } : {}),
  };
}

/** The plan as the page shows it: one row per rule and target (and window), then a move's deletions. */
export function planItems(planned: PlannedMigration, input: MigrationInput): MigrationPlanItem[] {
  const groupName = (aid: string) => input.targets.find((group) => group.aid === aid)?.accountGroupName ?? aid;
  return [
    ...planned.rules.map((change) => ({
      ...ruleDetails(change, planned.testNames),
      kind: 'alert-rule' as const,
      name: change.name,
      aid: change.targetAid,
      accountGroupName: groupName(change.targetAid),
    })),
    ...planned.windows.map((change) => ({
      kind: change.kind,
      sourceId: change.sourceId,
      sourceName: change.sourceName,
      name: change.sourceName,
      aid: change.targetAid,
      accountGroupName: groupName(change.targetAid),
      status: change.status,
      differences: [],
      resolved: change.resolved,
      dropped: change.dropped,
      reason: change.reason,
    })),
    ...planned.deletions.map((deletion) => ({
      kind: 'alert-rule' as const,
      sourceId: deletion.ruleId,
      sourceName: deletion.ruleName,
      name: deletion.ruleName,
      aid: input.aid,
      accountGroupName: input.accountGroupName,
      status: 'delete' as const,
      differences: [],
      resolved: [],
      dropped: [],
      reason: 'Moved: deleted from the source once every target has it',
    })),
  ];
}

/** What the items that write need, each with the token that makes it: what the tokens must be allowed to do. */
export function plannedWrites(items: NewChangeItem[], sessions: ChangeSessions): PlannedWrite[] {
  return items
    .map((item) => {
      const target = item.side === 'target' && sessions.target;
      return {
        session: target || sessions.source,
        token: target ? "The target organization's token" : 'The token',
        aid: item.aid,
        accountGroupName: item.accountGroupName,
        permission: MIGRATION_ACTIONS[item.action]?.permission ?? '',
      };
    })
    .filter((write) => write.permission);
}

/** The change set's items: phase 0 writes into the targets, phase 1 (a move) deletes from the source. */
export function changeItems(planned: PlannedMigration, input: MigrationInput): NewChangeItem[] {
  const side = input.crossOrganization ? 'target' : 'source';
  const groupName = (aid: string) => input.targets.find((group) => group.aid === aid)?.accountGroupName ?? aid;
  const items: Omit<NewChangeItem, 'position'>[] = [];
  for (const change of planned.rules) {
    const common = {
      aid: change.targetAid,
      accountGroupName: groupName(change.targetAid),
      subject: change.name,
      side,
      phase: 0,
      details: ruleDetails(change, planned.testNames),
    };
    if (change.status === 'create' && change.after)
      items.push({
        ...common,
        action: 'create-rule',
        payload: { body: change.after, sourceRuleId: change.sourceId, knownIds: change.knownIds },
      });
    else if (change.status === 'update' && change.after && change.existingId)
      items.push({
        ...common,
        action: 'update-rule',
        payload: { ruleId: change.existingId, body: change.after, sourceRuleId: change.sourceId },
        before: change.before && { ...change.before },
        resultId: change.existingId,
      });
    else
      items.push({
        ...common,
        action: 'keep-rule',
        payload: { sourceRuleId: change.sourceId },
        status: 'skipped',
        resultId: change.existingId,
        note: change.status === 'conflict' ? 'Skipped: the conflict was not decided' : (change.reason ?? 'Skipped'),
      });
  }
  for (const change of planned.windows) {
    const common = {
      aid: change.targetAid,
      accountGroupName: groupName(change.targetAid),
      subject: change.sourceName,
      side,
      phase: 0,
      details: { kind: change.kind, status: change.status, sourceId: change.sourceId, sourceName: change.sourceName },
    };
    if (change.status === 'create' && change.after)
      items.push({
        ...common,
        action: 'create-window',
        payload: { body: change.after, sourceWindowId: change.sourceId, knownIds: change.knownIds },
      });
    else
      items.push({
        ...common,
        action: 'keep-window',
        payload: { sourceWindowId: change.sourceId },
        status: 'skipped',
        note: change.reason ?? 'Skipped',
      });
  }
  for (const deletion of planned.deletions)
    items.push({
      aid: input.aid,
      accountGroupName: input.accountGroupName,
      subject: deletion.ruleName,
      side: 'source',
      phase: 1,
      action: 'delete-rule',
      payload: { ruleId: deletion.ruleId, sourceRuleId: deletion.ruleId },
      before: deletion.before,
      details: { kind: 'alert-rule', status: 'delete', sourceId: deletion.ruleId, sourceName: deletion.ruleName },
    });
  return items.map((item, position) => ({ ...item, position }));
}
