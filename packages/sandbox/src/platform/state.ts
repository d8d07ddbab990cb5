import { LIMITS, pushBounded } from '../bounded.js';
import { generateWorld, type GeneratorOptions, type World } from './generator.js';
import type { Token } from './model.js';
import { WorldLookup } from './world-lookup.js';
import { applyWorldChange, type WorldChangeRequest, type WorldChangeResult } from './world-changes.js';

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
  /** The scenario of every organization without one of its own. */
  scenario: Scenario;
  /** Scenarios set for one organization only (a test's own copy), by organization id. */
  private readonly scenarios = new Map<string, Scenario>();
  /** The ids of the world's own organizations (not the copies). */
  baseOrganizationIds: string[];
  /** The organization ids of each copy of the world's organizations kept, oldest first. */
  private readonly copies: string[][] = [];
  private copiesMade = 0;
  private readonly windows = new Map<string, Window>();
  readonly history: WindowRecord[] = [];
  /** Requests by method and path template, for tests that count calls (for example creations). */
  readonly calls: { method: string; path: string; status: number; orgId: string | null; at: number }[] = [];
  /** Per organization, every call the rate limit judged: accepted, or answered 429. */
  readonly organizations = new Map<string, { accepted: number; refused429: number }>();
  private nextId = 5_000_000;
  private startedAt: number;
  /** The world's records by id, dropped at every change (`lookup.changed()`: any request that may write calls it). */
  readonly lookup = new WorldLookup(() => this.world);

  constructor(
    private readonly options: GeneratorOptions & { rateLimitPerMinute?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.world = generateWorld(options);
    this.baseOrganizationIds = this.world.organizations.map((org) => org.orgId);
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
    this.scenarios.clear();
    this.copies.length = 0;
    this.windows.clear();
    this.history.length = 0;
    this.calls.length = 0;
    this.organizations.clear();
    // The world is new again: no change was made to it.
    this.changes.length = 0;
    this.lookup.changed();
  }

  /**
   * Adds a copy of the world's organizations: the same names and data under new organization, account group
   * and object ids, with new tokens, so its rate budget and its data are its own. Returns the copy's tokens.
   * Past `LIMITS.organizationCopies` copies, the oldest copy is removed.
   */
  addOrganizationCopy(): Token[] {
    const copy = ++this.copiesMade;
    const added = generateWorld({ ...this.options, copy });
    for (const key of Object.keys(added) as (keyof World)[]) {
      const records = added[key];
      if (!Array.isArray(records)) continue;
      // Cloud agents and roles are the platform's, not an organization's: the world has them already.
      if (key === 'roles') continue;
      const own = key === 'agents' ? added.agents.filter((agent) => agent.agentType !== 'cloud') : records;
      (this.world[key] as unknown[]).push(...own);
    }
    this.copies.push(added.organizations.map((org) => org.orgId));
    if (this.copies.length > LIMITS.organizationCopies) this.removeCopy(this.copies.shift() ?? []);
    this.lookup.changed();
    return added.tokens;
  }

  private removeCopy(orgIds: string[]): void {
    const orgs = new Set(orgIds);
    const aids = new Set(this.world.accountGroups.filter((group) => orgs.has(group.orgId)).map((group) => group.aid));
    const kept = (record: object) =>
      !('orgId' in record && orgs.has(String(record.orgId))) &&
      !('aid' in record && aids.has(String(record.aid))) &&
      !('aids' in record && Array.isArray(record.aids) && record.aids.some((aid) => aids.has(String(aid))));
    for (const key of Object.keys(this.world) as (keyof World)[]) {
      const records = this.world[key];
      if (Array.isArray(records)) (this.world[key] as object[]) = (records as object[]).filter(kept);
    }
    for (const orgId of orgIds) {
      this.scenarios.delete(orgId);
      this.windows.delete(orgId);
      this.organizations.delete(orgId);
    }
  }

  /** The scenario calls of this organization meet: its own, or everyone's. */
  scenarioFor(orgId: string | undefined): Scenario {
    return (orgId === undefined ? undefined : this.scenarios.get(orgId)) ?? this.scenario;
  }

  /**
   * Changes the scenario of every organization, or of one only when `orgId` is given; a new limit or window
   * length starts fresh windows, as a new plan would.
   */
  setScenario(next: Scenario, orgId?: string): void {
    const previous = this.scenarioFor(orgId);
    const reshaped = next.rateLimitPerMinute !== previous.rateLimitPerMinute || next.windowMs !== previous.windowMs;
    if (orgId === undefined) this.scenario = next;
    else this.scenarios.set(orgId, next);
    if (!reshaped) return;
    if (orgId === undefined) this.windows.clear();
    else this.windows.delete(orgId);
  }

  /** Gives an organization back the scenario of everyone. */
  clearScenario(orgId: string): void {
    const had = this.scenarios.get(orgId);
    this.scenarios.delete(orgId);
    if (had && (had.rateLimitPerMinute !== this.scenario.rateLimitPerMinute || had.windowMs !== this.scenario.windowMs))
      this.windows.delete(orgId);
  }

  /** Remembers a call for tests and benchmarks (the most recent ones). */
  recordCall(call: PlatformState['calls'][number]): void {
    pushBounded(this.calls, call, LIMITS.calls);
  }

  newId(): string {
    return String(++this.nextId);
  }

  /** The changes made to the world on request (a watch's planted regressions and fixes), newest last. */
  readonly changes: WorldChangeResult[] = [];

  /** Changes the world now, as a customer's admin would between two runs of a watch (WorldChangeError if it cannot). */
  change(request: WorldChangeRequest): WorldChangeResult {
    const result = applyWorldChange(this.world, request, this.worldTime(), () => this.newId());
    this.lookup.changed();
    pushBounded(this.changes, result, LIMITS.calls);
    return result;
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
    const scenario = this.scenarioFor(orgId);
    const limit = scenario.rateLimitPerMinute;
    let window = this.windows.get(orgId);
    if (!window || now >= window.resetAt) {
      window = { startedAt: now, resetAt: now + scenario.windowMs, count: 0 };
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
