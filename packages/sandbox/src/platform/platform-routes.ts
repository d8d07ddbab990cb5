import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../bounded.js';
import type { AccountGroup, Dashboard, Organization, Test, TestType, Token, Widget } from './model.js';
import { Serializer } from './serialize.js';
import type { PlatformState } from './state.js';

declare module 'fastify' {
  interface FastifyRequest {
    sandboxCaller?: { token: Token; org: Organization; group: AccountGroup; serializer: Serializer };
  }
}

const TEST_TYPES: TestType[] = ['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'];
const INTERVALS = [60, 120, 300, 600, 900, 1800, 3600];
const ADMIN_PATHS = [/^\/users/, /^\/roles/, /^\/audit-user-events/, /^\/usage/, /^\/quotas/];
const DAY_MS = 86_400_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A problem+json answer, the platform's error shape for 4xx/5xx other than 401. */
function problem(reply: FastifyReply, status: number, title: string, detail?: string, errors?: unknown[]) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send({
      type: `https://developer.cisco.com/docs/thousandeyes/errors/#${status}`,
      title,
      status,
      detail: detail ?? title,
      instance: reply.request.url.split('?')[0],
      ...(errors ? { errors } : {}),
    });
}

/**
 * The sandbox keeps everything in memory, so what callers can create is bounded, as a plan's quota
 * would: past the limit a creation answers 400 with a LIMIT error.
 */
function overLimit(reply: FastifyReply, existing: number, what: string, per: string) {
  if (existing < LIMITS.createdPerGroup) return undefined;
  return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
    { code: 'LIMIT', field: what, message: `at most ${LIMITS.createdPerGroup} ${what} per ${per} in the sandbox` },
  ]);
}

function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  return request.query as Record<string, string | undefined>;
}

const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];

/** Parses `window` (e.g. 12h, 7d, 3600) or startDate+endDate into [from, to] epoch ms. */
function timeRange(request: FastifyRequest, now: number, defaultDays: number): [number, number] | 'invalid' {
  const { window, startDate, endDate } = queryOf(request);
  if (window && (startDate || endDate)) return 'invalid';
  if (window) {
    const match = /^(\d+)([smhdw]?)$/.exec(window);
    if (!match) return 'invalid';
    const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[match[2] ?? ''] ?? 1000;
    return [now - Number(match[1]) * unit, now];
  }
  if (startDate || endDate) {
    const from = Date.parse(startDate ?? '');
    const to = endDate ? Date.parse(endDate) : now;
    if (Number.isNaN(from) || Number.isNaN(to) || from > to) return 'invalid';
    return [from, to];
  }
  return [now - defaultDays * DAY_MS, now];
}

/** Cursor pagination: `_links.next.href` carries an opaque cursor until the last page. */
function paginate<T>(request: FastifyRequest, items: T[], defaultMax: number, base: string) {
  const query = queryOf(request);
  const max = Math.min(Math.max(Number(query.max ?? defaultMax) || defaultMax, 1), 1000);
  let offset = 0;
  if (query.cursor) {
    try {
      offset = Number(JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')).offset) || 0;
    } catch {
      offset = -1;
    }
  }
  if (offset < 0) return 'invalid' as const;
  const pageItems = items.slice(offset, offset + max);
  const path = request.url.split('?')[0]?.replace(/^.*\/v7/, '') ?? '';
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[0] !== 'cursor' && entry[1] !== undefined),
  );
  const selfHref = `${base}${path}${params.size ? `?${params}` : ''}`;
  const links: Record<string, { href: string }> = { self: { href: selfHref } };
  if (offset + max < items.length) {
    const next = new URLSearchParams(params);
    next.set('cursor', Buffer.from(JSON.stringify({ offset: offset + max })).toString('base64url'));
    links.next = { href: `${base}${path}?${next}` };
  }
  if (offset > 0) {
    const previous = new URLSearchParams(params);
    previous.set('cursor', Buffer.from(JSON.stringify({ offset: Math.max(0, offset - max) })).toString('base64url'));
    links.previous = { href: `${base}${path}?${previous}` };
  }
  return { items: pageItems, links };
}

/** Checks a test creation body the way the platform does; returns field errors. */
function validateTestBody(
  type: TestType,
  body: Record<string, unknown>,
  state: PlatformState,
  aid: string,
  existingId?: string,
) {
  const errors: { code: string; field: string; message: string }[] = [];
  const required = (field: string) => {
    const value = body[field];
    if (value === undefined || value === null || value === '')
      errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
  };
  if (typeof body.testName !== 'string' || body.testName.trim() === '') {
    errors.push({ code: 'REQUIRED', field: 'testName', message: 'testName is required' });
  } else if (
    state.world.tests.some((test) => test.aid === aid && test.testName === body.testName && test.testId !== existingId)
  ) {
    errors.push({ code: 'DUPLICATE', field: 'testName', message: 'Test name must be unique within the account group' });
  }
  if (type === 'bgp') {
    // BGP prefixes cannot change after creation.
    if (existingId === undefined) required('prefix');
    else if (body.prefix !== undefined)
      errors.push({ code: 'INVALID', field: 'prefix', message: 'prefix cannot be updated' });
    if (typeof body.prefix === 'string' && !/^\d{1,3}(\.\d{1,3}){3}\/(8|9|1\d|2[0-4])$/.test(body.prefix)) {
      errors.push({ code: 'INVALID', field: 'prefix', message: 'prefix must be an IPv4 prefix from /8 to /24' });
    }
  } else {
    if (existingId === undefined) required('interval');
    if (body.interval !== undefined && !INTERVALS.includes(Number(body.interval))) {
      errors.push({ code: 'INVALID', field: 'interval', message: `interval must be one of ${INTERVALS.join(', ')}` });
    }
    if (existingId === undefined) {
      if (!Array.isArray(body.agents) || body.agents.length === 0) {
        errors.push({ code: 'REQUIRED', field: 'agents', message: 'at least one agent is required' });
      }
    }
    if (Array.isArray(body.agents)) {
      for (const [index, entry] of body.agents.entries()) {
        const agentId = (entry as { agentId?: unknown })?.agentId;
        const agent = state.world.agents.find((candidate) => candidate.agentId === agentId);
        if (!agent || (agent.agentType === 'enterprise' && !agent.aids.includes(aid))) {
          errors.push({
            code: 'INVALID',
            field: `agents[${index}].agentId`,
            message: `agent ${String(agentId)} is not available in this account group`,
          });
        }
      }
    }
  }
  if (existingId === undefined) {
    if (type === 'http-server' || type === 'page-load') required('url');
    if (type === 'dns-server' || type === 'dns-trace') required('domain');
    if (type === 'dns-server') required('dnsServers');
    if (type === 'agent-to-server') required('server');
  }
  if (
    (type === 'http-server' || type === 'page-load') &&
    typeof body.url === 'string' &&
    !/^https?:\/\/\S+$/.test(body.url)
  ) {
    errors.push({ code: 'INVALID', field: 'url', message: 'url must start with http:// or https://' });
  }
  if (body.port !== undefined && (!Number.isInteger(body.port) || Number(body.port) < 1 || Number(body.port) > 65535)) {
    errors.push({ code: 'INVALID', field: 'port', message: 'port must be between 1 and 65535' });
  }
  return errors;
}

/** Requests name DNS servers; answers describe them as objects. */
const dnsServerObjects = (servers: unknown[]) =>
  servers.map((server, index) =>
    typeof server === 'string' ? { serverId: String(1447 + index), serverName: server } : server,
  );

const CONFIG_FIELDS = [
  'url',
  'domain',
  'server',
  'port',
  'protocol',
  'dnsServers',
  'prefix',
  'usePublicBgp',
  'requestMethod',
  'followRedirects',
  'verifyCertificate',
  'desiredStatusCode',
];

export interface PlatformRoutesOptions {
  state: PlatformState;
  /** Filled with every route registered here (the sandbox's OpenAPI document is made from it). */
  routes?: { method: string; url: string }[];
}

/** The platform API v7 stand-in, mounted under /sandbox/te/v7. */
export const platformRoutes: FastifyPluginAsync<PlatformRoutesOptions> = async (
  app: FastifyInstance,
  { state, routes },
) => {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes?.push({ method, url: route.url });
  });
  const now = () => Date.now();
  /** The world's clock: fixed worlds (tests) date and measure from their own moment. */
  const worldNow = () => state.worldTime();
  const baseOf = (request: FastifyRequest) =>
    `${request.protocol}://${request.host}${request.url.replace(/\/v7\/.*$/, '/v7')}`;

  app.addHook('onResponse', async (request, reply) => {
    state.recordCall({
      method: request.method,
      path: request.routeOptions.url?.replace(/^.*\/v7/, '') ?? request.url,
      status: reply.statusCode,
      orgId: request.sandboxCaller?.org.orgId ?? null,
      at: now(),
    });
  });

  app.addHook('preHandler', async (request, reply) => {
    const scenario = state.scenario;
    if (scenario.latencyMs > 0) await sleep(scenario.latencyMs);
    if (scenario.down) return problem(reply, 503, 'Service Unavailable', 'The API is in maintenance mode');

    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match ? state.findToken(match[1] ?? '') : undefined;
    if (!token || token.kind === 'revoked') {
      return reply
        .status(401)
        .type('application/problem+json')
        .send({ error: 'invalid_token', error_description: 'Invalid access token' });
    }
    const org = state.world.organizations.find((candidate) => candidate.orgId === token.orgId);
    if (!org)
      return reply
        .status(401)
        .type('application/problem+json')
        .send({ error: 'invalid_token', error_description: 'Invalid access token' });

    const rate = state.consume(org.orgId);
    reply.header('X-Organization-Rate-Limit-Limit', String(rate.limit));
    reply.header('X-Organization-Rate-Limit-Remaining', String(rate.remaining));
    reply.header('X-Organization-Rate-Limit-Reset', String(Math.ceil(rate.resetAt / 1000)));
    if (scenario.storm429Until > now()) {
      reply.header('X-Organization-Rate-Limit-Remaining', '0');
      reply.header('X-Organization-Rate-Limit-Reset', String(Math.ceil(scenario.storm429Until / 1000)));
      state.countCall(org.orgId, false);
      return problem(reply, 429, 'Too Many Requests', 'Exhausted rate limit for the organization');
    }
    state.countCall(org.orgId, rate.allowed);
    if (!rate.allowed) return problem(reply, 429, 'Too Many Requests', 'Exhausted rate limit for the organization');

    if (scenario.timeoutRate > 0 && Math.random() < scenario.timeoutRate) await sleep(scenario.hangMs);
    const methodFails = scenario.errorMethod === '' || scenario.errorMethod.toUpperCase() === request.method;
    if (scenario.errorRate > 0 && methodFails && Math.random() < scenario.errorRate) {
      return problem(reply, scenario.errorStatus, scenario.errorStatus === 504 ? 'Gateway Timeout' : 'Server Error');
    }

    const path = request.url.replace(/^.*\/v7/, '').split('?')[0] ?? '';
    if (token.kind === 'read-only') {
      const readsUsers = /^\/account-groups\/[^/]+$/.test(path) && list(queryOf(request).expand).includes('user');
      const own = path === '/users/current';
      if (request.method !== 'GET' || readsUsers || (!own && ADMIN_PATHS.some((pattern) => pattern.test(path)))) {
        return problem(reply, 403, 'Forbidden', 'The token does not have permission for this operation');
      }
    }
    const aid = queryOf(request).aid;
    const orgGroups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    const group =
      aid === undefined
        ? orgGroups.find((candidate) => candidate.isDefault)
        : orgGroups.find((candidate) => candidate.aid === aid);
    if (!group) return problem(reply, 403, 'Forbidden', `The user is not assigned to account group ${String(aid)}`);
    request.sandboxCaller = { token, org, group, serializer: new Serializer(state.world, baseOf(request)) };
    return undefined;
  });

  const caller = (request: FastifyRequest) => {
    if (!request.sandboxCaller) throw new Error('sandbox caller missing');
    return request.sandboxCaller;
  };
  const hal = (reply: FastifyReply) => reply.type('application/hal+json');

  // Account groups, users, roles, audit
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

  // Tests
  const testsOf = (aid: string) => state.world.tests.filter((test) => test.aid === aid);

  app.get('/tests', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send({
      tests: testsOf(group.aid).map((test) => serializer.testSummary(test, false)),
      _links: { self: serializer.link('/tests') },
    });
  });

  for (const type of TEST_TYPES) {
    app.get(`/tests/${type}`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const tests = testsOf(group.aid).filter((test) => test.type === type);
      return hal(reply).send({
        tests: tests.map((test) => serializer.testSummary(test, true)),
        _links: { self: serializer.link(`/tests/${type}`) },
      });
    });

    app.get<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const test = testsOf(group.aid).find(
        (candidate) => candidate.testId === request.params.testId && candidate.type === type,
      );
      if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      return hal(reply).send(serializer.test(test, list(queryOf(request).expand)));
    });

    app.post(`/tests/${type}`, async (request, reply) => {
      const { group, serializer, token } = caller(request);
      const full = overLimit(reply, testsOf(group.aid).length, 'tests', 'account group');
      if (full) return full;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const errors = validateTestBody(type, body, state, group.aid);
      if (errors.length)
        return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
      const created = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const creator = state.world.users.find((user) => user.orgId === token.orgId)?.email ?? 'api@example.com';
      const test: Test = {
        testId: state.newId(),
        aid: group.aid,
        type,
        testName: String(body.testName),
        interval: type === 'bgp' ? 900 : Number(body.interval),
        enabled: body.enabled !== false,
        alertsEnabled: body.alertsEnabled !== false,
        description: typeof body.description === 'string' ? body.description : '',
        createdBy: creator,
        createdDate: created,
        modifiedBy: creator,
        modifiedDate: created,
        agentIds: Array.isArray(body.agents)
          ? body.agents.map((agent) => String((agent as { agentId: unknown }).agentId))
          : [],
        alertRuleIds: Array.isArray(body.alertRules)
          ? body.alertRules.map(String)
          : body.alertsEnabled === false
            ? []
            : state.world.alertRules
                .filter(
                  (rule) =>
                    rule.aid === group.aid && rule.isDefault && rule.alertType.startsWith(type.split('-')[0] ?? ''),
                )
                .map((rule) => rule.ruleId),
        config: Object.fromEntries(
          CONFIG_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]),
        ),
      };
      if (type === 'agent-to-server' && test.config.port === undefined) test.config.port = 80;
      if (Array.isArray(test.config.dnsServers)) test.config.dnsServers = dnsServerObjects(test.config.dnsServers);
      state.world.tests.push(test);
      reply.header('Location', serializer.link(`/tests/${type}/${test.testId}`).href);
      return hal(reply)
        .status(201)
        .send(serializer.test(test, ['agent', 'alert-rule']));
    });

    app.put<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const test = testsOf(group.aid).find(
        (candidate) => candidate.testId === request.params.testId && candidate.type === type,
      );
      if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const errors = validateTestBody(type, { testName: test.testName, ...body }, state, group.aid, test.testId);
      if (errors.length)
        return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
      if (typeof body.testName === 'string') test.testName = body.testName;
      if (body.interval !== undefined) test.interval = Number(body.interval);
      if (typeof body.enabled === 'boolean') test.enabled = body.enabled;
      if (typeof body.alertsEnabled === 'boolean') test.alertsEnabled = body.alertsEnabled;
      if (typeof body.description === 'string') test.description = body.description;
      if (Array.isArray(body.agents))
        test.agentIds = body.agents.map((agent) => String((agent as { agentId: unknown }).agentId));
      for (const field of CONFIG_FIELDS) if (body[field] !== undefined) test.config[field] = body[field];
      if (Array.isArray(test.config.dnsServers)) test.config.dnsServers = dnsServerObjects(test.config.dnsServers);
      test.modifiedDate = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return hal(reply).send(serializer.test(test, ['agent', 'alert-rule']));
    });

    app.delete<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group } = caller(request);
      const index = state.world.tests.findIndex(
        (test) => test.aid === group.aid && test.testId === request.params.testId && test.type === type,
      );
      if (index === -1) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const [removed] = state.world.tests.splice(index, 1);
      for (const rule of state.world.alertRules)
        rule.testIds = rule.testIds.filter((testId) => testId !== removed?.testId);
      return reply.status(204).send();
    });
  }

  // Agents
  const agentsOf = (aid: string) =>
    state.world.agents.filter((agent) => agent.agentType === 'cloud' || agent.aids.includes(aid));

  app.get('/agents', async (request, reply) => {
    const { group, serializer } = caller(request);
    const types = list(queryOf(request).agentTypes);
    const expand = list(queryOf(request).expand);
    const agents = agentsOf(group.aid).filter((agent) => types.length === 0 || types.includes(agent.agentType));
    return hal(reply).send({
      agents: agents.map((agent) =>
        serializer.agent(agent, {
          expandTests: expand.includes('test-ids') || expand.includes('test'),
          aid: group.aid,
        }),
      ),
      _links: { self: serializer.link('/agents') },
    });
  });

  app.get<{ Params: { agentId: string } }>('/agents/:agentId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const agent = agentsOf(group.aid).find((candidate) => candidate.agentId === request.params.agentId);
    if (!agent) return problem(reply, 404, 'Not Found', `Agent ${request.params.agentId} not found`);
    return hal(reply).send(serializer.agent(agent, { expandTests: true, aid: group.aid }));
  });

  app.delete<{ Params: { agentId: string } }>('/agents/:agentId', async (request, reply) => {
    const { group } = caller(request);
    const agent = agentsOf(group.aid).find((candidate) => candidate.agentId === request.params.agentId);
    if (!agent) return problem(reply, 404, 'Not Found', `Agent ${request.params.agentId} not found`);
    if (agent.agentType === 'cloud') return problem(reply, 403, 'Forbidden', 'Cloud agents cannot be deleted');
    const usedBy = state.world.tests.filter((test) => test.agentIds.includes(agent.agentId));
    if (usedBy.length > 0) {
      return problem(reply, 400, 'Bad Request', `Agent is currently in use by active tests (${usedBy.length})`, [
        { code: 'AGENT_IN_USE', field: 'agentId', message: 'Agent is currently in use by active tests' },
      ]);
    }
    state.world.agents = state.world.agents.filter((candidate) => candidate.agentId !== agent.agentId);
    return reply.status(204).send();
  });

  // Alert rules, alerts, suppression windows
  app.get('/alerts/rules', async (request, reply) => {
    const { group, serializer } = caller(request);
    const rules = state.world.alertRules.filter((rule) => rule.aid === group.aid);
    return hal(reply).send({
      alertRules: rules.map((rule) => serializer.alertRule(rule)),
      _links: { self: serializer.link('/alerts/rules') },
    });
  });

  app.get<{ Params: { ruleId: string } }>('/alerts/rules/:ruleId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const rule = state.world.alertRules.find(
      (candidate) => candidate.ruleId === request.params.ruleId && candidate.aid === group.aid,
    );
    if (!rule) return problem(reply, 404, 'Not Found', `Alert rule ${request.params.ruleId} not found`);
    return hal(reply).send(serializer.alertRule(rule, true));
  });

  app.get('/alerts', async (request, reply) => {
    const { group, serializer } = caller(request);
    const range = timeRange(request, worldNow(), 90);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    const state_ = queryOf(request).state ?? 'trigger';
    if (!['trigger', 'clear'].includes(state_))
      return problem(reply, 400, 'Bad Request', 'state must be trigger or clear');
    // trigger: alerts that started in the range (default: the last 90 days); clear: alerts that ended in it.
    const alerts = state.world.alerts.filter((alert) => {
      if (alert.aid !== group.aid) return false;
      const at = Date.parse(state_ === 'trigger' ? alert.startDate : (alert.endDate ?? ''));
      return !Number.isNaN(at) && at >= range[0] && at <= range[1];
    });
    const page = paginate(request, alerts, 50, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      alerts: page.items.map((alert) => ({
        id: alert.id,
        alertType: alert.alertType,
        alertRuleId: alert.alertRuleId,
        alertState: alert.alertState,
        alertSeverity: alert.alertSeverity,
        startDate: alert.startDate,
        ...(alert.endDate ? { endDate: alert.endDate } : {}),
        violationCount: alert.violationCount,
        duration: alert.duration,
        suppressed: alert.suppressed,
        meta: { version: 1 },
        _links: { self: serializer.link(`/alerts/${alert.id}`), test: serializer.link(`/tests/${alert.testId}`) },
      })),
      startDate: new Date(range[0]).toISOString(),
      endDate: new Date(range[1]).toISOString(),
      _links: page.links,
    });
  });

  app.get('/alert-suppression-windows', async (request, reply) => {
    const { group, serializer } = caller(request);
    const windows = state.world.suppressionWindows.filter((window) => window.aid === group.aid);
    return hal(reply).send({
      alertSuppressionWindows: windows.map((window) => serializer.suppressionWindow(window, worldNow(), false)),
      _links: { self: serializer.link('/alert-suppression-windows') },
    });
  });

  app.get<{ Params: { windowId: string } }>('/alert-suppression-windows/:windowId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const window = state.world.suppressionWindows.find(
      (candidate) => candidate.alertSuppressionWindowId === request.params.windowId && candidate.aid === group.aid,
    );
    if (!window)
      return problem(reply, 404, 'Not Found', `Alert suppression window ${request.params.windowId} not found`);
    return hal(reply).send(
      serializer.suppressionWindow(window, worldNow(), list(queryOf(request).expand).includes('test')),
    );
  });

  app.post('/alert-suppression-windows', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.suppressionWindows.filter((item) => item.aid === group.aid).length,
      'suppression windows',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors = [];
    if (typeof body.name !== 'string' || !body.name.trim())
      errors.push({ code: 'REQUIRED', field: 'name', message: 'name is required' });
    if (typeof body.startDate !== 'string' || Number.isNaN(Date.parse(body.startDate)))
      errors.push({ code: 'REQUIRED', field: 'startDate', message: 'startDate must be a date-time' });
    if (!Number.isInteger(body.duration) || Number(body.duration) <= 0)
      errors.push({ code: 'REQUIRED', field: 'duration', message: 'duration must be a positive number of seconds' });
    if (errors.length)
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
    const window = {
      alertSuppressionWindowId: state.newId(),
      aid: group.aid,
      name: String(body.name),
      isEnabled: body.isEnabled !== false,
      startDate: String(body.startDate),
      duration: Number(body.duration),
      repeat: body.repeat as never,
      endRepeat: body.endRepeat as never,
      testIds: Array.isArray(body.testIds) ? body.testIds.map(String) : [],
    };
    state.world.suppressionWindows.push(window);
    reply.header('Location', serializer.link(`/alert-suppression-windows/${window.alertSuppressionWindowId}`).href);
    return hal(reply)
      .status(201)
      .send(serializer.suppressionWindow(window, worldNow(), true));
  });

  // Dashboards
  app.get('/dashboards', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send(
      state.world.dashboards
        .filter((dashboard) => dashboard.aid === group.aid)
        .map((dashboard) => serializer.dashboard(dashboard)),
    );
  });

  app.get<{ Params: { dashboardId: string } }>('/dashboards/:dashboardId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const dashboard = state.world.dashboards.find(
      (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
    );
    if (!dashboard) return problem(reply, 404, 'Not Found', `Dashboard ${request.params.dashboardId} not found`);
    return hal(reply).send(serializer.dashboard(dashboard));
  });

  app.post('/dashboards', async (request, reply) => {
    const { group, serializer, token } = caller(request);
    const full = overLimit(
      reply,
      state.world.dashboards.filter((item) => item.aid === group.aid).length,
      'dashboards',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.title !== undefined && typeof body.title !== 'string') {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        { code: 'INVALID', field: 'title', message: 'title must be a string' },
      ]);
    }
    const dashboard: Dashboard = {
      dashboardId: state.newId().padStart(24, '0'),
      aid: group.aid,
      title: typeof body.title === 'string' ? body.title : 'Untitled dashboard',
      description: typeof body.description === 'string' ? body.description : '',
      isBuiltIn: false,
      isPrivate: body.isPrivate === true,
      createdBy: state.world.users.find((user) => user.orgId === token.orgId)?.uid ?? '1',
      modifiedDate: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      widgets: dashboardWidgets(body.widgets, [], () => state.newId()),
      layout: dashboardLayout(body.layout),
    };
    state.world.dashboards.push(dashboard);
    reply.header('Location', serializer.link(`/dashboards/${dashboard.dashboardId}`).href);
    return hal(reply).status(201).send(serializer.dashboard(dashboard));
  });

  app.put<{ Params: { dashboardId: string } }>('/dashboards/:dashboardId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const dashboard = state.world.dashboards.find(
      (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
    );
    if (!dashboard) return problem(reply, 404, 'Not Found', `Dashboard ${request.params.dashboardId} not found`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.title !== 'string' || body.title.trim() === '') {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        { code: 'INVALID', field: 'title', message: 'title is required' },
      ]);
    }
    dashboard.title = body.title;
    if (typeof body.description === 'string') dashboard.description = body.description;
    if (typeof body.isPrivate === 'boolean') dashboard.isPrivate = body.isPrivate;
    // A widget sent with the id of one of this dashboard's widgets keeps it; others are new.
    dashboard.widgets = dashboardWidgets(body.widgets, dashboard.widgets, () => state.newId());
    dashboard.layout = dashboardLayout(body.layout);
    dashboard.modifiedDate = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return hal(reply).send(serializer.dashboard(dashboard));
  });

  app.get<{ Params: { dashboardId: string; widgetId: string } }>(
    '/dashboards/:dashboardId/widgets/:widgetId',
    async (request, reply) => {
      const { group, serializer } = caller(request);
      const dashboard = state.world.dashboards.find(
        (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
      );
      const widget = dashboard?.widgets.find((candidate) => candidate.id === request.params.widgetId);
      if (!dashboard || !widget) return problem(reply, 404, 'Not Found', 'Widget not found');
      const end = Math.floor(worldNow() / 300_000) * 300_000;
      return hal(reply).send({
        binSize: 300,
        data: {
          points: Array.from({ length: 12 }, (_, index) => ({
            timestamp: Math.floor((end - (11 - index) * 300_000) / 1000),
            numberOfDataPoints: 10,
            value: 95 + ((index * 7) % 5),
          })),
        },
        _links: { self: serializer.link(`/dashboards/${dashboard.dashboardId}/widgets/${widget.id}`) },
      });
    },
  );

  // Tags
  app.get('/tags', async (request, reply) => {
    const { group, serializer } = caller(request);
    const expand = list(queryOf(request).expand).includes('assignments');
    const tags = state.world.tags.filter((tag) => tag.aid === group.aid);
    return hal(reply).send({
      tags: tags.map(({ assignments, ...tag }) => ({
        ...tag,
        aid: Number(tag.aid),
        type: 'static',
        accessType: 'all',
        builtIn: false,
        ...(expand ? { assignments } : {}),
      })),
      _links: { self: serializer.link('/tags') },
    });
  });

  app.post('/tags', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.tags.filter((item) => item.aid === group.aid).length,
      'tags',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors = [];
    for (const field of ['key', 'value', 'objectType']) {
      if (typeof body[field] !== 'string' || !String(body[field]).trim())
        errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
    }
    if (errors.length)
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
    const tag = {
      id: crypto.randomUUID(),
      aid: group.aid,
      key: String(body.key),
      value: String(body.value),
      objectType: body.objectType as 'test',
      color: typeof body.color === 'string' ? body.color : '#1f77b4',
      description: typeof body.description === 'string' ? body.description : '',
      createDate: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      assignments: [] as { id: string; type: string }[],
    };
    state.world.tags.push(tag);
    reply.header('Location', serializer.link(`/tags/${tag.id}`).href);
    const { assignments: _assignments, ...rest } = tag;
    return hal(reply)
      .status(201)
      .send({ ...rest, aid: Number(rest.aid), type: 'static', accessType: 'all', builtIn: false });
  });

  app.post<{ Params: { id: string } }>('/tags/:id/assign', async (request, reply) => {
    const { group } = caller(request);
    const tag = state.world.tags.find((candidate) => candidate.id === request.params.id && candidate.aid === group.aid);
    if (!tag) return problem(reply, 404, 'Not Found', `Tag ${request.params.id} not found`);
    const body = (request.body ?? {}) as { assignments?: { id?: unknown; type?: unknown }[] };
    const assignments = Array.isArray(body.assignments) ? body.assignments : [];
    const unknown = assignments.filter(
      (assignment) => !state.world.tests.some((test) => test.testId === assignment.id && test.aid === group.aid),
    );
    if (assignments.length === 0 || unknown.length > 0) {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        {
          code: 'INVALID',
          field: 'assignments',
          message: unknown.length
            ? `unknown objects: ${unknown.map((item) => String(item.id)).join(', ')}`
            : 'assignments are required',
        },
      ]);
    }
    for (const assignment of assignments) {
      if (!tag.assignments.some((existing) => existing.id === assignment.id))
        tag.assignments.push({ id: String(assignment.id), type: String(assignment.type ?? 'test') });
    }
    // 207 Multi-Status, as the document says for tag assignment.
    return hal(reply)
      .status(207)
      .send({
        tagId: tag.id,
        assignments: tag.assignments,
        _links: { self: caller(request).serializer.link(`/tags/${tag.id}`) },
      });
  });

  // Usage and quotas
  app.get('/usage', async (request, reply) => {
    const { org, serializer } = caller(request);
    const expand = list(queryOf(request).expand);
    const aids = new Set(
      state.world.accountGroups.filter((group) => group.orgId === org.orgId).map((group) => group.aid),
    );
    const tests = state.world.tests.filter((test) => aids.has(test.aid));
    const unitsFor = (test: Test) =>
      Math.round((Math.max(1, test.agentIds.length) * 86_400 * 30) / test.interval / 100);
    const cloudUnitsUsed = tests.reduce((sum, test) => sum + unitsFor(test), 0);
    const monthStart = new Date(worldNow());
    monthStart.setUTCDate(1);
    const monthEnd = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 0));
    return hal(reply).send({
      usage: {
        quota: {
          monthStart: `${monthStart.toISOString().slice(0, 10)}T00:00:00Z`,
          monthEnd: `${monthEnd.toISOString().slice(0, 10)}T23:59:59Z`,
          cloudUnitsIncluded: 5_000_000,
          enterpriseAgentsIncluded: 50,
          endpointAgentsIncluded: 500,
          endpointAgentsEssentialsIncluded: 250,
        },
        cloudUnitsUsed,
        cloudUnitsProjected: Math.round(cloudUnitsUsed * 1.1),
        cloudUnitsNextBillingPeriod: Math.round(cloudUnitsUsed * 1.05),
        enterpriseUnitsUsed: 0,
        enterpriseUnitsProjected: 0,
        enterpriseUnitsNextBillingPeriod: 0,
        endpointAgentsUsed: state.world.endpointAgents.filter((agent) => aids.has(agent.aid)).length,
        enterpriseAgentsUsed: state.world.agents.filter((agent) => agent.aids.some((aid) => aids.has(aid))).length,
        ...(expand.includes('test')
          ? {
              tests: tests.map((test) => ({
                aid: test.aid,
                accountGroupName:
                  state.world.accountGroups.find((group) => group.aid === test.aid)?.accountGroupName ?? '',
                testId: test.testId,
                testName: test.testName,
                testType: test.type,
                cloudUnitsUsed: unitsFor(test),
                cloudUnitsProjected: Math.round(unitsFor(test) * 1.1),
              })),
            }
          : {}),
      },
      _links: { self: serializer.link('/usage') },
    });
  });

  app.get('/quotas', async (request, reply) => {
    const { org, serializer } = caller(request);
    const groups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    return hal(reply).send({
      quotas: [
        {
          organizationQuota: { value: 5_000_000, orgId: org.orgId },
          accountGroupQuotas: groups.map((group) => ({ value: Math.floor(5_000_000 / groups.length), aid: group.aid })),
        },
      ],
      _links: { self: serializer.link('/quotas') },
    });
  });

  // Endpoint agents and tests
  app.get('/endpoint/agents', async (request, reply) => {
    const { group, serializer } = caller(request);
    const agents = state.world.endpointAgents.filter((agent) => agent.aid === group.aid);
    const page = paginate(request, agents, 20, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      totalAgents: agents.length,
      agents: page.items.map((agent) => ({
        ...agent,
        deleted: false,
        agentType: 'enterprise',
        _links: { self: serializer.link(`/endpoint/agents/${agent.id}`) },
      })),
      _links: page.links,
    });
  });

  app.get('/endpoint/labels', async (request, reply) => {
    const { group, serializer } = caller(request);
    const withFilters = list(queryOf(request).expand).includes('filters');
    const labels = state.world.endpointLabels.filter((label) => label.aid === group.aid);
    const page = paginate(request, labels, 20, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      labels: page.items.map(({ aid: _aid, filters, ...label }) => ({
        ...label,
        ...(withFilters ? { filters } : {}),
        _links: { self: serializer.link(`/endpoint/labels/${label.id}`) },
      })),
      _links: page.links,
    });
  });

  app.get('/endpoint/tests/dynamic-tests/agent-to-server', async (request, reply) => {
    const { group, serializer } = caller(request);
    const tests = state.world.endpointDynamicTests.filter((test) => test.aid === group.aid);
    return hal(reply).send({
      tests: tests.map((test) => ({
        ...test,
        isPrioritized: false,
        _links: { self: serializer.link(`/endpoint/tests/dynamic-tests/agent-to-server/${test.testId}`) },
      })),
      _links: { self: serializer.link('/endpoint/tests/dynamic-tests/agent-to-server') },
    });
  });

  app.get('/endpoint/tests/scheduled-tests', async (request, reply) => {
    const { group, serializer } = caller(request);
    const tests = state.world.endpointTests.filter((test) => test.aid === group.aid);
    return hal(reply).send({
      tests: tests.map((test) => ({
        ...test,
        isPrioritized: false,
        _links: { self: serializer.link(`/endpoint/tests/scheduled-tests/${test.type}/${test.testId}`) },
      })),
      _links: { self: serializer.link('/endpoint/tests/scheduled-tests') },
    });
  });
};

/** Widgets of a dashboard's POST or PUT body as the platform keeps them (filters included). */
function dashboardWidgets(value: unknown, existing: Widget[], newId: () => string): Widget[] {
  const widgets = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const known = new Set(existing.map((widget) => widget.id));
  return widgets.map((widget, index) => {
    const filters =
      widget.filters && typeof widget.filters === 'object'
        ? Object.fromEntries(
            Object.entries(widget.filters as Record<string, unknown>).map(([kind, ids]) => [
              kind,
              Array.isArray(ids) ? ids.map(String) : [],
            ]),
          )
        : undefined;
    return {
      id: typeof widget.id === 'string' && known.has(widget.id) ? widget.id : `${newId()}-${index}`,
      type: String(widget.type ?? 'Number'),
      title: String(widget.title ?? `Widget ${index + 1}`),
      visualMode: widget.visualMode === 'Half screen' ? 'Half screen' : 'Full',
      dataSource: String(widget.dataSource ?? 'CLOUD_AND_ENTERPRISE_AGENTS'),
      ...(typeof widget.metricGroup === 'string' ? { metricGroup: widget.metricGroup } : {}),
      ...(typeof widget.metric === 'string' ? { metric: widget.metric } : {}),
      ...(filters ? { filters } : {}),
    };
  });
}

function dashboardLayout(value: unknown): Dashboard['layout'] {
  if (!value || typeof value !== 'object') return undefined;
  const layout = value as { type?: unknown; details?: { widgetPositioning?: unknown } };
  const positions = Array.isArray(layout.details?.widgetPositioning) ? layout.details.widgetPositioning : [];
  return {
    type: layout.type === 'vertical' ? 'vertical' : 'grid',
    details: {
      widgetPositioning: (positions as Record<string, unknown>[]).map((position) => ({
        id: String(position.id ?? ''),
        x: Number(position.x ?? 0),
        y: Number(position.y ?? 0),
        w: Number(position.w ?? 1),
        h: Number(position.h ?? 1),
      })),
    },
  };
}
