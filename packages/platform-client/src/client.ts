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
  endpointTestSchema,
  linksSchema,
  quotasSchema,
  roleSchema,
  suppressionWindowSchema,
  tagSchema,
  testSchema,
  usageSchema,
  userSchema,
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

const listOf = <T>(key: string, item: z.ZodType<T>) =>
  z.looseObject({ [key]: z.array(item), _links: linksSchema.optional() });

const pageLinks = z.looseObject({ _links: linksSchema.optional() });

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

  private get<T>(schema: z.ZodType<T>, path: string, what: string, options: CallOptions = {}): Promise<T> {
    return this.http.call<unknown>(this.auth, path, options).then((body) => parse(schema, body, what));
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
      (await this.get(accountGroupsResponseSchema, 'account-groups', 'account groups', { signal })).accountGroups,
    get: (aid: string, expand: ('user' | 'agent')[] = [], signal?: AbortSignal) =>
      this.get(
        accountGroupSchema.extend({ users: z.array(userSchema).optional(), agents: z.array(agentSchema).optional() }),
        `account-groups/${encodeURIComponent(aid)}`,
        'account group',
        { query: expand.length ? { expand } : {}, signal },
      ),
  };

  readonly users = {
    list: async (aid?: string, signal?: AbortSignal) =>
      (await this.get(listOf('users', userSchema), 'users', 'users', { aid, signal })).users,
    get: (uid: string, aid?: string, signal?: AbortSignal) =>
      this.get(userSchema, `users/${encodeURIComponent(uid)}`, 'user', { aid, signal }),
    current: (signal?: AbortSignal) => this.get(userSchema, 'users/current', 'current user', { signal }),
    invite: (
      body: {
        name: string;
        email: string;
        loginAccountGroupId: string;
        accountGroupRoles: { accountGroupId: string; roleIds: string[] }[];
      },
      aid?: string,
    ) => this.get(userSchema, 'users', 'new user', { method: 'POST', body, aid }),
  };

  readonly roles = {
    list: async (aid?: string, signal?: AbortSignal) =>
      (await this.get(listOf('roles', roleSchema), 'roles', 'roles', { aid, signal })).roles,
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
      (await this.get(listOf('tests', testSchema), 'tests', 'tests', { aid, signal })).tests,
    listByType: async (type: PlatformTestType, aid?: string, signal?: AbortSignal) =>
      (await this.get(listOf('tests', testSchema), `tests/${type}`, `${type} tests`, { aid, signal })).tests,
    get: (
      type: PlatformTestType,
      testId: string,
      options: { aid?: string; expand?: string[]; signal?: AbortSignal } = {},
    ) =>
      this.get(testSchema, `tests/${type}/${encodeURIComponent(testId)}`, 'test', {
        aid: options.aid,
        query: options.expand?.length ? { expand: options.expand } : {},
        signal: options.signal,
      }),
    create: (type: PlatformTestType, body: TestCreateBody, aid?: string, signal?: AbortSignal) =>
      this.get(testSchema, `tests/${type}`, 'created test', { method: 'POST', body, aid, signal, idempotent: false }),
    update: (
      type: PlatformTestType,
      testId: string,
      body: Partial<TestCreateBody>,
      aid?: string,
      signal?: AbortSignal,
    ) =>
      this.get(testSchema, `tests/${type}/${encodeURIComponent(testId)}`, 'updated test', {
        method: 'PUT',
        body,
        aid,
        signal,
      }),
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
      (
        await this.get(listOf('agents', agentSchema), 'agents', 'agents', {
          aid: options.aid,
          query: { agentTypes: options.agentTypes, expand: options.expand },
          signal: options.signal,
        })
      ).agents,
    get: (agentId: string, aid?: string, signal?: AbortSignal) =>
      this.get(agentSchema, `agents/${encodeURIComponent(agentId)}`, 'agent', { aid, signal }),
    delete: (agentId: string, aid?: string, signal?: AbortSignal) =>
      this.http.call<void>(this.auth, `agents/${encodeURIComponent(agentId)}`, { method: 'DELETE', aid, signal }),
  };

  // Alerts
  readonly alertRules = {
    list: async (aid?: string, signal?: AbortSignal) =>
      (await this.get(listOf('alertRules', alertRuleSchema), 'alerts/rules', 'alert rules', { aid, signal }))
        .alertRules,
    get: (ruleId: string, aid?: string, signal?: AbortSignal) =>
      this.get(alertRuleSchema, `alerts/rules/${encodeURIComponent(ruleId)}`, 'alert rule', { aid, signal }),
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
      (
        await this.get(
          listOf('alertSuppressionWindows', suppressionWindowSchema),
          'alert-suppression-windows',
          'alert suppression windows',
          {
            aid,
            signal,
          },
        )
      ).alertSuppressionWindows,
    get: (windowId: string, aid?: string, signal?: AbortSignal) =>
      this.get(
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
      this.get(suppressionWindowSchema, 'alert-suppression-windows', 'created alert suppression window', {
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
      this.get(z.array(dashboardSchema), 'dashboards', 'dashboards', { aid, signal }),
    get: (dashboardId: string, aid?: string, signal?: AbortSignal) =>
      this.get(dashboardSchema, `dashboards/${encodeURIComponent(dashboardId)}`, 'dashboard', { aid, signal }),
    create: (body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
      this.get(dashboardSchema, 'dashboards', 'created dashboard', {
        method: 'POST',
        body,
        aid,
        signal,
        idempotent: false,
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
      (await this.get(listOf('tags', tagSchema), 'tags', 'tags', { aid, query: { expand: ['assignments'] }, signal }))
        .tags,
    create: (
      body: { key: string; value: string; objectType: string; color?: string; description?: string },
      aid?: string,
    ) => this.get(tagSchema, 'tags', 'created tag', { method: 'POST', body, aid, idempotent: false }),
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
      this.get(usageSchema, 'usage', 'usage', {
        aid: options.aid,
        query: options.expand?.length ? { expand: options.expand } : {},
        signal: options.signal,
      }),
    quotas: (signal?: AbortSignal) => this.get(quotasSchema, 'quotas', 'quotas', { signal }),
  };

  // Endpoint agents and tests
  readonly endpointAgents = {
    list: (aid?: string, signal?: AbortSignal) =>
      this.paginate('endpoint/agents', 'agents', endpointAgentSchema, { aid, signal }),
  };

  readonly endpointTests = {
    listScheduled: async (aid?: string, signal?: AbortSignal) =>
      (
        await this.get(listOf('tests', endpointTestSchema), 'endpoint/tests/scheduled-tests', 'endpoint tests', {
          aid,
          signal,
        })
      ).tests,
  };
}
