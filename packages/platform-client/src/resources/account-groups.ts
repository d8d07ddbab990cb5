import { z } from 'zod';
import {
  accountGroupSchema,
  accountGroupsResponseSchema,
  agentSchema,
  auditEventSchema,
  roleDetailSchema,
  roleSchema,
  userSchema,
} from '../schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

/** The one organization an account groups answer names (none when it names several, or none). */
function organizationOf(body: unknown): string | undefined {
  const parsed = accountGroupsResponseSchema.safeParse(body);
  const ids = new Set(parsed.success ? parsed.data.accountGroups.map((group) => group.orgId) : []);
  const [only] = ids;
  return ids.size === 1 ? only : undefined;
}

export const accountGroups = (caller: Caller) => ({
  list: async (signal?: AbortSignal) =>
    (await caller.request(accountGroupsResponseSchema, 'account-groups', 'account groups', { signal, organizationOf }))
      .accountGroups,
  get: (aid: string, expand: ('user' | 'agent')[] = [], signal?: AbortSignal) =>
    caller.request(
      accountGroupSchema.extend({ users: z.array(userSchema).optional(), agents: z.array(agentSchema).optional() }),
      `account-groups/${encodeURIComponent(aid)}`,
      'account group',
      { query: expand.length ? { expand } : {}, signal },
    ),
});

export const users = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list('users', userSchema, 'users', 'users', { aid, signal }),
  get: (uid: string, aid?: string, signal?: AbortSignal) =>
    caller.request(userSchema, `users/${encodeURIComponent(uid)}`, 'user', { aid, signal }),
  current: (signal?: AbortSignal) => caller.request(userSchema, 'users/current', 'current user', { signal }),
  invite: (
    body: {
      name: string;
      email: string;
      loginAccountGroupId: string;
      accountGroupRoles: { accountGroupId: string; roleIds: string[] }[];
    },
    aid?: string,
  ) => caller.request(userSchema, 'users', 'new user', { method: 'POST', body, aid }),
});

export const roles = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list('roles', roleSchema, 'roles', 'roles', { aid, signal }),
  /** One role with its permissions. */
  get: (roleId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(roleDetailSchema, `roles/${encodeURIComponent(roleId)}`, 'role', { aid, signal }),
});

export const auditUserEvents = (caller: Caller) => ({
  list: (options: { aid?: string; range?: TimeRange; useAllPermittedAids?: boolean; signal?: AbortSignal } = {}) =>
    caller.paginate('audit-user-events', 'auditEvents', auditEventSchema, {
      aid: options.aid,
      query: { ...rangeQuery(options.range), useAllPermittedAids: options.useAllPermittedAids },
      signal: options.signal,
    }),
});
