import { z } from 'zod';
import { CUSTOMER_STATES, printable } from './customers.js';
import { HEALTH_CHECK_IDS } from './health.js';
import { platformTokenSchema } from './reports.js';
import { REVIEW_PERIOD_KINDS } from './review-words.js';
import { WAIVER_MAX_DAYS, WAIVER_MESSAGES } from './waiver-words.js';

/**
 * Account Watch's waivers and portfolio (decision 0031): a finding waived per customer with a reason and an expiry,
 * and "My customers", every watched organization with its score, trend and what is open.
 */

/**
 * The customer's token, when the caller is tied to the organization by it (rather than by owning a watch over it,
 * or being a Super User): used once to ask the platform which organization it reaches, never stored.
 */
const customerTokenField = platformTokenSchema.optional();

export const createWaiverSchema = z.object({
  organizationId: z.string().min(1).max(64).refine(printable, 'An organization id is printable text'),
  checkId: z.enum(HEALTH_CHECK_IDS),
  /** One item of the check (its type and id, as the report lists it: "user:123"), or none for the whole check. */
  itemKey: z.string().min(1).max(200).refine(printable, 'An item is printable text').nullable(),
  itemName: z.string().max(300).refine(printable, 'A name is printable text').nullable().default(null),
  reason: z
    .string()
    .trim()
    .min(1, WAIVER_MESSAGES.reasonRequired)
    .max(500)
    .refine(printable, 'A reason is printable text'),
  days: z.number().int().min(1).max(WAIVER_MAX_DAYS),
  token: customerTokenField,
});
export type CreateWaiver = z.infer<typeof createWaiverSchema>;

export const waiverSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  checkId: z.enum(HEALTH_CHECK_IDS),
  itemKey: z.string().nullable(),
  itemName: z.string().nullable(),
  reason: z.string(),
  expiresAt: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Waiver = z.infer<typeof waiverSchema>;
export const waiverListSchema = z.object({ waivers: z.array(waiverSchema) });
export const waiverQuerySchema = z.object({
  organizationId: z.string().min(1).max(64).refine(printable, 'An organization id is printable text'),
});
/** A customer's waivers, asked with the customer's token (the customer page sends the chosen customer's). */
export const waiverListRequestSchema = waiverQuerySchema.extend({ token: customerTokenField });
export type WaiverListRequest = z.infer<typeof waiverListRequestSchema>;
export const waiverIdParamsSchema = z.object({ id: z.uuid() });
/** Ending a waiver: the customer's token, for a caller tied to the organization by it. */
export const endWaiverSchema = z.object({ token: customerTokenField }).nullish();

/** A finished review pack, as My customers and the fleet summary name it (its report opens in My Reports). */
export const lastPackSchema = z.object({
  reportId: z.string(),
  periodKind: z.enum(REVIEW_PERIOD_KINDS),
  /** The period's first and last day (both included), and the period in words ("Q2 2026", "April 2026"). */
  from: z.iso.date(),
  to: z.iso.date(),
  periodLabel: z.string(),
  builtAt: z.string(),
});
export type LastPack = z.infer<typeof lastPackSchema>;

/** One watched organization in "My customers". */
export const portfolioEntrySchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  watches: z.number(),
  /** Who owns those watches (email addresses, sorted): one person in "Mine", maybe several in "Everyone's". */
  owners: z.array(z.string()),
  /** Of those, the paused ones (revoked, expired or refused tokens among them). */
  pausedWatches: z.number(),
  /** The latest health check's score (of the watch that ran last), null before any. */
  score: z.number().nullable(),
  /** The last four scores, oldest first. */
  trend: z.array(z.number()),
  /** Score now minus four runs ago (negative: a decline). */
  change: z.number().nullable(),
  lastRunAt: z.string().nullable(),
  lastBackupAt: z.string().nullable(),
  /** Configuration changes found at the last backup, since the one before. */
  driftSinceBackup: z.number().nullable(),
  openFindings: z.number().nullable(),
  waivedFindings: z.number(),
  nextRunAt: z.string().nullable(),
  /** Checks that went from passing to not passing this ISO week here and in at least two other customers. */
  commonRegressions: z.array(z.string()),
  /** Red (needs the TAM now), amber (keep an eye on) or green, and why in words, the weightiest reason first. */
  state: z.enum(CUSTOMER_STATES),
  reasons: z.array(z.string()),
  /** The customer's latest review pack the caller may open (the latest period first), null before any. */
  lastPack: lastPackSchema.nullable(),
  /** The first day after the period that follows the last pack's (the next pack can be built then), null before any. */
  nextPackDue: z.iso.date().nullable(),
});
export type PortfolioEntry = z.infer<typeof portfolioEntrySchema>;
export const portfolioSchema = z.object({ customers: z.array(portfolioEntrySchema) });
export const portfolioQuerySchema = z.object({
  everyone: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** A part of the fleet summary read from the latest stored measurements, or why it could not be determined. */
const fleetPart = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), reason: z.string() }),
  ]);

/** One customer of the TAM's book in the fleet summary: what the latest watch run measured, and its packs. */
export const fleetEntrySchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  owners: z.array(z.string()),
  /** When the measurements shown were taken (the end of that run's results window), null before any. */
  measuredAt: z.string().nullable(),
  /** This term's units: used, projected to the term's end, included, and the day the projection crosses them. */
  units: fleetPart(
    z.object({
      termEnd: z.string(),
      used: z.number(),
      projected: z.number(),
      included: z.number().nullable(),
      runOutAt: z.string().nullable(),
    }),
  ),
  /** Tests below the availability target of the measured checks, the worst first. */
  belowTarget: fleetPart(
    z.array(z.object({ testName: z.string(), accountGroup: z.string(), availability: z.number() })),
  ),
  commonRegressions: z.array(z.string()),
  lastPack: lastPackSchema.nullable(),
  nextPackDue: z.iso.date().nullable(),
});
export type FleetEntry = z.infer<typeof fleetEntrySchema>;
export const fleetSchema = z.object({
  /** The availability target tests are held to, in percent. */
  availabilityTargetPercent: z.number(),
  customers: z.array(fleetEntrySchema),
});
export type FleetSummary = z.infer<typeof fleetSchema>;
export const fleetQuerySchema = portfolioQuerySchema.extend({ format: z.enum(['json', 'csv']).default('json') });
