import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BudgetWait as ApiBudgetWait } from '@ce/contract';
import type { AmbientCall, BudgetWait } from '@ce/platform-client';
import { budgetWaits } from '../db/schema.js';
import type { Db } from './database.js';

/** A wait row not refreshed for this long belongs to a request that ended without saying so (its instance died). */
const STALE_MS = 5_000;
/** Organization names remembered per instance, most recent last. */
const MAX_NAMES = 5_000;

/** The person's request being answered: whose it is, and the signal that ends when its browser goes. */
interface PersonWaiting {
  request: FastifyRequest;
  signal: AbortSignal;
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
        await this.db
          .delete(budgetWaits)
          .where(and(eq(budgetWaits.userId, userId), eq(budgetWaits.requestId, requestId)));
        return;
      }
      const endsAt =
        wait.estimateMs === undefined
          ? null
          : sql`now() + ${Math.round(wait.estimateMs)}::int * interval '1 millisecond'`;
      const row = { organizationName: this.nameOf(wait.organizationKey), endsAt, updatedAt: sql`now()` };
      await this.db
        .insert(budgetWaits)
        .values({ userId, requestId, ...row })
        .onConflictDoUpdate({ target: [budgetWaits.userId, budgetWaits.requestId], set: row });
    } catch {
      // The database is busy or gone: the request goes on; the person sees a spinner instead of the line.
    }
  }

  /** The caller's own request, as the browser asks about it. */
  async read(userId: string, requestId: string): Promise<ApiBudgetWait> {
    const [row] = await this.db
      .select({
        organizationName: budgetWaits.organizationName,
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
    if (!row) return { waiting: false, organizationName: null, seconds: null };
    const seconds = row.msLeft === null ? null : Math.max(1, Math.ceil(row.msLeft / 1000));
    return { waiting: true, organizationName: row.organizationName, seconds };
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
export function registerRequestContext(app: FastifyInstance): void {
  const contexts = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('The request was cancelled'));
    });
    current.run({ request, signal: controller.signal }, () => {
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
