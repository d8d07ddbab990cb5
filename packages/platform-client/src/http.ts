import { createHash } from 'node:crypto';
import { readBody } from './well-formed.js';
import { errorFromResponse, messageForStatus, operationLimitError, PlatformError, TIMEOUT_STATUS } from './errors.js';
import { readRateHeaders, retryAfterMs, type RateHeaders } from './rate-headers.js';
import {
  realClock,
  RateLimiterRegistry,
  type Clock,
  type OrgBudget,
  type RateBudgets,
  type RateSlot,
} from './rate-limiter.js';
import {
  MAX_ATTEMPTS,
  DEFAULT_RETRY_BUDGET_MS,
  DEFAULT_RATE_LIMIT_WAIT_BUDGET_MS,
  RETRYABLE_STATUSES,
  SAFE_TO_REPEAT_STATUSES,
  CONNECTION_NEVER_OPENED,
  backoffMs,
  readBackoffMs,
} from './retry-policy.js';
import { checkBeforeWrite, joinSignals, toldWhileWaiting, type PlatformAuth } from './auth.js';

export type { PlatformAuth, ReadJournal } from './auth.js';

export interface PlatformLogger {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** What the client tells about its calls, for metrics: time waited for the budget, and each answer. */
export interface PlatformObserver {
  waitedForBudget(organizationKey: string, ms: number): void;
  answered(organizationKey: string, status: number): void;
}

export interface PlatformHttpOptions {
  /** The API root, for example https://api.thousandeyes.com/v7 */
  baseUrl: string;
  /** Per-call timeout. */
  timeoutMs?: number;
  /**
   * How long an idempotent call keeps being retried after 5xx answers, timeouts and network failures
   * (default two minutes): reads are bounded by time, not by a small count of attempts.
   */
  retryBudgetMs?: number;
  /**
   * How long one call keeps waiting out 429 answers before it gives up (default ten minutes): a call is
   * never lost to a passing storm, and never waits without end either.
   */
  rateLimitWaitBudgetMs?: number;
  /** Where the organizations' budgets are kept: this process (the default) or shared by several. */
  limiters?: RateBudgets;
  /** The share of each window kept for background calls in this process's budgets (default 0.5). */
  backgroundShare?: number;
  /** The most of each window scheduled calls spend in this process's budgets (default 0.5). */
  scheduledShare?: number;
  /**
   * Whether a person's calls go before jobs' (default true). False makes every call one lane, first come first
   * served: what the product did before lanes, kept to measure them against (bench:interactive).
   */
  lanes?: boolean;
  fetch?: typeof fetch;
  observer?: PlatformObserver;
  clock?: Clock;
  random?: () => number;
  logger?: PlatformLogger;
}

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** Account-group context; sent as the `aid` query parameter. */
  aid?: string;
  signal?: AbortSignal;
  /**
   * Whether repeating the call is harmless. Non-idempotent calls (creations) are retried only when the
   * platform cannot have acted on them: 429, 502, 503, or a connection that never opened.
   */
  idempotent?: boolean;
  /**
   * The organization a successful answer names (the account groups list): the client remembers it for the
   * token, so the token's later calls spend the organization's budget.
   */
  organizationOf?: (body: unknown) => string | undefined;
  /**
   * Not kept in the session's journal: a stream of measurements its reader counts as it reads (a week of results is
   * megabytes a page). A job that resumes reads it again rather than storing every page.
   */
  unkept?: boolean;
  /**
   * The operation's own limit, in words (snapshots: 5 in 5 minutes). A 429 while the rate headers still show budget
   * is that limit: told at once, not waited out against the organization's budget (its other calls go on).
   */
  operationLimit?: string;
}

/** Tokens whose organization the client remembers, at most; the oldest is forgotten first. */
const MAX_KNOWN_TOKENS = 5_000;

/**
 * The HTTP core of the client: rate limit, retries, timeouts and error mapping. It never puts the
 * token in an error, a log line or a URL.
 */
export class PlatformHttp {
  readonly baseUrl: URL;
  private readonly timeoutMs: number;
  private readonly retryBudgetMs: number;
  private readonly rateLimitWaitBudgetMs: number;
  private readonly limiters: RateBudgets;
  private readonly observer: PlatformObserver | undefined;
  private readonly lanes: boolean;
  private readonly fetchImpl: typeof fetch;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly logger: PlatformLogger | undefined;
  /** The organization of each token seen (by the token's hash), learnt from an answer that named it. */
  private readonly organizations = new Map<string, string>();

  constructor(options: PlatformHttpOptions) {
    this.baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retryBudgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    this.rateLimitWaitBudgetMs = options.rateLimitWaitBudgetMs ?? DEFAULT_RATE_LIMIT_WAIT_BUDGET_MS;
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.limiters =
      options.limiters ??
      new RateLimiterRegistry(this.clock, this.random, undefined, options.backgroundShare, options.scheduledShare);
    this.fetchImpl = options.fetch ?? fetch;
    this.logger = options.logger;
    this.observer = options.observer;
    this.lanes = options.lanes ?? true;
  }

  /**
   * Takes a slot in the organization's budget, telling the observer how long that took, and the session's
   * `onBudgetWait` (a person waiting on a page) while it waits.
   */
  private async slot(
    key: string,
    limiter: OrgBudget,
    signal: AbortSignal | undefined,
    auth: PlatformAuth,
  ): Promise<RateSlot> {
    const started = this.clock.now();
    const waited = () => Math.max(0, this.clock.now() - started);
    const slot = await toldWhileWaiting(
      limiter.acquire(signal, this.lanes ? auth.lane : 'interactive'),
      auth.onBudgetWait,
      () => ({ organizationKey: key, waitedMs: waited(), estimateMs: limiter.estimateMs?.() }),
    );
    this.observer?.waitedForBudget(key, waited());
    return slot;
  }

  /** The budget a caller spends: its organization's once known, else (a token's first call) the token's own. */
  limiterKey(auth: PlatformAuth): string {
    const organizationId = auth.organizationId ?? this.organizations.get(tokenHash(auth.token));
    if (organizationId) return `org:${organizationId}`;
    return `token:${tokenHash(auth.token)}`;
  }

  /**
   * Remembers the organization an answer under the token's own key named, and counts that answer in the
   * organization's budget: the platform counted it there.
   */
  private async learnOrganization(auth: PlatformAuth, organizationId: string, rate: RateHeaders | undefined) {
    const hash = tokenHash(auth.token);
    if (this.organizations.size >= MAX_KNOWN_TOKENS && !this.organizations.has(hash)) {
      const oldest = this.organizations.keys().next().value;
      if (oldest !== undefined) this.organizations.delete(oldest);
    }
    this.organizations.set(hash, organizationId);
    if (rate) await this.limiters.for(`org:${organizationId}`).merge(rate);
  }

  /**
   * The URL of a path under the API root. The path must arrive there as it is: a segment that a URL would
   * resolve away (`.`, `..`) or a `?` or `#` inside it is refused, so no value a caller puts in a path
   * (resources encode each one) can reach another endpoint.
   */
  url(path: string, query: Query = {}, aid?: string): URL {
    const relative = path.replace(/^\//, '');
    const url = new URL(relative, this.baseUrl);
    if (url.pathname !== `${this.baseUrl.pathname}${relative}` || url.search || url.hash)
      throw new PlatformError(400, `Refused to call the platform at "${relative}": a part of it is not a valid name.`);
    const params = { ...query, ...(aid ? { aid } : {}) };
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    return url;
  }

  /** Calls the platform and returns the parsed JSON body (undefined for 204). */
  async call<T>(auth: PlatformAuth, path: string, options: CallOptions = {}): Promise<T> {
    const signal = joinSignals(options.signal, auth.signal);
    return this.send<T>(auth, this.url(path, options.query, options.aid), { ...options, signal });
  }

  /** Calls an absolute URL returned by the platform (a `_links.next.href`), only on the API's own origin. */
  async follow<T>(auth: PlatformAuth, href: string, options: CallOptions = {}): Promise<T> {
    const url = new URL(href, this.baseUrl);
    if (url.origin !== this.baseUrl.origin) {
      throw new PlatformError(0, 'Refused to follow a link outside the platform API');
    }
    return this.send<T>(auth, url, { ...options, signal: joinSignals(options.signal, auth.signal) });
  }

  /**
   * One call as it is, for tools that show the platform's answer: the status, the rate-limit headers, the
   * time it took and the body, whatever the status. Paced by the organization's limiter like every call
   * (a 429 waits for the window and is sent again); never retried otherwise. Only the API's own origin.
   */
  async exchange(
    auth: PlatformAuth,
    target: URL,
    options: { method?: string; body?: unknown; signal?: AbortSignal } = {},
  ): Promise<PlatformExchange> {
    if (target.origin !== this.baseUrl.origin || !target.pathname.startsWith(this.baseUrl.pathname))
      throw new PlatformError(0, 'Refused to call outside the platform API');
    const method = options.method ?? 'GET';
    const key = this.limiterKey(auth);
    const limiter = this.limiters.for(key);
    let firstRefusal: number | undefined;
    for (;;) {
      const slot = await this.slot(key, limiter, options.signal, auth);
      await checkBeforeWrite(auth, method, async () => limiter.release(undefined, slot));
      const started = this.clock.now();
      const outcome = await this.attempt(auth, target, method, { body: options.body, signal: options.signal });
      const durationMs = Math.max(0, this.clock.now() - started);
      if (outcome.kind !== 'answer') {
        await limiter.release(undefined, slot);
        if (outcome.kind === 'aborted') throw options.signal?.reason ?? new PlatformError(0, 'Request cancelled');
        const status = outcome.kind === 'timeout' ? TIMEOUT_STATUS : 0;
        throw new PlatformError(status, messageForStatus(status, this.timeoutMs));
      }
      const rate = readRateHeaders(outcome.headers);
      this.observer?.answered(key, outcome.status);
      if (outcome.status === 429) {
        const waitMs = await limiter.exhausted(rate, retryAfterMs(outcome.headers, this.clock.now()), slot);
        this.refuseEndlessWait(firstRefusal, waitMs, target);
        firstRefusal ??= this.clock.now();
        continue;
      }
      await limiter.release(rate, slot);
      const headers: Record<string, string> = {};
      outcome.headers.forEach((value, name) => {
        if (name.startsWith('x-organization-rate-limit') || name === 'content-type' || name === 'location')
          headers[name] = value;
      });
      return { status: outcome.status, headers, durationMs, body: outcome.body };
    }
  }

  private async send<T>(auth: PlatformAuth, url: URL, options: CallOptions): Promise<T> {
    const method = options.method ?? 'GET';
    const journalKey = method === 'GET' && auth.journal && !options.unkept ? `${url.pathname}${url.search}` : undefined;
    if (journalKey !== undefined) {
      const kept = await auth.journal?.get(journalKey);
      if (kept) return kept.body as T;
    }
    const body = await this.sendOverNetwork<T>(auth, url, method, options);
    if (journalKey !== undefined) await auth.journal?.put(journalKey, body);
    return body;
  }

  private async sendOverNetwork<T>(auth: PlatformAuth, url: URL, method: string, options: CallOptions): Promise<T> {
    const idempotent = options.idempotent ?? method !== 'POST';
    const key = this.limiterKey(auth);
    const limiter = this.limiters.for(key);
    const started = this.clock.now();
    let firstRefusal: number | undefined;
    let attempt = 0;
    /** Waits before the next attempt when one is allowed; false when the call must give up. */
    const mayRetry = async (canRepeat: boolean): Promise<boolean> => {
      if (!canRepeat) return false;
      attempt += 1;
      if (!idempotent) {
        if (attempt >= MAX_ATTEMPTS) return false;
        await this.clock.sleep(backoffMs(attempt, this.random), options.signal);
        return true;
      }
      const wait = readBackoffMs(attempt, this.random);
      if (this.clock.now() - started + wait > this.retryBudgetMs) return false;
      await this.clock.sleep(wait, options.signal);
      return true;
    };
    for (;;) {
      const slot = await this.slot(key, limiter, options.signal, auth);
      await checkBeforeWrite(auth, method, async () => limiter.release(undefined, slot));
      const outcome = await this.attempt(auth, url, method, options);
      if (outcome.kind === 'answer') {
        const { status, headers, body } = outcome;
        const rate = readRateHeaders(headers);
        this.observer?.answered(key, status);
        auth.onAnswer?.({ method, path: url.pathname, status });
        if (status === 429 && !(options.operationLimit && rate && rate.remaining > 0)) {
          const waitMs = await limiter.exhausted(rate, retryAfterMs(headers, this.clock.now()), slot);
          // Not lost to a passing 429 storm: wait for the window to roll over and send again, within the budget.
          this.refuseEndlessWait(firstRefusal, waitMs, url);
          firstRefusal ??= this.clock.now();
          this.logger?.warn({ path: url.pathname, waitMs }, 'platform rate limit reached; waiting for reset');
          continue;
        }
        await limiter.release(rate, slot);
        if (status === 429)
          throw operationLimitError(options.operationLimit ?? '', retryAfterMs(headers, this.clock.now()), body);
        this.logger?.debug({ method, path: url.pathname, status }, 'platform call');
        if (status >= 200 && status < 300) {
          const organizationId = key.startsWith('token:') ? options.organizationOf?.(body) : undefined;
          if (organizationId) await this.learnOrganization(auth, organizationId, rate);
          return body as T;
        }
        const canRepeat = idempotent ? RETRYABLE_STATUSES.has(status) : SAFE_TO_REPEAT_STATUSES.has(status);
        if (await mayRetry(canRepeat)) continue;
        throw errorFromResponse(status, body);
      }
      await limiter.release(undefined, slot);
      if (outcome.kind === 'aborted') throw options.signal?.reason ?? new PlatformError(0, 'Request cancelled');
      this.logger?.debug({ method, path: url.pathname, failure: outcome.kind }, 'platform call failed');
      if (await mayRetry(idempotent || outcome.neverSent)) continue;
      const status = outcome.kind === 'timeout' ? TIMEOUT_STATUS : 0;
      throw new PlatformError(status, messageForStatus(status, this.timeoutMs));
    }
  }

  /** Gives up (429) when waiting out the next refusal would go past the call's rate-limit wait budget. */
  private refuseEndlessWait(firstRefusal: number | undefined, waitMs: number, url: URL): void {
    const waited = firstRefusal === undefined ? 0 : this.clock.now() - firstRefusal;
    if (waited + waitMs <= this.rateLimitWaitBudgetMs) return;
    this.logger?.warn({ path: url.pathname, waitedMs: waited }, 'platform rate limit: giving up the call');
    throw new PlatformError(
      429,
      `The platform kept refusing calls for its rate limit for ${Math.round((waited + waitMs) / 60_000)} minute(s); try again later.`,
    );
  }

  private async attempt(
    auth: PlatformAuth,
    url: URL,
    method: string,
    options: CallOptions,
  ): Promise<
    | { kind: 'answer'; status: number; headers: Headers; body: unknown }
    | { kind: 'timeout'; neverSent: false }
    | { kind: 'network'; neverSent: boolean }
    | { kind: 'aborted'; neverSent: false }
  > {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const response = await this.fetchImpl(url, {
        method,
        headers: {
          authorization: `Bearer ${auth.token}`,
          accept: 'application/hal+json, application/json, application/problem+json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal,
      });
      // The timeout covers reading the body too.
      return { kind: 'answer', status: response.status, headers: response.headers, body: await readBody(response) };
    } catch (error) {
      if (options.signal?.aborted) return { kind: 'aborted', neverSent: false };
      if (timeout.aborted) return { kind: 'timeout', neverSent: false };
      const code = (error as { cause?: { code?: string } }).cause?.code ?? '';
      return { kind: 'network', neverSent: CONNECTION_NEVER_OPENED.has(code) };
    }
  }
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

/** A platform answer as it came: for the diagnostic tool and the API explorer. */
export interface PlatformExchange {
  status: number;
  /** The rate-limit headers, the content type and a Location, as sent. */
  headers: Record<string, string>;
  durationMs: number;
  body: unknown;
}
