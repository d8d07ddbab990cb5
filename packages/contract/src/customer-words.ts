// Apart from the schemas (customers.ts): a customer's page shows these without loading the schema library.

/** The tools whose work a customer's page lists, in the order its filter offers them. */
export const TIMELINE_TOOLS = [
  'reports',
  'bulk',
  'alerts-migration',
  'backups',
  'restores',
  'dashboards',
  'waivers',
  'hours',
  'changes',
] as const;
export type TimelineTool = (typeof TIMELINE_TOOLS)[number];

export const TIMELINE_TOOL_LABELS: Record<TimelineTool, string> = {
  reports: 'Reports',
  bulk: 'Bulk runs',
  'alerts-migration': 'Alerts migrations',
  backups: 'Backups',
  restores: 'Restores',
  dashboards: 'Dashboard pushes',
  waivers: 'Waivers',
  hours: 'Hours logged',
  changes: 'Changes at the customer',
};

/**
 * The work "what we did" counts (the tools' runs): waivers, hours and the changes the watches found at the customer
 * are said apart in the header's line.
 */
export const WORK_TOOLS: readonly TimelineTool[] = TIMELINE_TOOLS.filter(
  (tool) => tool !== 'waivers' && tool !== 'hours' && tool !== 'changes',
);

/** Who made a change a watch found at the customer: us (our journal), the customer (the platform's audit log), or unknown. */
export const CHANGE_ACTORS = ['us', 'customer', 'unknown'] as const;
export type ChangeActorKind = (typeof CHANGE_ACTORS)[number];

/** The customer page's default period (this week) and the one a click away. */
export const OVERVIEW_DAYS = [7, 30] as const;

/** A customer's state on My customers, in the colour its row shows. */
export const CUSTOMER_STATES = ['red', 'amber', 'green'] as const;
export type CustomerState = (typeof CUSTOMER_STATES)[number];
export const CUSTOMER_STATE_LABELS: Record<CustomerState, string> = {
  red: 'Needs you now',
  amber: 'Keep an eye on',
  green: 'Fine',
};

/** A score's change in words, with a true minus sign: "−12", "+3". */
export const signedChange = (value: number) => (value < 0 ? `−${Math.abs(value)}` : `+${value}`);

/** The reasons of My customers' rows, in words. */
export const CUSTOMER_REASONS = {
  scoreChange: (change: number, since: string) => `score ${signedChange(change)} ${since}`,
  openFindings: (count: number, failing: number) =>
    `${count} open finding${count === 1 ? '' : 's'}${failing > 0 ? ` (${failing} failing)` : ''}`,
  paused: (count: number) => `${count} watch${count === 1 ? '' : 'es'} paused`,
  drift: (count: number) => `${count} change${count === 1 ? '' : 's'} at the customer since the backup before`,
  common: (checks: readonly string[]) => `common to 3 or more customers this week: ${checks.join(', ')}`,
  noRunYet: 'no run yet',
  fine: 'nothing open',
} as const;

/** How far back a customer's page looks, in days (its filter's choices). */
export const TIMELINE_DAYS = [7, 30, 90, 365] as const;
/** The most entries one answer holds (newest first). */
export const TIMELINE_LIMIT = 200;

/**
 * Whether a string has the shape of a platform bearer token: RFC 6750's token characters, at least as long as the
 * spec's shortest OAuth token (34 characters; the platform's are 36, "f537f4ac-2921-3199-bbab-d5a43f1c2b60").
 * The platform answers the same 401 to a revoked token and to anything else: the shape tells which it was.
 */
export const PLATFORM_TOKEN_MIN_LENGTH = 34;
export const looksLikePlatformToken = (token: string) =>
  token.length >= PLATFORM_TOKEN_MIN_LENGTH && /^[A-Za-z0-9\-._~+/]+=*$/.test(token);

/** The spec's words for a refused token (section 8), which every refusal below starts with. */
export const INVALID_OAUTH_TOKEN = 'Invalid OAuth token. Please check your token and try again.';

/** Why the platform would not take a token, in words: which of the three failures it was. */
export const TOKEN_REFUSALS = {
  notAToken: `${INVALID_OAUTH_TOKEN} This is not a token of the platform: a bearer token is ${PLATFORM_TOKEN_MIN_LENGTH} or more letters, digits and dashes, from Account Settings > Users and Roles > Profile > User API Tokens.`,
  revoked: `${INVALID_OAUTH_TOKEN} The platform knows no such token any more: it was revoked or has expired. Ask the customer's Org Admin for a new one.`,
  forbidden:
    'Forbidden - insufficient permissions: the platform accepted the token but refused it for this organization (its user may not use the API there).',
} as const;

/** A permission the switcher proves by a read, as the diagnostic tool names it. */
export const TOKEN_READS = [
  'View tests',
  'View agents',
  'View alert rules',
  'View dashboards',
  'View users',
  'View roles',
  'View activity log',
  'View usage and quotas',
] as const;
export type TokenRead = (typeof TOKEN_READS)[number];

/** What a token may do, proved by reads: whether it may write (null: not known) and what it cannot read. */
export interface TokenAbilityFacts {
  isOrgAdmin: boolean;
  canWrite: boolean | null;
  cannotRead: readonly string[];
}

/** A token's ability in words: a short label (beside the organization) and the sentence the switcher says. */
export function tokenAbilityWords({ isOrgAdmin, canWrite, cannotRead }: TokenAbilityFacts): {
  label: string;
  summary: string;
} {
  const missing = cannotRead.length > 0 ? ` It cannot read: ${cannotRead.join(', ')}.` : '';
  if (canWrite === null)
    return {
      label: 'write access unknown',
      summary: `Reports work; whether writing tools will be allowed is not known (the platform did not show the token's roles).${missing}`,
    };
  if (!canWrite)
    return cannotRead.length === TOKEN_READS.length
      ? { label: 'no access', summary: 'No access: reports and writing tools will be refused.' }
      : { label: 'read-only', summary: `read-only: reports work, writing tools will be refused.${missing}` };
  if (cannotRead.length > 0)
    return { label: 'limited', summary: `Limited: writing tools work, but some reads are refused.${missing}` };
  return isOrgAdmin
    ? { label: 'Org Admin', summary: 'Org Admin: reports and writing tools work.' }
    : { label: 'can write', summary: 'Reports and writing tools work.' };
}
