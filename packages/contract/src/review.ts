import { z } from 'zod';
import { printable } from './customers.js';
import {
  REVIEW_KEY_TESTS_MAX,
  REVIEW_MESSAGES,
  REVIEW_NARRATIVE_MAX_ITEMS,
  REVIEW_PERIOD_KINDS,
  REVIEW_PERIOD_MAX_DAYS,
} from './review-words.js';

/**
 * The review pack (issue 60, decision 0038): a customer's monthly or quarterly business review, built from what the
 * toolkit measured and did. It is a report kind (`review-pack`): requested, kept in My Reports and sent to Webex as
 * the others are; its options say the period, the cut-off, the key tests and the narrative only a person writes.
 */

const DAY_MS = 86_400_000;
const isoDay = z.iso.date();
const text = (max: number) => z.string().trim().min(1).max(max).refine(printable, 'Printable text only');

/** A period: `from` and `to` are its first and last day (UTC), both included. */
export const reviewPeriodSchema = z
  .object({ kind: z.enum(REVIEW_PERIOD_KINDS), from: isoDay, to: isoDay })
  .refine((period) => period.from <= period.to, { message: REVIEW_MESSAGES.periodOrder, path: ['to'] })
  .refine((period) => (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS < REVIEW_PERIOD_MAX_DAYS, {
    message: REVIEW_MESSAGES.periodTooLong,
    path: ['to'],
  });
export type ReviewPeriod = z.infer<typeof reviewPeriodSchema>;

/** What only a person writes, kept per customer for the next pack: goals, highlights, next steps with owners. */
export const reviewNarrativeSchema = z.object({
  goals: z.array(text(300)).max(REVIEW_NARRATIVE_MAX_ITEMS).default([]),
  highlights: z.array(text(300)).max(REVIEW_NARRATIVE_MAX_ITEMS).default([]),
  nextSteps: z
    .array(z.object({ step: text(300), owner: text(120), due: isoDay }))
    .max(REVIEW_NARRATIVE_MAX_ITEMS)
    .default([]),
});
export type ReviewNarrative = z.infer<typeof reviewNarrativeSchema>;

/** A customer's kept narrative, and who last saved it (null before anyone did). */
export const reviewNarrativeResponseSchema = z.object({
  narrative: reviewNarrativeSchema,
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type ReviewNarrativeResponse = z.infer<typeof reviewNarrativeResponseSchema>;

/** The `review-pack` report kind's options. Without a cut-off the pack takes the moment it is built. */
export const reviewPackOptionsSchema = z.object({
  period: reviewPeriodSchema,
  cutOff: z.iso.datetime().optional(),
  /** The tests followed week over week, by test id; none: the worst ones of the stored measurements. */
  keyTests: z.array(z.string().min(1).max(64)).max(REVIEW_KEY_TESTS_MAX).default([]),
  narrative: reviewNarrativeSchema.default({ goals: [], highlights: [], nextSteps: [] }),
});
export type ReviewPackOptions = z.infer<typeof reviewPackOptionsSchema>;

/** A chart of a slide, as the server draws it (the same in the deck, its PDF and the preview). */
export const reviewChartSchema = z.object({
  type: z.enum(['bar', 'line']),
  categories: z.array(z.string()),
  series: z.array(z.object({ name: z.string(), values: z.array(z.number().nullable()) })),
  min: z.number().optional(),
  max: z.number().optional(),
  unit: z.string(),
});

/** One slide of a pack, as plain data: its title, footer (source and cut-off) and its content. */
export const reviewSlideSchema = z.intersection(
  z.object({ title: z.string(), footer: z.string().optional() }),
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('cover'), lines: z.array(z.string()) }),
    z.object({
      kind: z.literal('bullets'),
      groups: z.array(z.object({ heading: z.string(), items: z.array(z.string()) })),
    }),
    z.object({ kind: z.literal('chart'), chart: reviewChartSchema, lines: z.array(z.string()) }),
    z.object({
      kind: z.literal('table'),
      columns: z.array(z.string()),
      rows: z.array(z.array(z.string())),
      lines: z.array(z.string()),
    }),
    z.object({ kind: z.literal('text'), lines: z.array(z.string()) }),
  ]),
);
export type ReviewSlide = z.infer<typeof reviewSlideSchema>;

/** The preview's query: the period (and cut-off, key tests) the pack would cover. */
export const reviewPreviewQuerySchema = z.object({
  kind: z.enum(REVIEW_PERIOD_KINDS),
  from: isoDay,
  to: isoDay,
  cutOff: z.iso.datetime().optional(),
  /** Test ids, comma-separated. */
  keyTests: z
    .string()
    .max(REVIEW_KEY_TESTS_MAX * 65)
    .optional()
    .transform((value) => (value ? value.split(',').filter(Boolean).slice(0, REVIEW_KEY_TESTS_MAX) : [])),
});

/**
 * A pack's preview: its slides from what the toolkit stored (the watches' measurements, its health checks, its
 * timeline), read from the database only. What only the platform answers (outages, evidence links) is read when the
 * pack is built, and the preview says so in `platformLater`.
 */
export const reviewPreviewSchema = z.object({
  organizationId: z.string(),
  customer: z.string(),
  periodLabel: z.string(),
  /** ISO-8601 UTC: the period's start (included) and end (excluded), and the cut-off. */
  from: z.string(),
  to: z.string(),
  cutOff: z.string(),
  slides: z.array(reviewSlideSchema),
  /** The tests the stored measurements propose as key: the worst by availability first. */
  proposedKeyTests: z.array(
    z.object({
      testId: z.string(),
      testName: z.string(),
      accountGroup: z.string(),
      availability: z.number().nullable(),
    }),
  ),
  /** Sections read from the platform when the pack is built, in words. */
  platformLater: z.array(z.string()),
});
export type ReviewPreview = z.infer<typeof reviewPreviewSchema>;
