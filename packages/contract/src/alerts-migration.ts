import { z } from 'zod';
import { BULK_MESSAGES } from './bulk-messages.js';
import { bulkAccountGroupSchema } from './bulk.js';
import { platformTokenSchema } from './reports.js';
import { changeSetSchema } from './change-sets.js';

/** What the alerts-migration tool says (the token messages are the spec's, shared with the bulk tools). */
export const ALERTS_MIGRATION_MESSAGES = {
  tokenRequired: BULK_MESSAGES.tokenRequired,
  invalidToken: BULK_MESSAGES.invalidToken,
  sourceRequired: 'Choose the account group to take the rules from',
  nothingToWrite: 'Nothing to migrate: every chosen rule is left as it is (skipped or left out).',
  rulesRequired: 'Select at least one alert rule',
  targetsRequired: 'Select at least one target account group',
  targetIsSource: 'A target cannot be the source account group',
  targetTokenRequired: "Another organization's account groups need that organization's Org Admin token",
  conflictsUndecided: 'Decide every conflict first: skip it, update it, or create it under a new name',
  noRules: 'This account group has no alert rules',
  nothingToUndo: 'This migration wrote nothing to undo.',
  /** A rule that would arrive with no test and no one told: it could never alert anyone. */
  unableToAlert: 'It would arrive with no test and no recipient, so it could never alert anyone',
  leftOutUnableToAlert: 'Left out: it would arrive with no test and no recipient, so it could never alert anyone',
} as const;

/** At most this many rules, and target groups, in one migration (2,000 rules x groups is the bench's size). */
export const MIGRATION_RULE_LIMIT = 1_000;
export const MIGRATION_TARGET_LIMIT = 50;

const organizationSchema = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(255) });

/** The source: a token, its organization and one account group. */
export const migrationSourceRequestSchema = z.object({
  token: platformTokenSchema,
  organization: organizationSchema,
  aid: z.string().min(1, ALERTS_MIGRATION_MESSAGES.sourceRequired).max(64),
});
export type MigrationSourceRequest = z.infer<typeof migrationSourceRequestSchema>;

/** An alert rule as the source table shows it. */
export const migrationRuleSchema = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  alertType: z.string(),
  /** The rule's condition in words ("3 of 5 rounds: response time >= 500 ms"). */
  condition: z.string(),
  severity: z.string(),
  isDefault: z.boolean(),
  tests: z.array(z.string()),
  /** Who is told, in words: email recipients, webhooks and integrations by name. */
  notifications: z.array(z.string()),
});
export type MigrationRule = z.infer<typeof migrationRuleSchema>;
export const migrationRulesSchema = z.object({
  accountGroupName: z.string(),
  rules: z.array(migrationRuleSchema),
  /** Alert suppression windows of the source group, each with the rules whose tests it covers. */
  windows: z.array(z.object({ windowId: z.string(), name: z.string(), ruleIds: z.array(z.string()) })),
});
export type MigrationRules = z.infer<typeof migrationRulesSchema>;

export const MIGRATION_CONFLICT_CHOICES = ['skip', 'update', 'rename'] as const;
export const migrationOptionsSchema = z.object({
  /** copy (default) keeps the source's rules; move deletes each only after every target took it. */
  mode: z.enum(['copy', 'move']).default('copy'),
  /** A rule of that name exists in a target and differs: decided per item (`ask`), or for all. */
  onConflict: z.enum(['ask', ...MIGRATION_CONFLICT_CHOICES]).default('ask'),
  /** A rule none of whose tests exist in a target: created without tests (`keep`), or left out. */
  whenNoTestsLeft: z.enum(['keep', 'skip']).default('keep'),
  /** A default rule becomes default in the target only when asked (it would apply to every new test). */
  keepDefault: z.boolean().default(false),
  /** Copy the suppression windows that cover a migrated rule's tests (their tests mapped by name). */
  includeWindows: z.boolean().default(false),
  /**
   * Into another organization, keep the rules' email recipients (addresses of the source's organization:
   * dropped unless asked, each listed in the plan). Within one organization they are always kept.
   */
  keepRecipients: z.boolean().default(false),
  /**
   * A rule that would arrive with no test and no recipient (no email, webhook or integration left), which can never
   * alert anyone: created all the same (`keep`, the plan says which), or left out.
   */
  whenUnableToAlert: z.enum(['keep', 'skip']).default('keep'),
});
export type MigrationOptions = z.output<typeof migrationOptionsSchema>;

/** The user's answer to one conflict: the rule (source id) in one target group. */
export const migrationDecisionSchema = z.object({
  ruleId: z.string().max(64),
  aid: z.string().max(64),
  choice: z.enum(MIGRATION_CONFLICT_CHOICES),
});
export type MigrationDecision = z.infer<typeof migrationDecisionSchema>;

export const migrationRequestSchema = z
  .object({
    ...migrationSourceRequestSchema.shape,
    ruleIds: z
      .array(z.string().max(64))
      .min(1, ALERTS_MIGRATION_MESSAGES.rulesRequired)
      .max(MIGRATION_RULE_LIMIT, `At most ${MIGRATION_RULE_LIMIT} rules in one migration`),
    targets: z
      .array(z.object({ aid: z.string().min(1).max(64) }))
      .min(1, ALERTS_MIGRATION_MESSAGES.targetsRequired)
      .max(MIGRATION_TARGET_LIMIT, `At most ${MIGRATION_TARGET_LIMIT} target account groups`),
    /** Targets in another organization: its Org Admin token and the organization. */
    targetOrganization: z.object({ token: platformTokenSchema, organization: organizationSchema }).optional(),
    options: migrationOptionsSchema.default({
      mode: 'copy',
      onConflict: 'ask',
      whenNoTestsLeft: 'keep',
      keepDefault: false,
      includeWindows: false,
      keepRecipients: false,
      whenUnableToAlert: 'keep',
    }),
    decisions: z
      .array(migrationDecisionSchema)
      .max(MIGRATION_RULE_LIMIT * 10)
      .default([]),
  })
  .refine((request) => request.targetOrganization || !request.targets.some((target) => target.aid === request.aid), {
    message: ALERTS_MIGRATION_MESSAGES.targetIsSource,
    path: ['targets'],
  });
export type MigrationRequest = z.output<typeof migrationRequestSchema>;

const differenceSchema = z.object({ field: z.string(), before: z.string(), after: z.string() });
const referenceSchema = z.object({ kind: z.string(), name: z.string() });

/** One rule into one target, as planned. */
export const migrationPlanItemSchema = z.object({
  kind: z.enum(['alert-rule', 'suppression-window']),
  sourceId: z.string(),
  sourceName: z.string(),
  /** The name it will have in the target (a rename gives "Name (2)"). */
  name: z.string(),
  ...bulkAccountGroupSchema.shape,
  status: z.enum(['create', 'update', 'unchanged', 'conflict', 'skip', 'delete']),
  differences: z.array(differenceSchema),
  resolved: z.array(referenceSchema.extend({ from: z.string(), to: z.string() })),
  dropped: z.array(referenceSchema.extend({ reason: z.string() })),
  reason: z.string().nullable(),
  /** It would arrive with no test and no recipient: it could never alert anyone (the plan says so before applying). */
  unableToAlert: z.boolean().optional(),
});
export type MigrationPlanItem = z.infer<typeof migrationPlanItemSchema>;

export const migrationPlanSchema = z.object({
  items: z.array(migrationPlanItemSchema),
  totals: z.record(z.string(), z.number().int()),
  /** Platform calls the plan's writes need (one per created, updated or deleted item). */
  writes: z.number().int(),
  /**
   * What would make the writes fail, said before anything is confirmed: a token whose user may not write
   * where the plan writes. A plan with problems is not applied.
   */
  problems: z.array(z.string()),
});
export type MigrationPlan = z.infer<typeof migrationPlanSchema>;

export const migrationUndoRequestSchema = z.object({
  token: platformTokenSchema,
  targetToken: platformTokenSchema.optional(),
});

export const migrationRunSchema = changeSetSchema.extend({
  sourceAccountGroupName: z.string(),
  /** Where the rules went: the target account groups' names. */
  targetAccountGroupNames: z.array(z.string()),
  targetOrganizationName: z.string().nullable(),
  mode: z.enum(['copy', 'move']),
});
export type MigrationRun = z.infer<typeof migrationRunSchema>;
export const migrationRunListSchema = z.object({ runs: z.array(migrationRunSchema.omit({ items: true })) });
export type MigrationRunSummary = z.infer<typeof migrationRunListSchema>['runs'][number];
