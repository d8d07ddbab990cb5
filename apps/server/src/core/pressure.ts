import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

const SESSION = new RegExp(`(?:^|;)\\s*(?:__Host-)?${SESSION_COOKIE}=[^;\\s]`);

/** A request's lane; null for those never turned away nor counted (probes, in-process calls, the sandbox). */
function laneOf(request: FastifyRequest, apiPrefixes: readonly string[]): Lane | null {
  // In-process calls (app.inject: the compatibility layer, the embedded sandbox) belong to a request let in.
  if ('_lightMyRequest' in request.raw) return null;
  const pathname = request.url.split('?')[0] ?? '/';
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
  /** How late its last turn was (ms). */
  last(): number;
  /** Requests that arrived over the last window. */
  arrived(): number;
  /** A request arrived. */
  arrive(): void;
}

/**
 * How far behind the event loop is, in ms: how long since its timers last ran, past the tick asked for. When every
 * request's work is done on the main thread (the embedded database answers in the same turn), a busy instance's
 * requests wait in their sockets, not in flight: they see this grow while the loop works through them.
 */
function loopLag(app: FastifyInstance, enabled: boolean): LoopLag {
  let tickedAt = performance.now();
  let lastMs = 0;
  let windowFrom = tickedAt;
  let windowArrived = 0;
  let lastArrived = 0;
  if (enabled) {
    const timer = setInterval(() => {
      const at = performance.now();
      lastMs = Math.max(0, at - tickedAt - TICK_MS);
      tickedAt = at;
      if (at - windowFrom >= ARRIVALS_WINDOW_MS) {
        lastArrived = (windowArrived * ARRIVALS_WINDOW_MS) / (at - windowFrom);
        windowFrom = at;
        windowArrived = 0;
      }
    }, TICK_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  return {
    now: () => (enabled ? Math.max(0, performance.now() - tickedAt - TICK_MS) : 0),
    last: () => lastMs,
    arrived: () => lastArrived,
    arrive: () => {
      windowArrived += 1;
    },
  };
}

/**
 * Sheds load past the knee (decision 0036): a request that would wait behind more than the instance works at once
 * is answered 503 "busy" with Retry-After at once, before its session is looked up or its body read, so the people
 * it lets in are answered in time and memory stays flat. And a request whose caller has gone (the connection
 * closed while it waited for its turn, its session or its body) is not worked.
 */
export function registerPressureGuard(
  app: FastifyInstance,
  limits: PressureLimits,
  apiPrefixes: readonly string[],
): PressureGuard {
  const bounds: Record<Lane, number> = {
    anonymous: Math.max(1, Math.floor((limits.maxInFlight * 3) / 4)),
    signedIn: limits.maxInFlight,
    web: limits.maxInFlight * 2,
  };
  const lag = loopLag(app, limits.maxEventLoopDelayMs > 0);
  // Behind now, and behind the turn before too (one pause, a full garbage collection, turns no one away), with
  // requests arriving fast enough to be what keeps it busy.
  const loopBehind = () =>
    limits.maxEventLoopDelayMs > 0 &&
    lag.now() > limits.maxEventLoopDelayMs &&
    lag.last() > limits.maxEventLoopDelayMs / 2 &&
    lag.arrived() >= REQUESTS_PER_SECOND_MIN;
  let inFlight = 0;
  let lastShedAt = Number.NEGATIVE_INFINITY;
  let toldAt = Number.NEGATIVE_INFINITY;
  let shedSinceTold = 0;
  /** Requests counted in flight, and whether their caller has gone. */
  const counted = new WeakMap<FastifyRequest, { gone: boolean }>();

  const shed = (request: FastifyRequest, reply: FastifyReply, lane: Lane) => {
    const now = Date.now();
    lastShedAt = now;
    shedSinceTold += 1;
    if (now - toldAt >= TOLD_EVERY_MS) {
      request.log.warn(
        { shed: shedSinceTold, inFlight, maxInFlight: limits.maxInFlight, loopLagMs: Math.round(lag.now()), lane },
        'the instance is busy: requests are answered 503 until it catches up',
      );
      toldAt = now;
      shedSinceTold = 0;
    }
    void reply
      .code(503)
      .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
      .header('cache-control', 'no-store')
      .send({ error: { code: 'busy', message: BUSY_MESSAGE, requestId: request.id } });
  };

  app.addHook('onRequest', (request, reply, done) => {
    const lane = laneOf(request, apiPrefixes);
    if (lane === null) return done();
    lag.arrive();
    if (inFlight >= bounds[lane] || (lane !== 'web' && loopBehind())) return shed(request, reply, lane);
    inFlight += 1;
    const state = { gone: false };
    counted.set(request, state);
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (!reply.raw.writableFinished) state.gone = true;
    });
    done();
  });

  // The last moment before the work: a caller who went while the request waited is not worked for.
  app.addHook('preHandler', (request, reply, done) => {
    const state = counted.get(request);
    if (!state || (!state.gone && request.raw.socket?.destroyed !== true)) return done();
    request.log.info('the caller went away before its request was worked: not worked');
    reply.hijack();
    reply.raw.destroy();
  });

  return { state: () => (Date.now() - lastShedAt < BUSY_FOR_MS ? 'busy' : 'ok') };
}
