import { joinSignals, type AmbientCall } from './auth.js';
import { PlatformHttp, type PlatformAuth, type PlatformHttpOptions } from './http.js';
import { accountGroups, auditUserEvents, roles, users } from './resources/account-groups.js';
import { agents } from './resources/agents.js';
import { alertRules, alerts, alertSuppressionWindows, webhooks } from './resources/alerts.js';
import { Caller } from './resources/caller.js';
import { dashboards } from './resources/dashboards.js';
import { endpointAgents, endpointLabels, endpointTests } from './resources/endpoint.js';
import { events } from './resources/events.js';
import { outages } from './resources/outages.js';
import { snapshots } from './resources/snapshots.js';
import { tags } from './resources/tags.js';
import { testResults } from './resources/test-results.js';
import { tests } from './resources/tests.js';
import { usage } from './resources/usage.js';

export type { TimeRange } from './resources/caller.js';
export { writableTestBody } from './resources/tests.js';

/**
 * The platform's API v7, as the tools need it. One instance per process; every call names its
 * caller (token and organization) so calls of one organization share one rate limit.
 */
export class PlatformClient {
  readonly http: PlatformHttp;
  private readonly ambient: (() => AmbientCall | undefined) | undefined;

  /** `ambient`: what the surroundings of each new session add to it (the request of a person, on a server). */
  constructor(options: PlatformHttpOptions & { ambient?: () => AmbientCall | undefined }) {
    this.http = new PlatformHttp(options);
    this.ambient = options.ambient;
  }

  /**
   * The calls of one caller; cheap to create per job or request. Made while a person's request is being
   * answered, the session also ends with that request (cancelled, the browser gone) and tells its budget waits.
   */
  as(auth: PlatformAuth): PlatformSession {
    const around = this.ambient?.();
    if (!around) return new PlatformSession(this.http, auth);
    return new PlatformSession(this.http, {
      ...auth,
      signal: joinSignals(auth.signal, around.signal),
      onBudgetWait: auth.onBudgetWait ?? around.onBudgetWait,
    });
  }
}

/** The calls of one caller, one property per resource of the API (each in `resources/`). */
export class PlatformSession {
  private readonly caller: Caller;
  readonly accountGroups: ReturnType<typeof accountGroups>;
  readonly users: ReturnType<typeof users>;
  readonly roles: ReturnType<typeof roles>;
  readonly auditUserEvents: ReturnType<typeof auditUserEvents>;
  readonly tests: ReturnType<typeof tests>;
  readonly agents: ReturnType<typeof agents>;
  readonly alertRules: ReturnType<typeof alertRules>;
  readonly alerts: ReturnType<typeof alerts>;
  readonly alertSuppressionWindows: ReturnType<typeof alertSuppressionWindows>;
  readonly webhooks: ReturnType<typeof webhooks>;
  readonly dashboards: ReturnType<typeof dashboards>;
  readonly tags: ReturnType<typeof tags>;
  readonly usage: ReturnType<typeof usage>;
  readonly endpointAgents: ReturnType<typeof endpointAgents>;
  readonly endpointTests: ReturnType<typeof endpointTests>;
  readonly endpointLabels: ReturnType<typeof endpointLabels>;
  /** What the platform measured: test results by type, and the events its detection found. */
  readonly testResults: ReturnType<typeof testResults>;
  readonly events: ReturnType<typeof events>;
  /** What a customer review reads besides: Internet Insights outages, and test snapshots (evidence links). */
  readonly outages: ReturnType<typeof outages>;
  readonly snapshots: ReturnType<typeof snapshots>;

  constructor(
    http: PlatformHttp,
    readonly auth: PlatformAuth,
  ) {
    this.caller = new Caller(http, auth);
    this.accountGroups = accountGroups(this.caller);
    this.users = users(this.caller);
    this.roles = roles(this.caller);
    this.auditUserEvents = auditUserEvents(this.caller);
    this.tests = tests(this.caller);
    this.agents = agents(this.caller);
    this.alertRules = alertRules(this.caller);
    this.alerts = alerts(this.caller);
    this.alertSuppressionWindows = alertSuppressionWindows(this.caller);
    this.webhooks = webhooks(this.caller);
    this.dashboards = dashboards(this.caller);
    this.tags = tags(this.caller);
    this.usage = usage(this.caller);
    this.endpointAgents = endpointAgents(this.caller);
    this.endpointTests = endpointTests(this.caller);
    this.endpointLabels = endpointLabels(this.caller);
    this.testResults = testResults(this.caller);
    this.events = events(this.caller);
    this.outages = outages(this.caller);
    this.snapshots = snapshots(this.caller);
  }

  /** Follows `_links.next` until it is absent, yielding the items under `key` page by page. */
  paginate: Caller['paginate'] = (...args) => this.caller.paginate(...args);
}
