import { z } from 'zod';
import { CAPABILITIES, can, type Capability, type Role } from './roles.js';

/**
 * Personal API tokens: what a script sends as `Authorization: Bearer <token>` to act as its user, within a
 * subset of the user's capabilities, without a browser session (and without CSRF, which guards cookies).
 */
export const API_TOKEN_PREFIX = 'cet_';
/** The longest life a token may be given unless the server is configured otherwise (API_TOKEN_MAX_DAYS). */
export const API_TOKEN_DEFAULT_MAX_DAYS = 90;
export const API_TOKEN_NAME_MAX = 80;

/** Capabilities a token can carry: those that name roles (a token is always signed in; nothing is public). */
export const GRANTABLE_CAPABILITIES = (Object.keys(CAPABILITIES) as Capability[]).filter(
  (capability) => CAPABILITIES[capability] !== 'public' && CAPABILITIES[capability] !== 'signedIn',
);

/** What a user may give a token: the grantable capabilities their role holds. */
export const grantableFor = (role: Role): Capability[] =>
  GRANTABLE_CAPABILITIES.filter((capability) => can(role, capability));

const capabilitySchema = z.enum(GRANTABLE_CAPABILITIES as [Capability, ...Capability[]]);

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
  capabilities: z.array(capabilitySchema).min(1, 'Choose at least one capability'),
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
  grantable: z.array(capabilitySchema),
});
export type ApiTokenSettings = z.infer<typeof apiTokenSettingsSchema>;

/** What each capability lets a token do, in the words Settings shows. */
export const CAPABILITY_LABELS: Record<Capability, string> = {
  public: 'Public pages',
  signedIn: 'Signed-in pages',
  healthCheck: 'Health checks',
  reporting: 'Reports',
  tools: 'Tools: bulk, alerts migration, backups, dashboards, time tracker',
  support: 'Support tools',
  customerToken: "Read a customer's account groups",
  ahcIe: 'AHC-IE report',
  seeAllRuns: "Everyone's reports and runs",
  reviewDashboards: 'Review community dashboards',
  apiWrites: 'API explorer writes',
  manageUsers: 'Manage users',
  proServHours: 'File hours as Professional Services',
};
