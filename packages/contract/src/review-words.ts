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
/** The first day a pack may cover: nothing the toolkit measured is older, and a year 0000 is no period. */
export const REVIEW_EARLIEST_DAY = '2000-01-01';

export const REVIEW_MESSAGES = {
  periodOrder: 'The period ends before it starts: choose its first and last day again.',
  periodTooLong: `A review pack covers at most ${REVIEW_PERIOD_MAX_DAYS} days: choose a month, a quarter, or shorter dates.`,
  periodInFuture: 'The period has not started yet: choose one that has begun.',
  periodTooEarly: 'A review pack covers days from 1 January 2000 on: choose a later period.',
  notAMonth: 'A month runs from its first day to its last: choose the month again, or choose dates.',
  notAQuarter:
    'A quarter runs from the first day of January, April, July or October to the last day of its third month: choose the quarter again, or choose dates.',
  /** A day field of the period left empty, or holding no day of the calendar (the field's words, said beside it). */
  firstDayMissing: 'Enter the period’s first day: a day, a month and a year.',
  lastDayMissing: 'Enter the period’s last day: a day, a month and a year.',
  /** The preview's words while the period or cut-off cannot be covered: what is wrong follows. */
  previewWaits: 'The preview waits for the period and cut-off above:',
  /** A token the platform refused (revoked, expired) when "Build the pack" checked it: what it is, what to do. */
  tokenRefused:
    'The platform refused this token: it was revoked or has expired. Paste a current Org Admin token of this customer, or choose the customer again in the navbar.',
  /** The page of an organization the app knows nothing of (no chosen or recent customer, no watch, no report). */
  unknownCustomer: (organizationId: string) =>
    `No customer with the id ${organizationId} is known here: no watch, report or chosen customer names it. Choose the customer in the navbar, or go back to your customers.`,
  unknownCustomerTitle: 'No such customer',
  backToCustomers: 'Back to My Customers',
  /** The deck's and the PDF's title and subject (their documents' properties). */
  documentTitle: (customer: string, period: string) => `Business review — ${customer}, ${period}`,
  /** A key test's week or period without a round: neither availability nor latency was measured. */
  noRounds: 'no rounds',
  /** A key test with rounds none of which measured a latency (all failed, or the type measures none). */
  noLatency: 'not measured',
  /** The health trend's line before what moved the score, said once. */
  whatMoved: 'What moved it:',
  /** The Webex message's link to the pack in My Reports. */
  openInMyReports: 'Open it in My Reports:',
  cutOffBeforePeriod: 'The cut-off falls before the period starts: choose a later cut-off or an earlier period.',
  narrativeSaved: 'Saved: the next pack for this customer starts from it.',
  noStoredMeasurements:
    'before the first watch run over this customer: a watch stores what the platform measured each run',
  /** Who may read and save a customer's narrative and see its preview (decision 0038): those tied to it. */
  notTied:
    'Only the owner of a watch over this customer, someone with this customer’s token, or a Super User reads or saves its review narrative and sees its preview. Choose the customer with its token and try again.',
  tokenElsewhere:
    'This token is not one of this customer’s: the platform names another organization for it, so its review narrative and preview stay closed to it.',
  hoursRole: 'your role does not include the time tracker',
  hoursToken: 'the personal API token does not carry Tools (the time tracker)',
  /** The platform refused the first snapshot for its limit: no link at all. */
  noEvidenceLink: (max: number) =>
    `No evidence link: the platform allows ${max} test snapshots per organization in 5 minutes.`,
  /** The platform refused a snapshot for its limit after `made` were made. */
  evidenceStopped: (made: number, max: number) =>
    `Evidence links for the first ${made} outage(s) only: the platform allows ${max} test snapshots per organization in 5 minutes.`,
} as const;
