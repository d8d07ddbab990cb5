import { z } from 'zod';
import { CAPABILITIES, can, SESSION_ONLY_CAPABILITIES, type Capability, type Role } from './roles.js';

/**
 * Personal API tokens: what a script sends as `Authorization: Bearer <token>` to act as its user, within a
 * subset of the user's capabilities, without a browser session (and without CSRF, which guards cookies).
 */
export const API_TOKEN_PREFIX = 'cet_';
/** The longest life a token may be given unless the server is configured otherwise (API_TOKEN_MAX_DAYS). */
export const API_TOKEN_DEFAULT_MAX_DAYS = 90;
export const API_TOKEN_NAME_MAX = 80;

/**
 * Capabilities a token can carry: those that name roles (a token is always signed in; nothing is public), but
 * not the session-only ones (managing users), nor `proServHours`, a trait of the role (how the time tracker
 * files its hours) that lets nobody do anything.
 */
export const GRANTABLE_CAPABILITIES = (Object.keys(CAPABILITIES) as Capability[]).filter(
  (capability) =>
    CAPABILITIES[capability] !== 'public' &&
    CAPABILITIES[capability] !== 'signedIn' &&
    !SESSION_ONLY_CAPABILITIES.includes(capability) &&
    capability !== 'proServHours',
);

/** What a user may give a token: the grantable capabilities their role holds. */
export const grantableFor = (role: Role): Capability[] =>
  GRANTABLE_CAPABILITIES.filter((capability) => can(role, capability));

const grantableSchema = z.enum(GRANTABLE_CAPABILITIES as [Capability, ...Capability[]], {
  error: (issue) => API_TOKEN_MESSAGES.notGrantable(issue.input),
});
/** What a token's row holds: a token made before a capability stopped being grantable still shows it. */
const capabilitySchema = z.enum(Object.keys(CAPABILITIES) as [Capability, ...Capability[]]);

export const apiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the secret, to tell tokens apart: never enough to use it. */
  hint: z.string(),
  capabilities: z.array(capabilitySchema),
  owner: z.object({ id: z.string(), email: z.string() }),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  /** Why a revoked token was revoked: by whom, or the account change that ended it. */
  revokedReason: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });

export const createApiTokenSchema = z.object({
  name: z.string().trim().min(1, 'Give the token a name').max(API_TOKEN_NAME_MAX),
  /** Days until it expires; at most the server's API_TOKEN_MAX_DAYS. */
  expiresInDays: z.number().int().min(1),
  capabilities: z.array(grantableSchema).min(1, 'Choose at least one capability'),
});
export type CreateApiToken = z.infer<typeof createApiTokenSchema>;

export const createdApiTokenSchema = z.object({
  token: apiTokenSchema,
  /** The token itself: shown once, stored only as its hash. */
  secret: z.string(),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const apiTokenSettingsSchema = z.object({
  maxDays: z.number().int(),
  grantable: z.array(grantableSchema),
});
export type ApiTokenSettings = z.infer<typeof apiTokenSettingsSchema>;

/**
 * Each capability's name, as Settings shows it beside its checkbox and as a refusal names it ("This token does
 * not carry Reports.").
 */
export const CAPABILITY_LABELS: Record<Capability, string> = {
  public: 'Public pages',
  signedIn: 'Signed-in pages',
  healthCheck: 'Health checks',
  reporting: 'Reports',
  tools: 'Tools',
  support: 'Support tools',
  customerToken: 'Customer account groups',
  ahcIe: 'AHC-IE report',
  seeAllRuns: "Everyone's reports and runs",
  reviewDashboards: 'Community dashboard reviews',
  apiWrites: 'API explorer writes',
  manageUsers: 'User management',
  proServHours: 'Professional Services hours',
};

/**
 * What each capability lets a script do, exactly: the operations it opens (contract `OPERATION_ACCESS`) and
 * the report kinds it requests and reads (`REPORT_KINDS`), in the words Settings shows under its name.
 */
export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  public: 'Pages anyone may open.',
  signedIn: 'What every signed-in user may do.',
  healthCheck:
    "Request AHC v6 and AHC v7 health checks, and list, read and download their reports (the original te-health/{id} call too); read a customer's measured trends and the fleet summary; preview and build review packs and keep their narrative; see, make and end waivers of findings.",
  reporting:
    'Request the configuration, alerts, closure, TAM activity and maintenance window reports, and list, read and download them (the original te-health/{id} call too).',
  tools:
    "Use bulk operations, alerts migration, backup and restore, dashboards, the time tracker and the API explorer's reads: start and undo their runs; list, read and download their runs, results files, backups and Dashboard Reports.",
  support: 'Analyze, list, download and share packet captures; run, download and send diagnostics.',
  customerToken: "List the account groups a customer's token sees: the first step of every tool.",
  ahcIe: 'Request the AHC-IE report, and list, read and download it.',
  seeAllRuns:
    "Read everyone's reports, runs, backups and captures, not only yours, within the other capabilities the token carries.",
  reviewDashboards: 'Approve or reject community dashboards.',
  apiWrites: 'Send writes (POST, PUT, PATCH, DELETE) through the API explorer; its reads need Tools.',
  manageUsers: 'Invite users, change or disable them, and read the audit log: in a signed-in session only.',
  proServHours: 'Hours filed in the time tracker are filed as Professional Services: a trait of the role.',
};

/** Capabilities by their Settings names, as a sentence lists them: "Health checks, Reports or Tools". */
const named = (capabilities: readonly Capability[], conjunction: 'and' | 'or') => {
  const names = capabilities.map((capability) => CAPABILITY_LABELS[capability]);
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
};

export const API_TOKEN_MESSAGES = {
  /** An operation only a signed-in session may call, reached with a token. */
  sessionOnly: 'Sign in to do this: personal API tokens cannot manage users, sessions, passwords or tokens.',
  /** The role holds what is needed and the token does not carry it: named as Settings names it. */
  notCarried: (capabilities: readonly Capability[]) => `This token does not carry ${named(capabilities, 'or')}.`,
  /** A capability asked for a token that the role does not hold. */
  notHeld: (capabilities: readonly Capability[]) => `Your role does not hold ${named(capabilities, 'and')}.`,
  /** A capability no token may carry. */
  notGrantable: (capability: unknown) =>
    SESSION_ONLY_CAPABILITIES.includes(capability as Capability)
      ? `A personal API token cannot carry ${CAPABILITY_LABELS[capability as Capability]}: only a signed-in session may.`
      : `A personal API token cannot carry "${String(capability)}".`,
};
