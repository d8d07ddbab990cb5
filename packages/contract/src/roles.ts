/**
 * Roles and the one role matrix of the product (spec section 6).
 *
 * The role is the signed-in user's `locale` value; a user without a locale has the role `User`.
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

/** Roles that carry a badge beside the welcome text in the navbar. */
export const BADGE_ROLES: readonly Role[] = ['Super User', 'TAM', 'ProServ'];

const HEALTH_CHECK_ROLES: readonly Role[] = ['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO', 'Engineering'];
const REPORTING_ROLES: readonly Role[] = ['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO'];
const SUPPORT_ROLES: readonly Role[] = ['Super User', 'Support', 'T3', 'TAM'];

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
  manageUsers: ['Super User'] as readonly Role[],
} as const satisfies Record<string, 'public' | 'signedIn' | readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

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

/** The AHC-IE alpha report is offered only when the locale contains "Super User" (spec section 6). */
export function localeAllowsAhcIe(locale: string | null | undefined): boolean {
  return (locale ?? '').toLowerCase().includes('super user');
}
