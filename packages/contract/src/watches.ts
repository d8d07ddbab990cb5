import { z } from 'zod';
import { printable } from './customers.js';
import { HEALTH_CHECK_IDS } from './health.js';
import { platformTokenSchema } from './reports.js';

/**
 * Account Watch (decision 0031): a user's scheduled health check and backup of one customer organization, on a
 * token stored with the customer's consent, that speaks only when something changed.
 */

/** What a watch runs: the health check (AHC v7 and its tables), a backup, or both. */
export const WATCH_RUNS = ['health', 'backup', 'both'] as const;
export type WatchRuns = (typeof WATCH_RUNS)[number];
export const watchRunsSchema = z.enum(WATCH_RUNS);
export const WATCH_CADENCES = ['daily', 'weekly'] as const;
/** The lowest check status whose new findings make a watch speak. */
export const WATCH_SEVERITIES = ['warn', 'fail'] as const;
export const WATCH_STATUSES = ['active', 'paused'] as const;

/**
 * The defaults of the variables that bound a stored token's life and the score history, and the caps on watches
 * and their runs: watches per user and per organization, how often "Run now" may run one watch, and how
 * many runs of one organization's watches work at once.
 */
export const WATCH_DEFAULTS = {
  tokenMaxDays: 90,
  historyDays: 730,
  maxPerUser: 50,
  maxPerOrganization: 20,
  runNowEveryMinutes: 5,
  runsPerOrganization: 3,
} as const;

/** Why a watch stopped, in the owner's words; each also erased the stored token (but `paused`). */
export const WATCH_PAUSE_REASONS = {
  paused: 'Paused by its owner.',
  revoked: 'The stored token was revoked.',
  capabilityLost: 'Its owner’s role no longer runs what it runs.',
  expired: 'The stored token expired: store a new one with the customer’s consent to resume.',
  refused: 'The platform refused the stored token (revoked or expired at the customer): store a new one to resume.',
  deactivated: 'Its owner was deactivated.',
  keyRetired: 'The key that sealed the stored token was retired: store the token again to resume.',
} as const;
export type WatchPauseReason = keyof typeof WATCH_PAUSE_REASONS;

export const WATCH_MESSAGES = {
  consentRequired: 'A watch keeps the customer’s token only with their consent: name the contact who approved it.',
  expiryTooLong: (days: number) => `A stored token may be kept at most ${days} days.`,
  weekdayRequired: 'A weekly watch runs on one day of the week: choose it.',
  roomRequired: 'Name the Webex room the messages go to.',
  unknownTimeZone: 'Unknown time zone: use a name such as Europe/Paris or America/New_York.',
  noToken: 'This watch has no stored token: store one with the customer’s consent first.',
  changedMeanwhile:
    'This watch was changed since you opened it (edited elsewhere, paused, resumed or given a new token): close the form, look at it again and make your change.',
  notFound: 'No such watch.',
  noAccountGroups: 'Choose at least one account group.',
  notActive: 'This watch is paused: resume it (with a stored token) to run it.',
  runUnderWay: 'A run of this watch is under way: its result comes first.',
  tooManyOfUser: (cap: number) =>
    `You have ${cap} watches, the most one person may keep: delete one you no longer need first.`,
  tooManyOfOrganization: (cap: number, organization: string) =>
    `${organization} has ${cap} watches, the most one organization may have: its API budget is shared by them all.`,
  runNowTooSoon: (minutes: number, at: string) =>
    `This watch ran on request less than ${minutes} minutes ago: run it again from ${at}.`,
  consentExpired: WATCH_PAUSE_REASONS.expired,
  roomNotMember:
    'The watch’s owner is not a member of this Webex room: choose a room they are in, or send the messages to the owner.',
  roomUnknown:
    'The Webex room was not found: add the bot to the room (or check its id), or send the messages to yourself.',
  roomNotChecked: 'Webex could not be asked who is in the room: try again in a moment.',
  contactName: 'The contact’s full name (first and last), as letters: not a note, a number or an address.',
  packNeedsHealth: 'A monthly review pack is built from the watch’s health checks: let the watch run the health check.',
} as const;

/**
 * A person's name as a consent names its contact: two words or more of letters (any script), with the marks,
 * apostrophes, hyphens and dots names carry (or one word of a script written without spaces, "李小龙"); no digits,
 * no @, no one-word note ("ok", "approved", "-").
 */
export function isPersonName(value: string): boolean {
  const words = value.trim().split(/\s+/);
  if (words.length === 1)
    return /^[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]{2,}$/u.test(words[0] ?? '');
  if (words.length < 2 || words.length > 6) return false;
  const lower = words.map((word) => word.toLowerCase());
  // Notes in two words ("ok ok", "no one", "test test", "DROP TABLE"), initials alone ("A B", "x. y."): no name.
  if (new Set(lower).size === 1 || lower.some((word) => NOT_NAMES.has(word.replace(/\.$/, '')))) return false;
  if (!words.some((word) => /\p{L}.*\p{L}/u.test(word))) return false;
  return words.every((word) => /^[\p{L}][\p{L}\p{M}'’.-]*$/u.test(word) && /\p{L}.*\p{L}|^\p{L}\.?$/u.test(word));
}

/** Words that are notes, placeholders or commands, never a part of a contact's name. */
const NOT_NAMES = new Set(
  'ok okay yes no none nobody noone one test tests testing null unknown tbd approved drop table select delete insert update'.split(
    ' ',
  ),
);

/** An IANA zone name's shape ("Europe/Paris", "UTC"): letters first, so no offset such as "+05:30". */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/** The canonical name of an IANA time zone this runtime knows ("europe/paris" -> "Europe/Paris"), or null. */
export function canonicalTimeZone(zone: string): string | null {
  if (!ZONE_NAME.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export const isTimeZone = (zone: string): boolean => canonicalTimeZone(zone) !== null;

/** When a watch runs, in its owner's day: 24-hour `HH:MM`. */
export const watchTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time of day as HH:MM (24-hour)');
/** The owner's time zone, stored by its canonical name (one spelling per zone). */
export const watchTimeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, WATCH_MESSAGES.unknownTimeZone)
  .transform((zone) => canonicalTimeZone(zone) ?? zone);

/** A Webex room id: the platform's base64url-like ids, nothing else. */
const ROOM_ID = /^[A-Za-z0-9_=+/:.-]+$/;

const scheduleShape = {
  cadence: z.enum(WATCH_CADENCES),
  /** Weekly: 0 (Sunday) to 6 (Saturday); null for a daily watch. */
  weekday: z.number().int().min(0).max(6).nullable(),
  /** The owner's local time, 24-hour `HH:MM`. */
  time: z.string(),
  /** An IANA time zone, by its canonical name. */
  timeZone: z.string(),
};

/** A schedule as the API answers it. */
export const watchScheduleAnswerSchema = z.object(scheduleShape);

/** A schedule as a request sends it: checked, and its time zone stored by its canonical name. */
export const watchScheduleSchema = z
  .object({
    ...scheduleShape,
    // A daily watch may leave it out.
    weekday: scheduleShape.weekday.default(null),
    time: watchTimeSchema,
    timeZone: watchTimeZoneSchema,
  })
  .refine((schedule) => schedule.cadence === 'daily' || schedule.weekday !== null, {
    message: WATCH_MESSAGES.weekdayRequired,
    path: ['weekday'],
  })
  // A daily watch has no weekday, whatever was sent.
  .transform((schedule) => (schedule.cadence === 'daily' ? { ...schedule, weekday: null } : schedule));
export type WatchSchedule = z.infer<typeof watchScheduleAnswerSchema>;

/** The Webex room a watch's messages go to. */
export const watchRoomIdSchema = z
  .string()
  .trim()
  .min(1, WATCH_MESSAGES.roomRequired)
  .max(200)
  .regex(ROOM_ID, 'A Webex room id: letters, digits and - _ = + / : . only');

export const watchChannelSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('owner') }),
  z.object({ kind: z.literal('room'), roomId: watchRoomIdSchema }),
]);
export type WatchChannel = z.infer<typeof watchChannelSchema>;

/** When a run's message is sent (any one that holds); nothing is sent otherwise, but the weekly quiet line. */
export const watchSpeakWhenSchema = z.object({
  anyChange: z.boolean(),
  /** A score drop of at least this many points. */
  scoreDrop: z.number().int().min(1).max(100).nullable(),
  /** New findings in a check of this status or worse. */
  newFindingsAtLeast: z.enum(WATCH_SEVERITIES).nullable(),
  /** Any drift since the previous backup. */
  drift: z.boolean(),
  /** Once a week, "all quiet" when nothing else was said. */
  weeklyQuietLine: z.boolean(),
});
export type WatchSpeakWhen = z.infer<typeof watchSpeakWhenSchema>;

/** The customer's consent to keep their token: who approved it, and for how long. */
export const watchConsentSchema = z.object({
  contactName: z
    .string()
    .trim()
    .min(1, WATCH_MESSAGES.consentRequired)
    .max(120)
    .refine(printable, 'A name is printable text')
    .refine(isPersonName, WATCH_MESSAGES.contactName),
  contactEmail: z.email('The contact’s email address').max(254),
  /** Days the token is kept (at most WATCH_TOKEN_MAX_DAYS, checked by the server). */
  days: z.number().int().min(1).max(3650),
});
export type WatchConsent = z.infer<typeof watchConsentSchema>;

const accountGroupsSchema = z
  .array(z.object({ aid: z.string().min(1).max(64), accountGroupName: z.string().max(200) }))
  .min(1, WATCH_MESSAGES.noAccountGroups)
  .max(500)
  .refine((groups) => new Set(groups.map((group) => group.aid)).size === groups.length, 'Each account group once');

const settingsShape = {
  accountGroups: accountGroupsSchema,
  runs: watchRunsSchema,
  channel: watchChannelSchema,
  speakWhen: watchSpeakWhenSchema,
  /**
   * A duty: the first run that ends in a new month (UTC, as a pack's periods are), its health check done, requests
   * the previous month's review pack, kept in My Reports and sent to the owner's Webex. Only with the health check.
   */
  monthlyReviewPack: z.boolean(),
};

/**
 * What a watch is set to do; created with the token and its consent, edited without them. A request without
 * `monthlyReviewPack` creates a watch without the duty, and leaves an edited watch's as it was.
 */
export const watchSettingsSchema = z.object({
  ...settingsShape,
  schedule: watchScheduleSchema,
  monthlyReviewPack: z.boolean().optional(),
  /**
   * The watch's `updatedAt` the edit was made from: a watch changed since (edited elsewhere, paused, resumed, its token
   * replaced) refuses the edit (409 `watch_changed`) rather than lose that change. Without it the edit is checked
   * against the watch as the server read it.
   */
  expectedUpdatedAt: z.iso.datetime({ offset: true }).optional(),
});
export type WatchSettings = z.infer<typeof watchSettingsSchema>;

export const createWatchSchema = watchSettingsSchema.extend({
  token: platformTokenSchema,
  organization: z.object({ id: z.string().min(1).max(64), name: z.string().max(200) }),
  consent: watchConsentSchema,
});
export type CreateWatch = z.infer<typeof createWatchSchema>;

/** A new token for a watch (after a revocation, an expiry or a refusal), with a new consent. */
export const storeWatchTokenSchema = z.object({ token: platformTokenSchema, consent: watchConsentSchema });
export type StoreWatchToken = z.infer<typeof storeWatchTokenSchema>;

export const watchIdParamsSchema = z.object({ id: z.uuid() });

/** What is shown of a stored token: never the token, only its end and its consent. */
export const storedTokenSchema = z.object({
  /** The token's last 4 characters, as taken when it was stored. */
  last4: z.string(),
  storedAt: z.string(),
  storedBy: z.object({ email: z.string(), name: z.string() }),
  contactName: z.string(),
  contactEmail: z.string(),
  expiresAt: z.string(),
});

export const watchSchema = z.object({
  ...settingsShape,
  schedule: watchScheduleAnswerSchema,
  id: z.string(),
  owner: z.object({ email: z.string(), name: z.string() }),
  organizationId: z.string(),
  organizationName: z.string(),
  status: z.enum(WATCH_STATUSES),
  /** Why it is paused, in words; null while active. */
  pausedReason: z.string().nullable(),
  token: storedTokenSchema.nullable(),
  /** The next run, while active. */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  createdAt: z.string(),
  /** When a person last changed it (an edit, a pause or resume, its token): what an edit sends back as its version. */
  updatedAt: z.string(),
});
export type Watch = z.infer<typeof watchSchema>;

export const watchListSchema = z.object({ watches: z.array(watchSchema) });
export const watchListQuerySchema = z.object({
  /** Every user's watches (Super Users), else the caller's own. */
  everyone: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const WATCH_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** What became of a run's message: sent, nothing to say, Webex refused it, or no Webex here. */
export const WATCH_DELIVERY_STATUSES = ['pending', 'sent', 'quiet', 'failed', 'none'] as const;

/** One run of a watch: when it was due, where it stands, its score and what it said. */
export const watchRunSchema = z.object({
  id: z.string(),
  watchId: z.string(),
  dueAt: z.string(),
  trigger: z.enum(['schedule', 'now']),
  status: z.enum(WATCH_RUN_STATUSES),
  error: z.string().nullable(),
  score: z.number().nullable(),
  /** The health check's report (My Reports), once made. */
  reportId: z.string().nullable(),
  delivery: z.object({ status: z.enum(WATCH_DELIVERY_STATUSES), error: z.string().nullable() }),
  /** The message sent, as sent (Webex markdown); null when nothing was said. */
  message: z.string().nullable(),
  /** The checks whose status moved since the previous run (what moved the score). */
  moved: z.array(z.object({ title: z.string(), before: z.string(), after: z.string() })),
  /** Findings open now, and those waived (left out of the score and the message). */
  openFindings: z.number().nullable(),
  waivedFindings: z.number().nullable(),
  /**
   * Where a run under way stands (null once it ended): its health check's steps, as its report in My Reports counts
   * them (null before it started), and how many of its account groups' backups ended (null when it makes none).
   */
  progress: z
    .object({
      health: z
        .object({ status: z.enum(WATCH_RUN_STATUSES), done: z.number().int(), total: z.number().int() })
        .nullable(),
      backups: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
    })
    .nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type WatchRun = z.infer<typeof watchRunSchema>;
export const watchRunListSchema = z.object({ runs: z.array(watchRunSchema) });

/** The open findings of a watch's latest health check (waived ones left out): what a waiver is made from. */
export const watchFindingsSchema = z.object({
  /** When the health check they come from ran; null before any. */
  at: z.string().nullable(),
  findings: z.array(
    z.object({
      checkId: z.enum(HEALTH_CHECK_IDS),
      check: z.string(),
      status: z.string(),
      /** The item's type and id ("user:123"): what a waiver of this item names. */
      itemKey: z.string(),
      name: z.string(),
      detail: z.string(),
    }),
  ),
});
export type WatchFindings = z.infer<typeof watchFindingsSchema>;
