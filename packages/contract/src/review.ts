import { z } from 'zod';
import { printable } from './customers.js';
import { platformTokenSchema } from './reports.js';
import {
  REVIEW_EARLIEST_DAY,
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

/** The last day of the month `months` after the one `day` is in ("2026-11-10", 0: "2026-11-30"). */
const lastDayOf = (day: string, months: number) => {
  const [year = 0, month = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month + months, 0)).toISOString().slice(0, 10);
};

/** Whether a month is one calendar month and a quarter one calendar quarter, first day to last; dates are free. */
export function periodFitsKind(period: { kind: (typeof REVIEW_PERIOD_KINDS)[number]; from: string; to: string }) {
  if (period.kind === 'dates') return true;
  const [, month = 0, date = 0] = period.from.split('-').map(Number);
  if (date !== 1 || (period.kind === 'quarter' && (month - 1) % 3 !== 0)) return false;
  return period.to === lastDayOf(period.from, period.kind === 'month' ? 0 : 2);
}

/**
 * A period: `from` and `to` are its first and last day (UTC), both included; none before REVIEW_EARLIEST_DAY. A
 * `month` is one calendar month and a `quarter` one calendar quarter, as the pack's title names them.
 */
export const reviewPeriodSchema = z
  .object({ kind: z.enum(REVIEW_PERIOD_KINDS), from: isoDay, to: isoDay })
  .refine((period) => period.from >= REVIEW_EARLIEST_DAY, {
    message: REVIEW_MESSAGES.periodTooEarly,
    path: ['from'],
    abort: true,
  })
  .refine((period) => period.from <= period.to, { message: REVIEW_MESSAGES.periodOrder, path: ['to'], abort: true })
  .refine((period) => (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS < REVIEW_PERIOD_MAX_DAYS, {
    message: REVIEW_MESSAGES.periodTooLong,
    path: ['to'],
    abort: true,
  })
  .refine((period) => period.kind !== 'month' || periodFitsKind(period), {
    message: REVIEW_MESSAGES.notAMonth,
    path: ['to'],
  })
  .refine((period) => period.kind !== 'quarter' || periodFitsKind(period), {
    message: REVIEW_MESSAGES.notAQuarter,
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

/**
 * The `review-pack` report kind's options. Without a cut-off the pack takes the moment it is built; without a
 * narrative it takes the one kept for the customer when it is built (the preview's). The pack never saves one.
 */
export const reviewPackOptionsSchema = z.object({
  period: reviewPeriodSchema,
  cutOff: z.iso.datetime().optional(),
  /** The tests followed week over week, by test id; none: the worst ones of the stored measurements. */
  keyTests: z.array(z.string().min(1).max(64)).max(REVIEW_KEY_TESTS_MAX).default([]),
  narrative: reviewNarrativeSchema.optional(),
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

const organizationIdField = z.string().min(1).max(64).refine(printable, 'An organization id is printable text');

/**
 * Whose narrative or preview is asked for: the organization, and the customer's token for a caller tied to it by that
 * alone (the owner of a watch over it and a Super User need none). The token is used once, never stored.
 */
export const reviewCustomerSchema = z.object({
  organizationId: organizationIdField,
  token: platformTokenSchema.optional(),
});
export type ReviewCustomer = z.infer<typeof reviewCustomerSchema>;

/** Saving a customer's narrative over the one kept. */
export const reviewNarrativeSaveSchema = reviewCustomerSchema.extend({ narrative: reviewNarrativeSchema });
export type ReviewNarrativeSave = z.infer<typeof reviewNarrativeSaveSchema>;

/** The preview's request: the period (and cut-off, key tests) the pack would cover. */
export const reviewPreviewRequestSchema = reviewCustomerSchema.extend({
  period: reviewPeriodSchema,
  cutOff: z.iso.datetime().optional(),
  /** Test ids; none: the worst ones of the stored measurements. */
  keyTests: z.array(z.string().min(1).max(64)).max(REVIEW_KEY_TESTS_MAX).default([]),
});
export type ReviewPreviewRequest = z.input<typeof reviewPreviewRequestSchema>;

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
