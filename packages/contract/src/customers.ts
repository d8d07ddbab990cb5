import { z } from 'zod';
import { TIMELINE_DAYS, TIMELINE_TOOLS } from './customer-words.js';

export {
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
