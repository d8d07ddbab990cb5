import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, SESSION_COOKIE } from '@ce/contract';

/** What an instance works on at once before it turns callers away (decision 0036). */
export interface PressureLimits {
  /** Requests worked at once past which a signed-in person's API call is answered 503 at once. */
  maxInFlight: number;
  /** How far behind the event loop may be (ms) before API calls are answered 503; 0: not measured. */
  maxEventLoopDelayMs: number;
}

/** How an instance holds up, as /readyz tells it. */
export interface PressureGuard {
  /** 'busy' while the instance turned callers away in the last few seconds, else 'ok'. */
  state(): 'ok' | 'busy';
}

/**
 * Who a request is for, in the order they are turned away: calls without a session (a sign-in, a reset) first, a
 * signed-in person's (a session cookie or an API token) next, the web app's page and files last. Probes never.
 */
type Lane = 'anonymous' | 'signedIn' | 'web';

/** Answered whatever the load: an orchestrator must not take a busy instance for a dead one. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
/** How long after the last request turned away /readyz still says busy. */
const BUSY_FOR_MS = 5_000;
/** At most one line a period tells what was turned away in it. */
const TOLD_EVERY_MS = 10_000;
/** How often the event loop's timers are asked to run, to tell how far behind it is. */
const TICK_MS = 25;
/** Over how long the requests arriving are counted. */
const ARRIVALS_WINDOW_MS = 1_000;
/**
 * The loop's lateness turns callers away only when at least this many requests arrive a second: when a job on the
 * main thread (the embedded default's) is what holds it, turning a few people away would not make it catch up.
 */
const REQUESTS_PER_SECOND_MIN = 20;
/** How often the loop's utilization is read (the share let in moves once a reading). */
const UTILIZATION_EVERY_MS = 100;
/**
 * Busier than this for `BUSY_READINGS` readings in a row, the loop has no time left for the requests still to come
 * (a burst passes; a standing queue does not): the share of API calls let in shrinks by `SHRINK` a reading. Calmer
 * than `CALM_UTILIZATION`, it grows back by `GROW`.
 */
const BUSY_UTILIZATION = 0.98;
const BUSY_READINGS = 5;
const SHRINK = 0.85;
const CALM_UTILIZATION = 0.9;
const GROW = 0.1;
/**
 * A busy loop turns callers away only when the requests it let in took at least this share of the reading (each
 * counted for at most one reading): when a job on the main thread is what keeps it busy, the embedded default's,
 * turning people away would free nothing.
 */
const REQUESTS_SHARE_MIN = 0.5;
/** The share let in never falls below this: people keep being answered, and the reading stays true. */
const SHARE_MIN = 0.05;

const SESSION = new RegExp(`(?:^|;)\\s*(?:__Host-)?${SESSION_COOKIE}=[^;\\s]`);

/** A request's lane; null for those never turned away nor counted (probes, the sandbox). */
function laneOf(request: IncomingMessage, apiPrefixes: readonly string[]): Lane | null {
  const pathname = (request.url ?? '/').split('?')[0] ?? '/';
  if (PROBES.has(pathname) || pathname.startsWith('/sandbox/')) return null;
  const api =
    (request.method !== 'GET' && request.method !== 'HEAD') ||
    apiPrefixes.some((prefix) => pathname.startsWith(prefix));
  if (!api) return 'web';
  const { authorization, cookie } = request.headers;
  return /^bearer\s/i.test(authorization ?? '') || SESSION.test(cookie ?? '') ? 'signedIn' : 'anonymous';
}

interface LoopLag {
  /** How far behind the loop is now (ms). */
  now(): number;
  /** The share of API calls to let in, from how busy the loop has been (1: all). */
  share(): number;
  /** How late its last turn was (ms). */
  last(): number;
  /** Requests that arrived over the last window. */
  arrived(): number;
  /** A request arrived. */
  arrive(): void;
  /** A request let in has ended, after `ms` in the instance. */
  worked(ms: number): void;
  stop(): void;
}

/**
 * How far behind the event loop is, in ms: how long since its timers last ran, past the tick asked for. When every
 * request's work is done on the main thread (the embedded database answers in the same turn), a busy instance's
 * requests wait in their sockets, not in flight: they see this grow while the loop works through them.
 */
function loopLag(enabled: boolean): LoopLag {
  let tickedAt = performance.now();
  let lastMs = 0;
  let windowFrom = tickedAt;
  let windowArrived = 0;
  let lastArrived = 0;
  let share = 1;
  let busyReadings = 0;
  let workedMs = 0;
  let utilizationAt = performance.now();
  let utilization: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = enabled
    ? setInterval(() => {
        const at = performance.now();
        lastMs = Math.max(0, at - tickedAt - TICK_MS);
        tickedAt = at;
        if (at - windowFrom >= ARRIVALS_WINDOW_MS) {
          lastArrived = (windowArrived * ARRIVALS_WINDOW_MS) / (at - windowFrom);
          windowFrom = at;
          windowArrived = 0;
        }
        if (at - utilizationAt >= UTILIZATION_EVERY_MS) {
          const now = performance.eventLoopUtilization();
          const busy = performance.eventLoopUtilization(now, utilization).utilization;
          const requests = Math.min(1, workedMs / (at - utilizationAt));
          workedMs = 0;
          utilization = now;
          utilizationAt = at;
          // A loop busy with requests arriving fast: what waits for it is queued where it cannot see (a proxy's or
          // a client's connection pool), so it lets fewer in until it has time to spare again.
          const byRequests = lastArrived >= REQUESTS_PER_SECOND_MIN && requests >= REQUESTS_SHARE_MIN;
          busyReadings = busy > BUSY_UTILIZATION && byRequests ? busyReadings + 1 : 0;
          if (busyReadings >= BUSY_READINGS) share = Math.max(SHARE_MIN, share * SHRINK);
          else if (busy < CALM_UTILIZATION) share = Math.min(1, share + GROW);
        }
      }, TICK_MS).unref()
    : undefined;
  return {
    now: () => (enabled ? Math.max(0, performance.now() - tickedAt - TICK_MS) : 0),
    share: () => share,
    last: () => lastMs,
    arrived: () => lastArrived,
    arrive: () => {
      windowArrived += 1;
    },
    worked: (ms) => {
      if (enabled) workedMs += Math.min(ms, UTILIZATION_EVERY_MS);
    },
    stop: () => clearInterval(timer),
  };
}

/** The answer to a request turned away: the API's error shape, made without reading anything of the request but its id. */
function busyAnswer(requestId: string): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ error: { code: 'busy', message: BUSY_MESSAGE, requestId } });
  return {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    },
  };
}

/** Whether a request let in still has someone waiting for it. */
const letIn = new WeakMap<IncomingMessage, { gone: boolean }>();

/**
 * Sheds load past the knee (decision 0036) in the HTTP server's own request handler, before the framework sees the
 * request: one that would wait behind more than the instance works at once is answered 503 "busy" with Retry-After
 * at once, before its route is found, its session looked up or its body read, so turning it away costs next to
 * nothing and the people let in are answered in time, with memory flat.
 */
export class PressureGate implements PressureGuard {
  private readonly bounds: Record<Lane, number>;
  private readonly lag: LoopLag;
  private inFlight = 0;
  /** What the share let in has allowed and not yet used: a call is let in when it reaches one. */
  private credit = 1;
  private lastShedAt = Number.NEGATIVE_INFINITY;
  private toldAt = Number.NEGATIVE_INFINITY;
  private shedSinceTold = 0;
  private log: Pick<FastifyInstance['log'], 'warn'> | undefined;

  constructor(
    private readonly limits: PressureLimits,
    private readonly apiPrefixes: readonly string[],
    /** The request's id as the app would give it (the caller's `x-request-id` when well formed). */
    private readonly requestIdOf: (request: IncomingMessage) => string,
  ) {
    this.bounds = {
      anonymous: Math.max(1, Math.floor((limits.maxInFlight * 3) / 4)),
      signedIn: limits.maxInFlight,
      web: limits.maxInFlight * 2,
    };
    this.lag = loopLag(limits.maxEventLoopDelayMs > 0);
  }

  /**
   * A Fastify `serverFactory`: the HTTP server, its requests through the gate first. It sets what Fastify sets on
   * a server it makes itself (its timeouts), since Fastify leaves a factory's server as it is.
   */
  serverFactory(): NonNullable<FastifyServerOptions['serverFactory']> {
    return (handler, options) => {
      const server = http.createServer((request, response) => {
        if (this.admit(request, response)) handler(request, response);
      });
      // Fastify hands its options with their defaults filled in.
      const timeouts = options as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
      if (timeouts.keepAliveTimeout !== undefined) server.keepAliveTimeout = timeouts.keepAliveTimeout;
      if (timeouts.requestTimeout !== undefined) server.requestTimeout = timeouts.requestTimeout;
      if (timeouts.connectionTimeout !== undefined) server.setTimeout(timeouts.connectionTimeout);
      return server;
    };
  }

  state(): 'ok' | 'busy' {
    return Date.now() - this.lastShedAt < BUSY_FOR_MS ? 'busy' : 'ok';
  }

  /** Behind now, and the turn before too (one pause turns no one away), with requests arriving fast enough to be why. */
  private loopBehind(): boolean {
    const { maxEventLoopDelayMs } = this.limits;
    return (
      maxEventLoopDelayMs > 0 &&
      this.lag.now() > maxEventLoopDelayMs &&
      this.lag.last() > maxEventLoopDelayMs / 2 &&
      this.lag.arrived() >= REQUESTS_PER_SECOND_MIN
    );
  }

  /** Whether the share of API calls let in has room for one more (exactly that share of them, no dice). */
  private withinShare(): boolean {
    const share = this.lag.share();
    if (share >= 1) return true;
    this.credit = Math.min(1, this.credit + share);
    if (this.credit < 1) return false;
    this.credit -= 1;
    return true;
  }

  /** Lets a request in (counted in flight until its answer ends or its connection closes), or turns it away. */
  private admit(request: IncomingMessage, response: ServerResponse): boolean {
    const lane = laneOf(request, this.apiPrefixes);
    if (lane === null) return true;
    this.lag.arrive();
    if (this.inFlight >= this.bounds[lane] || (lane !== 'web' && (this.loopBehind() || !this.withinShare()))) {
      this.shed(request, response, lane);
      return false;
    }
    this.inFlight += 1;
    const state = { gone: false };
    letIn.set(request, state);
    const letInAt = performance.now();
    response.once('close', () => {
      this.inFlight -= 1;
      this.lag.worked(performance.now() - letInAt);
      if (!response.writableFinished) state.gone = true;
    });
    return true;
  }

  private shed(request: IncomingMessage, response: ServerResponse, lane: Lane): void {
    const now = Date.now();
    this.lastShedAt = now;
    this.shedSinceTold += 1;
    if (now - this.toldAt >= TOLD_EVERY_MS) {
      this.log?.warn(
        {
          shed: this.shedSinceTold,
          inFlight: this.inFlight,
          maxInFlight: this.limits.maxInFlight,
          loopLagMs: Math.round(this.lag.now()),
          lane,
        },
        'the instance is busy: requests are answered 503 until it catches up',
      );
      this.toldAt = now;
      this.shedSinceTold = 0;
    }
    const { headers, body } = busyAnswer(this.requestIdOf(request));
    response.writeHead(503, headers);
    response.end(body);
  }

  /**
   * The gate's part inside the app: what it turned away is logged with the app's logger, and a caller who went while
   * the request waited (for its session, its body or its turn) is not worked for: the last moment before the work.
   */
  register(app: FastifyInstance): void {
    this.log = app.log;
    app.addHook('onClose', async () => this.lag.stop());
    app.addHook('preHandler', (request, reply, done) => {
      const state = letIn.get(request.raw);
      if (!state || (!state.gone && request.raw.socket?.destroyed !== true)) return done();
      request.log.info('the caller went away before its request was worked: not worked');
      reply.hijack();
      reply.raw.destroy();
    });
  }
}
