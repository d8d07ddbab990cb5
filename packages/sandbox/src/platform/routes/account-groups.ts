import type { FastifyInstance } from 'fastify';
import { problem, overLimit, queryOf, list, timeRange, paginate } from './http.js';
import type { RouteContext } from './context.js';

/** Account groups, users, roles and the audit log. */
export function accountGroupRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/account-groups', async (request, reply) => {
    const { org, group, serializer } = caller(request);
    const groups = state.world.accountGroups.filter((candidate) => candidate.orgId === org.orgId);
    return hal(reply).send({
      accountGroups: groups.map((item) => serializer.accountGroup(item, group.aid)),
      _links: { self: serializer.link('/account-groups') },
    });
  });

  app.get<{ Params: { id: string } }>('/account-groups/:id', async (request, reply) => {
    const { org, group, serializer } = caller(request);
    const target = state.world.accountGroups.find(
      (candidate) => candidate.aid === request.params.id && candidate.orgId === org.orgId,
    );
    if (!target) return problem(reply, 404, 'Not Found', `Account group ${request.params.id} not found`);
    const expand = list(queryOf(request).expand);
    return hal(reply).send({
      ...serializer.accountGroup(target, group.aid),
      ...(expand.includes('user')
        ? {
            // Each user with their roles in this account group (the v7 document's expanded users carry `roles`).
            users: state.world.users
              .filter((user) => user.roleIdsByAid[target.aid])
              .map((user) => ({
                ...serializer.user(user, false),
                roles: (user.roleIdsByAid[target.aid] ?? []).map((roleId) => serializer.role(roleId)),
              })),
          }
        : {}),
      ...(expand.includes('agent')
        ? {
            agents: state.world.agents
              .filter((agent) => agent.aids.includes(target.aid))
              .map((agent) => serializer.agent(agent)),
          }
        : {}),
      _links: { self: serializer.link(`/account-groups/${target.aid}`) },
    });
  });

  app.get('/users', async (request, reply) => {
    const { org, serializer } = caller(request);
    const users = state.world.users.filter((user) => user.orgId === org.orgId);
    return hal(reply).send({
      users: users.map((user) => serializer.user(user, false)),
      _links: { self: serializer.link('/users') },
    });
  });

  app.get('/users/current', async (request, reply) => {
    const { org, serializer, token } = caller(request);
    const admin = state.world.users.find((user) => user.orgId === org.orgId);
    if (!admin) return problem(reply, 404, 'Not Found');
    if (token.kind !== 'read-only') return hal(reply).send(serializer.user(admin, true));
    // The read-only token belongs to an auditor who is a Read Only User in every account group.
    const groups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    return hal(reply).send(
      serializer.user(
        {
          ...admin,
          uid: `${org.orgId}-auditor`,
          name: 'Read-only Auditor',
          email: `auditor@${org.orgId}.example`,
          roleIdsByAid: Object.fromEntries(groups.map((group) => [group.aid, ['4']])),
        },
        true,
      ),
    );
  });

  app.get<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    const { org, serializer } = caller(request);
    const user = state.world.users.find(
      (candidate) => candidate.uid === request.params.id && candidate.orgId === org.orgId,
    );
    if (!user) return problem(reply, 404, 'Not Found', `User ${request.params.id} not found`);
    return hal(reply).send(serializer.user(user, true));
  });

  app.post('/users', async (request, reply) => {
    const { org, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.users.filter((user) => user.orgId === org.orgId).length,
      'users',
      'organization',
    );
    if (full) return full;
    const body = (request.body ?? {}) as {
      name?: unknown;
      email?: unknown;
      loginAccountGroupId?: unknown;
      accountGroupRoles?: unknown;
    };
    const errors = [];
    if (typeof body.name !== 'string' || !body.name.trim())
      errors.push({ code: 'REQUIRED', field: 'name', message: 'name is required' });
    if (typeof body.email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email))
      errors.push({ code: 'INVALID', field: 'email', message: 'email must be a valid address' });
    const roles = Array.isArray(body.accountGroupRoles)
      ? (body.accountGroupRoles as { accountGroupId?: string; roleIds?: string[] }[])
      : [];
    if (roles.length === 0)
      errors.push({
        code: 'REQUIRED',
        field: 'accountGroupRoles',
        message: 'at least one account group role is required',
      });
    for (const entry of roles) {
      if (!state.world.accountGroups.some((group) => group.aid === entry.accountGroupId && group.orgId === org.orgId)) {
        errors.push({
          code: 'INVALID',
          field: 'accountGroupRoles.accountGroupId',
          message: `account group ${String(entry.accountGroupId)} not found`,
        });
      }
    }
    if (
      typeof body.email === 'string' &&
      state.world.users.some((user) => user.email === body.email?.toString().toLowerCase())
    ) {
      errors.push({ code: 'DUPLICATE', field: 'email', message: 'a user with this email already exists' });
    }
    if (errors.length)
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
    const login =
      typeof body.loginAccountGroupId === 'string' ? body.loginAccountGroupId : (roles[0]?.accountGroupId ?? '');
    const user = {
      uid: state.newId(),
      orgId: org.orgId,
      name: String(body.name),
      email: String(body.email).toLowerCase(),
      dateRegistered: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      loginAid: login,
      roleIdsByAid: Object.fromEntries(roles.map((entry) => [entry.accountGroupId ?? '', entry.roleIds ?? []])),
    };
    state.world.users.push(user);
    reply.header('Location', serializer.link(`/users/${user.uid}`).href);
    return hal(reply).status(201).send(serializer.user(user, true));
  });

  app.get('/roles', async (request, reply) => {
    const { serializer } = caller(request);
    return hal(reply).send({
      roles: state.world.roles.map((role) => ({
        ...serializer.role(role.roleId),
        _links: { self: serializer.link(`/roles/${role.roleId}`) },
      })),
      _links: { self: serializer.link('/roles') },
    });
  });

  app.get<{ Params: { id: string } }>('/roles/:id', async (request, reply) => {
    const { serializer } = caller(request);
    const role = state.world.roles.find((candidate) => candidate.roleId === request.params.id);
    if (!role) return problem(reply, 404, 'Not Found', `Role ${request.params.id} not found`);
    return hal(reply).send({
      roleId: role.roleId,
      name: role.name,
      isBuiltin: role.isBuiltin,
      permissions: role.permissions,
      _links: { self: serializer.link(`/roles/${role.roleId}`) },
    });
  });

  app.get('/audit-user-events', async (request, reply) => {
    const { org, group, serializer } = caller(request);
    const range = timeRange(request, worldNow(), 1);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    const all = queryOf(request).useAllPermittedAids === 'true';
    const orgAids = new Set(
      state.world.accountGroups.filter((candidate) => candidate.orgId === org.orgId).map((candidate) => candidate.aid),
    );
    const events = state.world.auditEvents.filter((event) => {
      const at = Date.parse(event.date);
      return (all ? orgAids.has(event.aid) : event.aid === group.aid) && at >= range[0] && at <= range[1];
    });
    const page = paginate(request, events, 100, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    const groupName = (aid: string) =>
      state.world.accountGroups.find((candidate) => candidate.aid === aid)?.accountGroupName ?? '';
    return hal(reply).send({
      auditEvents: page.items.map((event) => ({ ...event, accountGroupName: groupName(event.aid) })),
      startDate: new Date(range[0]).toISOString(),
      endDate: new Date(range[1]).toISOString(),
      _links: page.links,
    });
  });
}
