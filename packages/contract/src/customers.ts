import { z } from 'zod';
import { CHANGE_ACTORS, OVERVIEW_DAYS, TIMELINE_DAYS, TIMELINE_TOOLS } from './customer-words.js';
import { HEALTH_CHECK_IDS, HEALTH_STATUSES } from './health.js';
import { WORK_OUTCOMES } from './run-outcome.js';
import { reportAccountGroupSchema } from './reports.js';

export {
  INVALID_OAUTH_TOKEN,
  looksLikePlatformToken,
  PLATFORM_TOKEN_MIN_LENGTH,
  TOKEN_READS,
  TOKEN_REFUSALS,
  tokenAbilityWords,
  type TokenAbilityFacts,
  type TokenRead,
  TIMELINE_DAYS,
  TIMELINE_LIMIT,
  TIMELINE_TOOL_LABELS,
  TIMELINE_TOOLS,
  type TimelineTool,
  WORK_TOOLS,
  CHANGE_ACTORS,
  type ChangeActorKind,
  OVERVIEW_DAYS,
  CUSTOMER_STATES,
  CUSTOMER_STATE_LABELS,
  CUSTOMER_REASONS,
  type CustomerState,
  signedChange,
} from './customer-words.js';

/** Printable text only: a control character (NUL above all) is no organization id or email. */
export const printable = (value: string) => ![...value].some((character) => character < ' ' || character === '\u007f');

export const customerTimelineParamsSchema = z.object({
  organizationId: z.string().min(1).max(64).refine(printable, 'An organization id is printable text'),
});

export const customerTimelineQuerySchema = z.object({
  /** Everyone's work (those allowed to see all runs), else the caller's own. */
  everyone: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  tool: z.enum(TIMELINE_TOOLS).optional(),
  /** One person's work (an email), among everyone's. */
  person: z.string().max(254).refine(printable, 'An email is printable text').optional(),
  days: z.coerce
    .number()
    .int()
    .refine((days) => (TIMELINE_DAYS as readonly number[]).includes(days), 'Choose 7, 30, 90 or 365 days')
    .default(30),
});
export type CustomerTimelineQuery = z.infer<typeof customerTimelineQuerySchema>;

/** One thing done for a customer through the toolkit: what, where, who, when, how it went, and its page. */
export const timelineEntrySchema = z.object({
  id: z.string(),
  tool: z.enum(TIMELINE_TOOLS),
  /** In words: "Account Health Check v7", "Bulk tests run", "Undo of a restore", "Dashboard 'WAN' pushed". */
  what: z.string(),
  accountGroups: z.array(z.string()),
  person: z.object({ name: z.string(), email: z.string() }),
  createdAt: z.string(),
  /** queued, running, done, failed (and a push's sending). */
  status: z.string(),
  /**
   * How it went, in the words and colour the page shows (`WORK_OUTCOME_LABELS`): a run with not one item done is
   * failed, some failed is done with failures, a run since undone is undone; a report made but not sent to Webex is
   * done with failures. The run's panel and its end toast say the same (`runOutcome`).
   */
  outcome: z.enum(WORK_OUTCOMES),
  /** The page that shows it, inside the app. */
  path: z.string(),
  /** The watch whose run made it (a health check or backup an Account Watch run started): not the person's own. */
  watch: z.object({ id: z.string(), runId: z.string(), label: z.string() }).optional(),
  /**
   * A change a watch found at the customer: who made it, in words ("by us (Taylor TAM, bulk run, 5 Dec)", "by the
   * customer (jane@acme.example, per the platform's audit log)", "by unknown").
   */
  by: z.object({ kind: z.enum(CHANGE_ACTORS), words: z.string() }).optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const customerTimelineSchema = z.object({
  organizationId: z.string(),
  /** The organization's name as the newest entry recorded it (null when nothing was done for it yet). */
  organizationName: z.string().nullable(),
  entries: z.array(timelineEntrySchema),
  /** Everyone who did something for it in the period (the person filter's choices), when everyone's is asked. */
  people: z.array(z.object({ name: z.string(), email: z.string() })),
});
export type CustomerTimeline = z.infer<typeof customerTimelineSchema>;

/** What a customer's token may do, proved by reads (the switcher's check): in facts and in words. */
export const tokenAbilitySchema = z.object({
  isOrgAdmin: z.boolean(),
  /** A role with management permissions in one of its account groups; null when the platform did not show the roles. */
  canWrite: z.boolean().nullable(),
  /** The permissions (as the diagnostic tool names them) whose read the platform refused. */
  cannotRead: z.array(z.string()),
  /** Beside the organization's name: "Org Admin", "read-only", "limited". */
  label: z.string(),
  /** "read-only: reports work, writing tools will be refused." */
  summary: z.string(),
});
export type TokenAbility = z.infer<typeof tokenAbilitySchema>;

/** The switcher's check of a token: the account groups it sees and what it may do there. */
export const tokenCheckSchema = z.object({
  accountGroups: z.array(reportAccountGroupSchema),
  ability: tokenAbilitySchema,
});
export type TokenCheck = z.infer<typeof tokenCheckSchema>;

/** The customer page's header and "needs attention": the same filters as its timeline, the period this week or 30 days. */
export const customerOverviewQuerySchema = customerTimelineQuerySchema.omit({ tool: true, days: true }).extend({
  days: z.coerce
    .number()
    .int()
    .refine((days) => (OVERVIEW_DAYS as readonly number[]).includes(days), 'Choose 7 or 30 days')
    .default(7),
});
export type CustomerOverviewQuery = z.infer<typeof customerOverviewQuerySchema>;

const checkIdSchema = z.enum(HEALTH_CHECK_IDS);

/** One item a check found (a user, a test, a rule…), as "needs attention" lists it. */
export const attentionItemSchema = z.object({ itemKey: z.string(), name: z.string(), detail: z.string() });

/** A time-tracker engagement linked to a customer: its hours count as the customer's. */
export const customerEngagementSchema = z.object({
  engagementId: z.string(),
  /** Who linked it (their email); null for a user since deleted. */
  linkedBy: z.string().nullable(),
  createdAt: z.string(),
});
export const customerEngagementsSchema = z.object({ engagements: z.array(customerEngagementSchema) });

export const customerOverviewSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string().nullable(),
  /** The latest health check the caller may read (a watch's or their own), null before any. */
  health: z
    .object({
      score: z.number(),
      grade: z.string(),
      at: z.string(),
      /** Open findings (items of checks that warn or fail, less those waived). */
      findings: z.number(),
      /** Its scores, oldest first, this one last (the sparkline). */
      trend: z.array(z.object({ at: z.string(), score: z.number() })),
      /** The report it comes from. */
      path: z.string(),
      /** Made by a watch's run. */
      byWatch: z.boolean(),
    })
    .nullable(),
  /** The three checks to act on first: failing or warning, heaviest first. */
  topActions: z.array(
    z.object({
      checkId: checkIdSchema,
      check: z.string(),
      status: z.enum(HEALTH_STATUSES),
      weight: z.number(),
      items: z.number(),
      remediation: z.string(),
    }),
  ),
  /** The open findings grouped by check (heaviest first); a person named by several checks is listed once, apart. */
  attention: z.object({
    groups: z.array(
      z.object({
        checkId: checkIdSchema,
        check: z.string(),
        status: z.enum(HEALTH_STATUSES),
        weight: z.number(),
        items: z.array(attentionItemSchema),
      }),
    ),
    people: z.array(
      attentionItemSchema.extend({
        checks: z.array(z.object({ checkId: checkIdSchema, check: z.string(), status: z.enum(HEALTH_STATUSES) })),
      }),
    ),
  }),
  /** The period's line: what we did, what changed at the customer, hours logged, waivers in force. */
  period: z.object({
    days: z.number(),
    /** The timeline's entries of the period by tool (the same read: the counts are the timeline's). */
    runs: z.array(z.object({ tool: z.enum(TIMELINE_TOOLS), count: z.number() })),
    /** Of those, made by watch runs. */
    byWatches: z.number(),
    /** Configuration changes the watches' backups found at the customer in the period. */
    drift: z.number(),
    /** Hours logged on the engagements linked to the customer in the period (null: the caller may not see them). */
    hours: z.number().nullable(),
    /** Waivers in force now (null: the caller is not tied to the customer). */
    waivers: z.number().nullable(),
  }),
  /** The time tracker's engagements linked to this customer. */
  engagements: z.array(customerEngagementSchema),
});
export type CustomerOverview = z.infer<typeof customerOverviewSchema>;

export const ENGAGEMENT_MESSAGES = {
  elsewhere: (organizationId: string) =>
    `This engagement is linked to another customer (organization ${organizationId}): unlink it there first.`,
  notLinked: 'This engagement is not linked to this customer.',
} as const;

export const linkEngagementSchema = z.object({
  engagementId: z.string().trim().min(1, 'Name the engagement (its Engagement_ID).').max(255).refine(printable),
});
export const engagementParamsSchema = customerTimelineParamsSchema.extend({
  engagementId: z.string().min(1).max(255).refine(printable),
});
