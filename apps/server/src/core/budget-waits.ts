import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BudgetWait as ApiBudgetWait } from '@ce/contract';
import type { AmbientCall, BudgetWait } from '@ce/platform-client';
import { budgetWaits } from '../db/schema.js';
import type { Db } from './database.js';

/** A wait row not refreshed for this long belongs to a request that ended without saying so (its instance died). */
const STALE_MS = 5_000;
/** Organization names remembered per instance, most recent last. */
const MAX_NAMES = 5_000;

/** A request's reading is told from when it has read this long: the browser asks once its request took a second. */
const READING_TOLD_AFTER_MS = 1_000;
/** And then at most this often. */
const READING_TOLD_EVERY_MS = 500;

type WaitRow = typeof budgetWaits.$inferInsert;
/** What a wait row says besides whose request it is: values, or SQL the database evaluates (its clock). */
type WaitFields = { [K in Exclude<keyof WaitRow, 'userId' | 'requestId'>]?: WaitRow[K] | SQL };

/** The person's request being answered: whose it is, the signal that ends when its browser goes, where it tells. */
interface PersonWaiting {
  request: FastifyRequest;
  signal: AbortSignal;
  waits: BudgetWaits;
  /** Its readings, by noun: every part of the request that reads rules counts into one "Reading rule N of M". */
  readings: Map<string, Reading>;
}

const current = new AsyncLocalStorage<PersonWaiting>();

/**
 * People's requests that wait for a customer's API budget, kept in the database so the browser's poll may reach
 * any instance. The instance that serves a request writes its row while it waits (every second) and deletes it
 * when the slot comes; a browser reads its own rows only.
 */
export class BudgetWaits {
  private readonly names = new Map<string, string>();

  constructor(private readonly db: Db) {}

  /** An organization's name, as an answer to a customer's token gave it: the wait line names the customer. */
  learnName(organizationId: string, name: string): void {
    this.names.delete(organizationId);
    this.names.set(organizationId, name);
    if (this.names.size > MAX_NAMES) {
      const oldest = this.names.keys().next().value;
      if (oldest !== undefined) this.names.delete(oldest);
    }
  }

  private nameOf(organizationKey: string): string | null {
    return organizationKey.startsWith('org:') ? (this.names.get(organizationKey.slice(4)) ?? null) : null;
  }

  /** Records (or ends) a request's wait. Never throws: the wait line is help, not part of the call. */
  async tell(userId: string, requestId: string, wait: BudgetWait): Promise<void> {
    try {
      if (wait.ended) {
        // The row stays, not waiting, while the request still tells how far it read; retention takes it later.
        await this.db
          .update(budgetWaits)
          .set({ waiting: false, endsAt: null, updatedAt: sql`now()` })
          .where(and(eq(budgetWaits.userId, userId), eq(budgetWaits.requestId, requestId)));
        return;
      }
      const endsAt =
        wait.estimateMs === undefined
          ? null
          : sql`now() + ${Math.round(wait.estimateMs)}::int * interval '1 millisecond'`;
      const row = { organizationName: this.nameOf(wait.organizationKey), waiting: true, endsAt, updatedAt: sql`now()` };
      await this.upsert(userId, requestId, row);
    } catch {
      // The database is busy or gone: the request goes on; the person sees a spinner instead of the line.
    }
  }

  /** Records how far a request read. Never throws, like `tell`. */
  async reading(userId: string, requestId: string, noun: string, done: number, total: number): Promise<void> {
    try {
      const row = { readingNoun: noun, readingDone: done, readingTotal: total, updatedAt: sql`now()` };
      await this.upsert(userId, requestId, { waiting: false, ...row }, row);
    } catch {
      // As for a wait: the request goes on.
    }
  }

  private async upsert(
    userId: string,
    requestId: string,
    values: WaitFields,
    changes: WaitFields = values,
  ): Promise<void> {
    await this.db
      .insert(budgetWaits)
      .values({ userId, requestId, ...values })
      .onConflictDoUpdate({ target: [budgetWaits.userId, budgetWaits.requestId], set: changes });
  }

  /** The caller's own request, as the browser asks about it. */
  async read(userId: string, requestId: string): Promise<ApiBudgetWait> {
    const [row] = await this.db
      .select({
        organizationName: budgetWaits.organizationName,
        waiting: budgetWaits.waiting,
        readingNoun: budgetWaits.readingNoun,
        readingDone: budgetWaits.readingDone,
        readingTotal: budgetWaits.readingTotal,
        msLeft: sql<number | null>`extract(epoch from (${budgetWaits.endsAt} - now())) * 1000`.mapWith((value) =>
          value === null ? null : Number(value),
        ),
      })
      .from(budgetWaits)
      .where(
        and(
          eq(budgetWaits.userId, userId),
          eq(budgetWaits.requestId, requestId),
          sql`${budgetWaits.updatedAt} > now() - ${STALE_MS}::int * interval '1 millisecond'`,
        ),
      );
    if (!row) return { waiting: false, organizationName: null, seconds: null, reading: null };
    const seconds = !row.waiting || row.msLeft === null ? null : Math.max(1, Math.ceil(row.msLeft / 1000));
    const reading =
      row.readingNoun === null
        ? null
        : { noun: row.readingNoun, done: row.readingDone ?? 0, total: row.readingTotal ?? 0 };
    return { waiting: row.waiting, organizationName: row.organizationName, seconds, reading };
  }

  /** Retention: rows of requests that ended without deleting theirs. */
  async prune(): Promise<number> {
    const deleted = await this.db
      .delete(budgetWaits)
      .where(lt(budgetWaits.updatedAt, sql`now() - interval '1 hour'`))
      .returning({ requestId: budgetWaits.requestId });
    return deleted.length;
  }

  /**
   * What a platform session made while a signed-in person's request is answered adds to it: it ends when the
   * browser goes (the person cancelled, closed the page) and tells its waits for the budget under the request's
   * id. Sessions made elsewhere (jobs) get nothing.
   */
  ambient(): AmbientCall | undefined {
    const person = current.getStore();
    if (!person) return undefined;
    const { request, signal } = person;
    return {
      signal,
      onBudgetWait: (wait) => {
        const user = request.user;
        if (user) void this.tell(user.id, request.id, wait);
      },
    };
  }
}

/**
 * Runs each API request inside its own context (the request and a signal that aborts when the client goes before
 * the answer), so the platform sessions its handler makes can see it. The context is bound again before the
 * handler runs: reading a request's body from its stream leaves it (as @fastify/request-context does).
 */
export function registerRequestContext(app: FastifyInstance, waits: BudgetWaits): void {
  const contexts = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (request, reply, done) => {
    // The route's path, not the URL as sent (`/%61pi/…` is routed to `/api/…` too).
    if (!(request.routeOptions.url ?? '').startsWith('/api/')) return done();
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('The request was cancelled'));
    });
    current.run({ request, signal: controller.signal, waits, readings: new Map() }, () => {
      // Made inside the context, the resource carries it: whatever runs in its scope sees this request.
      const resource = new AsyncResource('ce-request');
      contexts.set(request, resource);
      resource.runInAsyncScope(done);
    });
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const resource = contexts.get(request);
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
}

/** How far a person's request has read of many items, told where the person waits. */
export interface Reading {
  /** More items to read (their number became known: a list was read). */
  add(count: number): void;
  /** One item read. */
  read(): void;
}

const NOT_TOLD: Reading = { add: () => undefined, read: () => undefined };

/**
 * "Reading rule 140 of 380": the reading of the request being answered, told (from its first second, then twice
 * a second at most) where its browser asks how it waits. One per noun and request, whatever reads. Outside a
 * person's request (a job) it tells nothing.
 */
export function readingProgress(noun: string): Reading {
  const person = current.getStore();
  const user = person?.request.user;
  if (!person || !user) return NOT_TOLD;
  let reading = person.readings.get(noun);
  if (!reading) {
    reading = newReading(person, user.id, noun);
    person.readings.set(noun, reading);
  }
  return reading;
}

function newReading(person: PersonWaiting, userId: string, noun: string): Reading {
  const { request, waits } = person;
  const started = Date.now();
  let done = 0;
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tell = () => {
    timer = undefined;
    if (!person.signal.aborted) void waits.reading(userId, request.id, noun, done, total);
  };
  const changed = () => {
    if (timer) return;
    const first = started + READING_TOLD_AFTER_MS - Date.now();
    timer = setTimeout(tell, Math.max(first, READING_TOLD_EVERY_MS));
    timer.unref();
  };
  return {
    add(count) {
      total += count;
      changed();
    },
    read() {
      done += 1;
      changed();
    },
  };
}
