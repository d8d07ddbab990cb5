import { z } from 'zod';
import { TIMELINE_DAYS, TIMELINE_TOOLS } from './customer-words.js';
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
