import {
  looksLikePlatformToken,
  TOKEN_REFUSALS,
  tokenAbilityWords,
  type TokenAbility,
  type TokenRead,
} from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';

/**
 * The read that proves each permission the switcher tells of, as the diagnostic tool proves it: the platform
 * answering 2xx is granted, 403 or 404 refused; anything else (a fault) is not counted against the token.
 */
const READS: readonly { name: TokenRead; path: string; query?: Record<string, string> }[] = [
  { name: 'View tests', path: 'tests' },
  { name: 'View agents', path: 'agents' },
  { name: 'View alert rules', path: 'alerts/rules' },
  { name: 'View dashboards', path: 'dashboards' },
  { name: 'View users', path: 'users' },
  { name: 'View roles', path: 'roles' },
  { name: 'View activity log', path: 'audit-user-events', query: { window: '1d' } },
  { name: 'View usage and quotas', path: 'usage' },
];

/**
 * A token's first read refused, said as which of the three it was: a 401 to something that has no token's shape
 * (the platform answers every 401 alike: the shape tells), a 401 to a token (revoked or expired), or a 403 (the
 * token is known but refused for the organization). Anything else is left to the caller.
 */
export function tokenRefusal(token: string, error: unknown): AppError | null {
  if (!(error instanceof PlatformError)) return null;
  if (error.status === 401)
    return new AppError(
      401,
      'invalid_platform_token',
      looksLikePlatformToken(token) ? TOKEN_REFUSALS.revoked : TOKEN_REFUSALS.notAToken,
    );
  if (error.status === 403) return new AppError(403, 'platform_forbidden', TOKEN_REFUSALS.forbidden);
  return null;
}

/**
 * What a token that the platform took may do, each permission proved by a read in its login account group (the
 * reads at once), and writing by the roles of `/users/current` (a role with management permissions), as the
 * diagnostic tool does. Nothing is written.
 */
export async function tokenAbility(platform: PlatformClient, token: string): Promise<TokenAbility> {
  const auth = { token };
  const [user, answers] = await Promise.all([
    platform
      .as(auth)
      .users.current()
      .catch(() => null),
    Promise.all(
      READS.map(async (read) => ({
        name: read.name,
        status: await platform.http
          .exchange(auth, platform.http.url(read.path, read.query ?? {}))
          .then((answer) => answer.status)
          .catch(() => 0),
      })),
    ),
  ]);
  const roles = (user?.accountGroupRoles ?? []).flatMap((entry) => entry.roles);
  const facts = {
    isOrgAdmin: roles.some((role) => role.name === 'Organization Admin'),
    canWrite: user ? roles.some((role) => role.hasManagementPermissions === true) : null,
    cannotRead: answers.filter((answer) => answer.status === 403 || answer.status === 404).map((answer) => answer.name),
  };
  return { ...facts, ...tokenAbilityWords(facts) };
}
