// Apart from the schemas (review.ts): a customer's page and My customers say these without loading the schema library.

/** A review pack covers a month, a quarter, or dates the TAM chooses. */
export const REVIEW_PERIOD_KINDS = ['month', 'quarter', 'dates'] as const;
export type ReviewPeriodKind = (typeof REVIEW_PERIOD_KINDS)[number];
/** A pack covers at most this many days (a quarter, with room for dates around it). */
export const REVIEW_PERIOD_MAX_DAYS = 100;
/** Key tests a pack follows week over week, at most (the worst ones are proposed). */
export const REVIEW_KEY_TESTS_MAX = 8;
/** Goals, highlights and next steps a pack's narrative holds, at most each. */
export const REVIEW_NARRATIVE_MAX_ITEMS = 10;
/** Snapshots (evidence links) a pack makes at most: the platform allows 5 per organization in 5 minutes. */
export const REVIEW_SNAPSHOTS_MAX = 5;

export const REVIEW_MESSAGES = {
  periodOrder: 'The period ends after it starts: choose its first and last day again.',
  periodTooLong: `A review pack covers at most ${REVIEW_PERIOD_MAX_DAYS} days: choose a month, a quarter, or shorter dates.`,
  periodInFuture: 'The period has not started yet: choose one that has begun.',
  cutOffBeforePeriod: 'The cut-off falls before the period starts: choose a later cut-off or an earlier period.',
  narrativeSaved: 'Saved: the next pack for this customer starts from it.',
  noStoredMeasurements:
    'before the first watch run over this customer: a watch stores what the platform measured each run',
} as const;
