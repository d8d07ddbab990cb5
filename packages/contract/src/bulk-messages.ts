/**
 * The bulk tools' words, in a module without zod: the web app's first script (the query client's error
 * toasts) takes them from here and so does not bring the schema library with it (test/login-script.test.ts).
 */

/** What a change set that the platform refused the token of says (the spec's words for the bulk tools). */
export const PLATFORM_TOKEN_REFUSED =
  'The provided OAuth token is invalid or has expired. Please check your credentials.';

/**
 * What a tool says when the platform refused the second organization's token of a request (a migration's or a
 * restore's target), answered as `invalid_target_token`: the customer chosen in the header is not the one refused.
 */
export const TARGET_TOKEN_REFUSED =
  "The platform refused the target organization's token (revoked or expired). Paste a new token of the target organization.";

/** Spec section 5 and 8 wording for the bulk tools. */
export const BULK_MESSAGES = {
  tokenRequired: 'Please provide a valid OAuth token',
  groupsRequired: 'Please select at least one account group',
  templateRequired: 'At least one test template is required',
  formIncomplete: 'Please complete all test configurations',
  invalidToken: PLATFORM_TOKEN_REFUSED,
  invalidTokenTitle: 'Authentication Failed',
  groupsUnauthorized: 'Invalid OAuth token. Please check your credentials.',
  groupsUnauthorizedTitle: 'Unauthorized',
  noGroups: 'No account groups found',
  groupsFailed: 'Failed to load account groups',
  agentsFailed: 'Failed to load agents',
  noAgents: 'No agents found for the selected account group',
  createFailed: 'Failed to create test',
  allCreated: (n: number) => `All ${n} ${n === 1 ? 'test' : 'tests'} created successfully!`,
  someCreated: (s: number, n: number) => `${s}/${n} ${n === 1 ? 'test' : 'tests'} created successfully`,
  someCreatedTitle: 'Partial Success',
  noneCreated: 'Failed to create any tests',
  agentTokenTooShort: 'The OAuth token must be at least 10 characters',
  agentsToDeleteRequired: 'Select at least one agent to delete',
} as const;
