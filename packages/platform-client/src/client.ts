import { z } from 'zod';
import { PlatformError } from './errors.js';
import { PlatformHttp, type CallOptions, type PlatformAuth, type PlatformHttpOptions, type Query } from './http.js';
import {
  accountGroupSchema,
  accountGroupsResponseSchema,
  agentSchema,
  alertRuleSchema,
  alertSchema,
  auditEventSchema,
  dashboardSchema,
  endpointAgentSchema,
  endpointDynamicTestSchema,
  endpointLabelSchema,
  endpointTestSchema,
  linksSchema,
  quotasSchema,
  roleSchema,
  suppressionWindowSchema,
  tagSchema,
  testSchema,
  usageSchema,
  userSchema,
  type PlatformTest,
  type PlatformTestType,
  type TestCreateBody,
} from './schemas.js';

/** A time range: a window such as `7d`, or start and end dates (ISO-8601 UTC); never both. */
export type TimeRange = { window: string } | { startDate: string; endDate: string };

const rangeQuery = (range: TimeRange | undefined): Query =>
  range === undefined
    ? {}
    : 'window' in range
      ? { window: range.window }
      : { startDate: range.startDate, endDate: range.endDate };

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const where = result.error.issues[0]?.path.join('.') ?? '';
    throw new PlatformError(502, `Unexpected answer from the platform for ${what}${where ? ` (at ${where})` : ''}`);
  }
  return result.data;
}

const pageLinks = z.looseObject({ _links: linksSchema.optional() });

const PARTIAL_UPDATE_TYPES = new Set<PlatformTestType>(['agent-to-server', 'bgp']);
const TYPE_FIELDS = [
  'url',
  'domain',
  'server',
  'port',
  'protocol',
  'prefix',
  'requestMethod',
  'followRedirects',
  'verifyCertificate',
  'desiredStatusCode',
];

/** The writable part of a test as read back, in the form a PUT or POST takes (ids, not objects). */
export function writableTestBody(test: PlatformTest): TestCreateBody {
  const source = test as Record<string, unknown>;
  const body: TestCreateBody = {
    testName: test.testName,
    ...(test.interval !== undefined ? { interval: test.interval } : {}),
    ...(test.enabled !== undefined ? { enabled: test.enabled } : {}),
    ...(test.alertsEnabled !== undefined ? { alertsEnabled: test.alertsEnabled } : {}),
    description: test.description ?? '',
    ...(test.agents ? { agents: test.agents.map((agent) => ({ agentId: agent.agentId })) } : {}),
    ...(test.alertRules ? { alertRules: test.alertRules.map((rule) => rule.ruleId) } : {}),
  };
  for (const field of TYPE_FIELDS) if (source[field] !== undefined) body[field] = source[field];
  if (Array.isArray(source.dnsServers)) {
    body.dnsServers = source.dnsServers.map((server) =>
      typeof server === 'string' ? server : String((server as { serverName?: unknown }).serverName ?? ''),
    );
  }
  return body;
}

/**
 * The platform's API v7, as the tools need it. One instance per process; every call names its
 * caller (token and organization) so calls of one organization share one rate limit.
 */
export class PlatformClient {
  readonly http: PlatformHttp;

  constructor(options: PlatformHttpOptions) {
    this.http = new PlatformHttp(options);
  }

  /** The calls of one caller; cheap to create per job or request. */
  as(auth: PlatformAuth): PlatformSession {
    return new PlatformSession(this.http, auth);
  }
}

export class PlatformSession {
  constructor(
    private readonly http: PlatformHttp,
    readonly auth: PlatformAuth,
  ) {}

  /** One call (GET by default, or the method in `options`) whose answer is checked against `schema`. */
  private request<T>(schema: z.ZodType<T>, path: string, what: string, options: CallOptions = {}): Promise<T> {
    return this.http.call<unknown>(this.auth, path, options).then((body) => parse(schema, body, what));
  }

  /** A list answer `{key: [...], _links}`, items checked one schema each. */
  private async list<T>(
    key: string,
    item: z.ZodType<T>,
    path: string,
    what: string,
    options: CallOptions = {},
  ): Promise<T[]> {
    const body = await this.http.call<unknown>(this.auth, path, options);
    return parse(z.array(item), (body as Record<string, unknown> | undefined)?.[key], what);
  }

  /** Follows `_links.next` until it is absent, yielding the items under `key` page by page. */
  async *paginate<T>(path: string, key: string, item: z.ZodType<T>, options: CallOptions = {}): AsyncGenerator<T> {
    const items = z.array(item);
    let body: unknown = await this.http.call<unknown>(this.auth, path, options);
    for (;;) {
      yield* parse(items, (body as Record<string, unknown> | undefined)?.[key], path);
      const next = parse(pageLinks, body, path)._links?.next?.href;
      if (!next) return;
      body = await this.http.follow<unknown>(this.auth, next, { signal: options.signal });
    }
  }

  // Account groups, users and roles
  readonly accountGroups = {
    list: async (signal?: AbortSignal) =>
      (await this.request(accountGroupsResponseSchema, 'account-groups', 'account groups', { signal })).accountGroups,
    get: (aid: string, expand: ('user' | 'agent')[] = [], signal?: AbortSignal) =>
      this.request(
        accountGroupSchema.extend({ users: z.array(userSchema).optional(), agents: z.array(agentSchema).optional() }),
        `account-groups/${encodeURIComponent(aid)}`,
        'account group',
        { query: expand.length ? { expand } : {}, signal },
      ),
  };

  readonly users = {
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list('users', userSchema, 'users', 'users', { aid, signal }),
    get: (uid: string, aid?: string, signal?: AbortSignal) =>
      this.request(userSchema, `users/${encodeURIComponent(uid)}`, 'user', { aid, signal }),
    current: (signal?: AbortSignal) => this.request(userSchema, 'users/current', 'current user', { signal }),
    invite: (
      body: {
        name: string;
        email: string;
        loginAccountGroupId: string;
        accountGroupRoles: { accountGroupId: string; roleIds: string[] }[];
      },
      aid?: string,
    ) => this.request(userSchema, 'users', 'new user', { method: 'POST', body, aid }),
  };

  readonly roles = {
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list('roles', roleSchema, 'roles', 'roles', { aid, signal }),
  };

  readonly auditUserEvents = {
    list: (options: { aid?: string; range?: TimeRange; useAllPermittedAids?: boolean; signal?: AbortSignal } = {}) =>
      this.paginate('audit-user-events', 'auditEvents', auditEventSchema, {
        aid: options.aid,
        query: { ...rangeQuery(options.range), useAllPermittedAids: options.useAllPermittedAids },
        signal: options.signal,
      }),
  };

  // Tests
  readonly tests = {
    /** Every test of the account group, all types, summary fields only. */
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list('tests', testSchema, 'tests', 'tests', { aid, signal }),
    listByType: async (type: PlatformTestType, aid?: string, signal?: AbortSignal) =>
      this.list('tests', testSchema, `tests/${type}`, `${type} tests`, { aid, signal }),
    get: (
      type: PlatformTestType,
      testId: string,
      options: { aid?: string; expand?: string[]; signal?: AbortSignal } = {},
    ) =>
      this.request(testSchema, `tests/${type}/${encodeURIComponent(testId)}`, 'test', {
        aid: options.aid,
        query: options.expand?.length ? { expand: options.expand } : {},
        signal: options.signal,
      }),
    create: (type: PlatformTestType, body: TestCreateBody, aid?: string, signal?: AbortSignal) =>
      this.request(testSchema, `tests/${type}`, 'created test', {
        method: 'POST',
        body,
        aid,
        signal,
        idempotent: false,
      }),
    /**
     * Changes a test. Agent-to-server and BGP take partial updates; the other types reuse the creation
     * schema on PUT, so their current configuration is read and sent back with the changes.
     */
    update: async (
      type: PlatformTestType,
      testId: string,
      changes: Partial<TestCreateBody>,
      aid?: string,
      signal?: AbortSignal,
    ) => {
      const body = PARTIAL_UPDATE_TYPES.has(type)
        ? changes
        : {
            ...writableTestBody(await this.tests.get(type, testId, { aid, expand: ['agent', 'alert-rule'], signal })),
            ...changes,
          };
      return this.request(testSchema, `tests/${type}/${encodeURIComponent(testId)}`, 'updated test', {
        method: 'PUT',
        body,
        aid,
        signal,
      });
    },
    delete: (type: PlatformTestType, testId: string, aid?: string, signal?: AbortSignal) =>
      this.http.call<void>(this.auth, `tests/${type}/${encodeURIComponent(testId)}`, { method: 'DELETE', aid, signal }),
  };

  // Agents
  readonly agents = {
    list: async (
      options: {
        aid?: string;
        agentTypes?: ('cloud' | 'enterprise' | 'enterprise-cluster')[];
        expand?: string[];
        signal?: AbortSignal;
      } = {},
    ) =>
      this.list('agents', agentSchema, 'agents', 'agents', {
        aid: options.aid,
        query: { agentTypes: options.agentTypes, expand: options.expand },
        signal: options.signal,
      }),
    get: (agentId: string, aid?: string, signal?: AbortSignal) =>
      this.request(agentSchema, `agents/${encodeURIComponent(agentId)}`, 'agent', { aid, signal }),
    delete: (agentId: string, aid?: string, signal?: AbortSignal) =>
      this.http.call<void>(this.auth, `agents/${encodeURIComponent(agentId)}`, { method: 'DELETE', aid, signal }),
  };

  // Alerts
  readonly alertRules = {
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list('alertRules', alertRuleSchema, 'alerts/rules', 'alert rules', { aid, signal }),
    get: (ruleId: string, aid?: string, signal?: AbortSignal) =>
      this.request(alertRuleSchema, `alerts/rules/${encodeURIComponent(ruleId)}`, 'alert rule', { aid, signal }),
  };

  readonly alerts = {
    /** Active alerts by default; `state: 'clear'` and a range for history. */
    list: (
      options: {
        aid?: string;
        range?: TimeRange;
        state?: 'trigger' | 'clear';
        max?: number;
        signal?: AbortSignal;
      } = {},
    ) =>
      this.paginate('alerts', 'alerts', alertSchema, {
        aid: options.aid,
        query: { ...rangeQuery(options.range), state: options.state, max: options.max },
        signal: options.signal,
      }),
  };

  readonly alertSuppressionWindows = {
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list(
        'alertSuppressionWindows',
        suppressionWindowSchema,
        'alert-suppression-windows',
        'alert suppression windows',
        {
          aid,
          signal,
        },
      ),
    get: (windowId: string, aid?: string, signal?: AbortSignal) =>
      this.request(
        suppressionWindowSchema,
        `alert-suppression-windows/${encodeURIComponent(windowId)}`,
        'alert suppression window',
        {
          aid,
          query: { expand: ['test'] },
          signal,
        },
      ),
    create: (body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
      this.request(suppressionWindowSchema, 'alert-suppression-windows', 'created alert suppression window', {
        method: 'POST',
        body,
        aid,
        signal,
        idempotent: false,
      }),
  };

  // Dashboards
  readonly dashboards = {
    /** GET /dashboards answers a bare array. */
    list: (aid?: string, signal?: AbortSignal) =>
      this.request(z.array(dashboardSchema), 'dashboards', 'dashboards', { aid, signal }),
    get: (dashboardId: string, aid?: string, signal?: AbortSignal) =>
      this.request(dashboardSchema, `dashboards/${encodeURIComponent(dashboardId)}`, 'dashboard', { aid, signal }),
    create: (body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
      this.request(dashboardSchema, 'dashboards', 'created dashboard', {
        method: 'POST',
        body,
        aid,
        signal,
        idempotent: false,
      }),
    /** PUT replaces the dashboard: widgets sent with their ids are kept, the layout names them. */
    update: (dashboardId: string, body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
      this.request(dashboardSchema, `dashboards/${encodeURIComponent(dashboardId)}`, 'updated dashboard', {
        method: 'PUT',
        body,
        aid,
        signal,
      }),
    widget: (dashboardId: string, widgetId: string, aid?: string, signal?: AbortSignal) =>
      this.http.call<Record<string, unknown>>(
        this.auth,
        `dashboards/${encodeURIComponent(dashboardId)}/widgets/${encodeURIComponent(widgetId)}`,
        { aid, signal },
      ),
  };

  // Tags
  readonly tags = {
    list: async (aid?: string, signal?: AbortSignal) =>
      this.list('tags', tagSchema, 'tags', 'tags', { aid, query: { expand: ['assignments'] }, signal }),
    create: (
      body: { key: string; value: string; objectType: string; color?: string; description?: string },
      aid?: string,
    ) => this.request(tagSchema, 'tags', 'created tag', { method: 'POST', body, aid, idempotent: false }),
    assign: (tagId: string, assignments: { id: string; type: string }[], aid?: string) =>
      this.http.call<unknown>(this.auth, `tags/${encodeURIComponent(tagId)}/assign`, {
        method: 'POST',
        body: { assignments },
        aid,
      }),
  };

  // Usage and quotas
  readonly usage = {
    get: (options: { aid?: string; expand?: string[]; signal?: AbortSignal } = {}) =>
      this.request(usageSchema, 'usage', 'usage', {
        aid: options.aid,
        query: options.expand?.length ? { expand: options.expand } : {},
        signal: options.signal,
      }),
    quotas: (signal?: AbortSignal) => this.request(quotasSchema, 'quotas', 'quotas', { signal }),
  };

  // Endpoint agents and tests
  readonly endpointAgents = {
    list: (aid?: string, signal?: AbortSignal) =>
      this.paginate('endpoint/agents', 'agents', endpointAgentSchema, { aid, signal }),
  };

  readonly endpointTests = {
    listScheduled: async (aid?: string, signal?: AbortSignal) =>
      this.list('tests', endpointTestSchema, 'endpoint/tests/scheduled-tests', 'endpoint tests', {
        aid,
        signal,
      }),
    /** Dynamic tests follow an application (Webex, Zoom, Microsoft Teams) wherever its users are. */
    listDynamic: async (aid?: string, signal?: AbortSignal) =>
      this.list(
        'tests',
        endpointDynamicTestSchema,
        'endpoint/tests/dynamic-tests/agent-to-server',
        'dynamic endpoint tests',
        {
          aid,
          signal,
        },
      ),
  };

  readonly endpointLabels = {
    /** Labels with their filters. */
    list: (aid?: string, signal?: AbortSignal) =>
      this.paginate('endpoint/labels', 'labels', endpointLabelSchema, { aid, query: { expand: ['filters'] }, signal }),
  };
}
