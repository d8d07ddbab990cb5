import { PlatformError, type PlatformSession, type PlatformUser } from '@ce/platform-client';
import { EDIT_RULES, EDIT_WINDOWS } from './actions.js';

/** One kind of write a plan makes into one account group, and the token that makes it. */
export interface PlannedWrite {
  session: PlatformSession;
  /** The token in words: "The token", "The target organization's token". */
  token: string;
  aid: string;
  accountGroupName: string;
  /** The platform permission the write needs, as a role's detail labels it ("Edit alert rules"). */
  permission: string;
}

/**
 * An id no rule or window has: a PUT of an empty body to it can change nothing (nothing is there, and the
 * body would be refused anyway). The platform refuses it with 403 when the user may not write.
 */
const NO_SUCH_ID = '0';
const PROBES: Record<string, (session: PlatformSession, aid: string) => Promise<unknown>> = {
  [EDIT_RULES]: (session, aid) => session.alertRules.update(NO_SUCH_ID, {}, aid),
  [EDIT_WINDOWS]: (session, aid) => session.alertSuppressionWindows.update(NO_SUCH_ID, {}, aid),
};

/** A read the platform may not answer (a user without management permissions may not see roles): null. */
const unread = <T>(read: Promise<T>) => read.catch(() => null);

/** What one token's user may do, each read once: the user and its roles, and what each role permits. */
class TokenAccess {
  private user: Promise<PlatformUser | null> | undefined;
  private readonly roles = new Map<string, Promise<string[] | null>>();

  constructor(private readonly session: PlatformSession) {}

  currentUser(): Promise<PlatformUser | null> {
    this.user ??= unread(this.session.users.current());
    return this.user;
  }

  /** The permissions the user's roles give in a group, by label; null when the platform does not show them. */
  async permissionsIn(aid: string): Promise<Set<string> | null> {
    const roleIds = ((await this.currentUser())?.accountGroupRoles ?? [])
      .filter((entry) => entry.accountGroup.aid === aid)
      .flatMap((entry) => entry.roles.map((role) => role.roleId));
    const labels = await Promise.all(roleIds.map((roleId) => this.permissionsOf(roleId, aid)));
    if (roleIds.length === 0 || labels.some((each) => each === null)) return null;
    return new Set(labels.flatMap((each) => each ?? []));
  }

  private permissionsOf(roleId: string, aid: string): Promise<string[] | null> {
    let permissions = this.roles.get(roleId);
    if (!permissions) {
      permissions = unread(
        this.session.roles.get(roleId, aid).then((role) => role.permissions.map((each) => each.label)),
      );
      this.roles.set(roleId, permissions);
    }
    return permissions;
  }
}

/**
 * Whether each token may make the plan's writes, said before anything is written: the token's user's roles
 * in the group (`GET /users/current`) and what each role permits (`GET /roles/{id}`). When the platform does
 * not show them, a write that changes nothing answers instead (see NO_SUCH_ID). One problem in words per
 * token, group and permission refused; none when every write may go ahead.
 */
export async function writeProblems(writes: PlannedWrite[]): Promise<string[]> {
  const tokens = new Map<PlatformSession, { access: TokenAccess; writes: Map<string, PlannedWrite> }>();
  for (const write of writes) {
    const token = tokens.get(write.session) ?? { access: new TokenAccess(write.session), writes: new Map() };
    token.writes.set(`${write.aid}\u0000${write.permission}`, write);
    tokens.set(write.session, token);
  }
  const problems = await Promise.all(
    [...tokens.values()].flatMap(({ access, writes: distinct }) =>
      [...distinct.values()].map(async (write) => {
        const where = `${write.token} cannot write into ${write.accountGroupName}`;
        const permissions = await access.permissionsIn(write.aid);
        if (permissions) {
          if (permissions.has(write.permission)) return null;
          const name = (await access.currentUser())?.name;
          return `${where}: its user${name ? ` (${name})` : ''} lacks the "${write.permission}" permission there.`;
        }
        const probe = PROBES[write.permission];
        const answer = probe ? await probe(write.session, write.aid).catch((error: unknown) => error) : null;
        return answer instanceof PlatformError && answer.status === 403
          ? `${where}: the platform refused a write that changes nothing (the "${write.permission}" permission is needed).`
          : null;
      }),
    ),
  );
  return problems.filter((problem): problem is string => problem !== null);
}
