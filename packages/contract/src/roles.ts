/**
 * Roles and the one role matrix of the product (spec section 6).
 *
 * The role is the signed-in user's `locale` value (the original kept it in the identity pool's `locale`
 * attribute, and SSO providers send it in that claim); a user without a locale has the role `User`.
 * No role name appears in a rule anywhere else: code asks `can(role, capability)`.
 * The web menu, the web route guard and the server's require-role hook all read {@link CAPABILITIES},
 * so a permission is changed in exactly one place.
 */
export const ROLES = [
  'Super User',
  'ProServ',
  'TAM',
  'Adoption',
  'PMO',
  'Engineering',
  'Support',
  'T3',
  'User',
] as const;

export type Role = (typeof ROLES)[number];

export const DEFAULT_ROLE: Role = 'User';

/** Roles that carry a badge beside the welcome text in the navbar (spec section 2), with the badge's tone. */
export const ROLE_BADGES: Partial<Record<Role, 'purple' | 'sky' | 'amber'>> = {
  'Super User': 'purple',
  TAM: 'sky',
  ProServ: 'amber',
};

const HEALTH_CHECK_ROLES: readonly Role[] = ['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO', 'Engineering'];
const REPORTING_ROLES: readonly Role[] = ['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO'];
const SUPPORT_ROLES: readonly Role[] = ['Super User', 'Support', 'T3', 'TAM'];
const SUPER_USER: readonly Role[] = ['Super User'];
const PROSERV: readonly Role[] = ['ProServ'];
/** Every role that uses a customer's token in some tool (reports, bulk tools, support tools). */
const CUSTOMER_TOKEN_ROLES: readonly Role[] = [
  ...new Set([...HEALTH_CHECK_ROLES, ...REPORTING_ROLES, ...SUPPORT_ROLES]),
];

/**
 * What a caller may do. `public` needs no session; `signedIn` any session; the others list roles.
 * Keys are named after what they allow, not after a screen, so server operations can share them.
 */
export const CAPABILITIES = {
  public: 'public',
  signedIn: 'signedIn',
  healthCheck: HEALTH_CHECK_ROLES,
  reporting: REPORTING_ROLES,
  tools: REPORTING_ROLES,
  support: SUPPORT_ROLES,
  /** Reading the account groups a customer's token sees: every tool that takes a token starts there. */
  customerToken: CUSTOMER_TOKEN_ROLES,
  /** The AHC-IE alpha report (spec section 6). */
  ahcIe: SUPER_USER,
  /** Everyone's reports and bulk runs, not only one's own. */
  seeAllRuns: SUPER_USER,
  /** Approving or rejecting community dashboards (the spec shows no approver; decision 0018). */
  reviewDashboards: SUPER_USER,
  /** Writes (POST, PUT, PATCH, DELETE) through the API explorer; reads are the Tools group's. */
  apiWrites: SUPER_USER,
  manageUsers: SUPER_USER,
  /** The time tracker files this role's hours as Professional Services ('PS'); everyone else's as 'TAM'. */
  proServHours: PROSERV,
} as const satisfies Record<string, 'public' | 'signedIn' | readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

/**
 * Capabilities used only in a signed-in browser session, never through a personal API token, whatever it
 * carries: managing users (a token could otherwise make an account, with its temporary password, that
 * outlives the token). The access check refuses every operation they guard to a token (decision 0026).
 */
export const SESSION_ONLY_CAPABILITIES: readonly Capability[] = ['manageUsers'];

/**
 * Turns a stored locale into a role. Unknown or empty locales become `User`; a locale that
 * contains one of the role names (for example "Super User; TAM") takes the first role it names.
 */
export function roleFromLocale(locale: string | null | undefined): Role {
  const value = (locale ?? '').trim();
  if (value === '') return DEFAULT_ROLE;
  const exact = ROLES.find((role) => role.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const contained = ROLES.find((role) => role !== 'User' && value.toLowerCase().includes(role.toLowerCase()));
  return contained ?? DEFAULT_ROLE;
}

/** Whether a role (or no session, `null`) holds a capability. */
export function can(role: Role | null, capability: Capability): boolean {
  const rule = CAPABILITIES[capability];
  if (rule === 'public') return true;
  if (role === null) return false;
  if (rule === 'signedIn') return true;
  return rule.includes(role);
}

/**
 * Whether a signed-in caller may use a capability: their role holds it and, for a script using a personal
 * API token, the token carries it too. Services ask this, never the role alone, so a token stays within
 * what it was given wherever an operation checks a second capability (a report kind, everyone's runs).
 */
export function userMay(
  user: { role: Role; apiToken?: { capabilities: readonly string[] } },
  capability: Capability,
): boolean {
  const rule = CAPABILITIES[capability];
  if (!can(user.role, capability)) return false;
  return rule === 'public' || rule === 'signedIn' || !user.apiToken || user.apiToken.capabilities.includes(capability);
}

/** The AHC-IE alpha report is offered only when the locale contains "Super User" (spec section 6). */
export function localeAllowsAhcIe(locale: string | null | undefined): boolean {
  return (locale ?? '').toLowerCase().includes('super user');
}

/** The demo accounts of the embedded default, one per role (demo mode only). */
export const DEMO_ACCOUNTS: readonly { email: string; name: string; role: Role }[] = [
  { email: 'superuser@demo.local', name: 'Sam Super', role: 'Super User' },
  { email: 'proserv@demo.local', name: 'Priya ProServ', role: 'ProServ' },
  { email: 'tam@demo.local', name: 'Taylor TAM', role: 'TAM' },
  { email: 'adoption@demo.local', name: 'Alex Adoption', role: 'Adoption' },
  { email: 'pmo@demo.local', name: 'Pat PMO', role: 'PMO' },
  { email: 'engineering@demo.local', name: 'Erin Engineering', role: 'Engineering' },
  { email: 'support@demo.local', name: 'Sasha Support', role: 'Support' },
  { email: 't3@demo.local', name: 'Toni T3', role: 'T3' },
  { email: 'user@demo.local', name: 'Uma User', role: 'User' },
];
