/**
 * What a customer review pack says, section by section, in the words and names a customer knows: no internal ids,
 * no account-group keys, only what the toolkit measured and did for the period up to the cut-off. Every section says
 * where its figures came from and up to when; a part that could not be determined holds the reason instead of a
 * number, so a missing permission or a period before the first watch run is said, never shown as zero.
 *
 * The value is plain data (JSON): the pack is stored as it was built, and the deck and its PDF are drawn from it.
 */

/** A part that could not be determined, and why ("the token lacks the View Billing permission"). */
export interface Unknown {
  unknown: string;
}
/** A figure, or why it could not be determined. */
export type Figure = number | Unknown;
/** A section's content, or why none of it could be determined. */
export type Known<T> = T | Unknown;

export const isUnknown = (value: unknown): value is Unknown =>
  typeof value === 'object' && value !== null && 'unknown' in value && typeof value.unknown === 'string';

/** The words a reader sees for a part that could not be determined. */
export const unknownText = (value: Unknown) => `Could not be determined: ${value.unknown}`;

/** Where a section's figures came from ("Account Watch runs", "the platform's Internet Insights") and up to when. */
export interface SectionSource {
  source: string;
  /** ISO-8601 UTC: nothing after this moment is counted, so the figures reproduce. */
  cutOff: string;
}

export interface Section<T> extends SectionSource {
  content: Known<T>;
}

/** One of the customer's key tests, week by week (null: no round that week). */
export interface KeyTestWeeks {
  test: string;
  /** Percent of rounds without an error, per week of `weeks`. */
  availability: (number | null)[];
  /** Average latency or response time in milliseconds, per week. */
  latencyMs: (number | null)[];
  /** Below the customer's target: proposed as one of the worst. */
  belowTarget?: boolean;
}

export interface ReviewPack {
  /** The customer as they call themselves (the platform organization's name). */
  customer: string;
  /** "Q3 2026", "October 2026", or the dates. */
  periodLabel: string;
  /** The period covered, ISO-8601 UTC, `from` included and `to` excluded. */
  from: string;
  to: string;
  /** The moment the pack's figures were taken: recorded with the pack so they reproduce. */
  cutOff: string;
  /** The TAM who prepared it, by name. */
  preparedBy: string;
  executiveSummary: Section<{
    /** The customer's goals for the period, as the TAM wrote them. */
    goals?: string[];
    /** The top outcomes and the top actions, in words (at most three each). */
    outcomes: string[];
    actions: string[];
  }>;
  units: Section<{
    included: Figure;
    used: Figure;
    projected: Figure;
    /** The forecast to the term's end, and that end (ISO date). */
    forecastToTermEnd: Figure;
    termEnd: string;
    /** Units used per month or week of the period. */
    trend: { label: string; used: number }[];
    largestConsumers: { test: string; units: number }[];
  }>;
  availability: Section<{
    weeks: string[];
    /** The customer's target, percent. */
    targetPercent: number;
    tests: KeyTestWeeks[];
  }>;
  alerts: Section<{
    weeks: string[];
    /** Alerts triggered per week (null: no watch run stands for that week). */
    volume: (number | null)[];
    noisiestRules: { rule: string; alerts: number }[];
    /** Rules with no alert that started in the period (one still active from before is not new). */
    silentRules: string[];
    /** Median time from trigger to clear, minutes. */
    medianMinutesToClear: Figure;
  }>;
  outages: Section<{
    /** Internet Insights outages that touched the customer's tests. */
    outages: { start: string; end?: string; provider: string; tests: string[]; evidenceUrl?: string }[];
    /** The platform's events on the customer's tests. */
    events: { start: string; end?: string; type: string; severity: string; tests: string[] }[];
    /** What the section leaves out and why (evidence links past the platform's snapshot limit). */
    notes?: string[];
  }>;
  agents: Section<{
    /** `lastSeen` is '' where the platform gives none. */
    offline: { agent: string; lastSeen: string }[];
    outdated: { agent: string; problem: string }[];
  }>;
  changes: Section<{
    activeUsers: Figure;
    byPerson: { person: string; changes: number; what: string }[];
  }>;
  health: Section<{
    /** The health score at each check of the period (0 to 100). */
    points: { label: string; score: number }[];
    /** What moved it, in words. */
    movers: string[];
  }>;
  teamWork: Section<{
    /** "Watch runs", "Restores", "Migrations", "Tests created". */
    items: { what: string; count: number }[];
    hours: Figure;
  }>;
  recommendations: Section<{
    /** `due` is an ISO date, or '' when none was set. */
    items: { recommendation: string; owner: string; due: string }[];
  }>;
}

/** The sections of a pack, in the order a deck shows them, with their headings. */
export const SECTION_TITLES = {
  executiveSummary: 'Executive summary',
  units: 'Units used and projected',
  availability: 'Availability of key tests, week over week',
  alerts: 'Alerts',
  outages: 'Outages and events',
  agents: 'Agents',
  changes: 'Who changed what',
  health: 'Health trend',
  teamWork: 'What the team did',
  recommendations: 'Recommendations',
} as const satisfies Record<string, string>;
export type SectionKey = keyof typeof SECTION_TITLES;
