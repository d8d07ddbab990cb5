import { LIMITS, pushBounded } from '../bounded.js';
import { generateWorld, type GeneratorOptions, type World } from './generator.js';
import type { Token } from './model.js';

/** Named failure modes that tests and benchmarks switch on. */
export interface Scenario {
  /** Added to every answer. */
  latencyMs: number;
  /** Calls per organization per window. */
  rateLimitPerMinute: number;
  /** Length of a rate-limit window: a minute on the platform; tests shorten it (clients only read the headers). */
  windowMs: number;
  /** Until this time (epoch ms), every call answers 429 with Reset at the storm's end. */
  storm429Until: number;
  /** Share of calls (0..1) answered with `errorStatus`. */
  errorRate: number;
  errorStatus: 500 | 502 | 503 | 504;
  /** Only calls with this HTTP method get `errorStatus` ('' for every method), e.g. 'POST' to fail writes only. */
  errorMethod: string;
  /** Share of calls (0..1) that hang for `hangMs` before answering. */
  timeoutRate: number;
  hangMs: number;
  /** Every call answers 503 (API in maintenance). */
  down: boolean;
}

export const DEFAULT_SCENARIO: Scenario = {
  latencyMs: 0,
  rateLimitPerMinute: 240,
  windowMs: 60_000,
  storm429Until: 0,
  errorRate: 0,
  errorStatus: 500,
  errorMethod: '',
  timeoutRate: 0,
  hangMs: 60_000,
  down: false,
};

interface Window {
  startedAt: number;
  resetAt: number;
  count: number;
}

/** What the sandbox saw, for tests and benchmarks: calls accepted in each window of each organization. */
export interface WindowRecord {
  orgId: string;
  startedAt: number;
  count: number;
}

export class PlatformState {
  world: World;
  scenario: Scenario;
  private readonly windows = new Map<string, Window>();
  readonly history: WindowRecord[] = [];
  /** Requests by method and path template, for tests that count calls (for example creations). */
  readonly calls: { method: string; path: string; status: number; orgId: string | null; at: number }[] = [];
  /** Per organization, every call the rate limit judged: accepted, or answered 429. */
  readonly organizations = new Map<string, { accepted: number; refused429: number }>();
  private nextId = 5_000_000;
  private startedAt: number;

  constructor(
    private readonly options: GeneratorOptions & { rateLimitPerMinute?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.world = generateWorld(options);
    this.startedAt = now();
    this.scenario = { ...DEFAULT_SCENARIO, rateLimitPerMinute: options.rateLimitPerMinute ?? 240 };
  }

  /**
   * The world's time, for what the platform dates and measures (time ranges, windows in effect, the usage
   * month): the real clock, or, when the world was given a fixed moment, that moment moving on with real time.
   */
  worldTime(): number {
    return this.options.now === undefined ? this.now() : this.options.now + (this.now() - this.startedAt);
  }

  /** Puts the world back to its generated state and clears scenarios and counters. */
  reset(): void {
    this.world = generateWorld(this.options);
    this.startedAt = this.now();
    this.scenario = { ...DEFAULT_SCENARIO, rateLimitPerMinute: this.options.rateLimitPerMinute ?? 240 };
    this.windows.clear();
    this.history.length = 0;
    this.calls.length = 0;
    this.organizations.clear();
  }

  /** Changes the scenario; a new limit or window length starts fresh windows, as a new plan would. */
  setScenario(next: Scenario): void {
    const reshaped =
      next.rateLimitPerMinute !== this.scenario.rateLimitPerMinute || next.windowMs !== this.scenario.windowMs;
    this.scenario = next;
    if (reshaped) this.windows.clear();
  }

  /** Remembers a call for tests and benchmarks (the most recent ones). */
  recordCall(call: PlatformState['calls'][number]): void {
    pushBounded(this.calls, call, LIMITS.calls);
  }

  newId(): string {
    return String(++this.nextId);
  }

  /** Counts a call the platform accepted, or answered 429 (over the limit or in a 429 storm). */
  countCall(orgId: string, accepted: boolean): void {
    const counts = this.organizations.get(orgId) ?? { accepted: 0, refused429: 0 };
    if (accepted) counts.accepted += 1;
    else counts.refused429 += 1;
    this.organizations.set(orgId, counts);
  }

  findToken(value: string): Token | undefined {
    return this.world.tokens.find((token) => token.token === value);
  }

  /**
   * Counts a call against the organization's window. The window starts with the first call after the
   * previous one rolled over and lasts a minute; past the limit, calls are refused.
   */
  consume(orgId: string): { allowed: boolean; limit: number; remaining: number; resetAt: number } {
    const now = this.now();
    const limit = this.scenario.rateLimitPerMinute;
    let window = this.windows.get(orgId);
    if (!window || now >= window.resetAt) {
      window = { startedAt: now, resetAt: now + this.scenario.windowMs, count: 0 };
      this.windows.set(orgId, window);
      pushBounded(this.history, { orgId, startedAt: now, count: 0 }, LIMITS.windows);
    }
    const allowed = window.count < limit;
    if (allowed) {
      window.count += 1;
      const record = this.history.findLast((entry) => entry.orgId === orgId);
      if (record) record.count = window.count;
    }
    return { allowed, limit, remaining: Math.max(0, limit - window.count), resetAt: window.resetAt };
  }
}
