import type { FastifyInstance } from 'fastify';
import { UNSTORABLE_TEXT_MESSAGES } from '@ce/contract';
import { wellFormedText } from '@ce/platform-client';
import { AppError } from './errors.js';
import { isRecord } from './json.js';

/**
 * Text the database cannot store, refused at the door (decision 0039): PostgreSQL's text and
 * jsonb refuse U+0000, and a lone surrogate is not UTF-8 at all. A request's JSON body, query string, path parameters
 * and form fields are looked at before any handler runs; one holding either is answered 400 naming the field, so the
 * write that would fail (a 500) or the text that would be mended into U+FFFD behind the caller's back never happens.
 * Other control characters are taken as sent: the documents that cannot hold them drop them as they are written.
 */
export type UnstorableProblem = keyof typeof UNSTORABLE_TEXT_MESSAGES;

/** ES2024's `isWellFormed` (Node 20 and later); the project's TypeScript library stops at ES2023. */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** What keeps a string out of the database, if anything. */
export function unstorableProblem(text: string): UnstorableProblem | null {
  if (text.includes('\u0000')) return 'nul';
  return isWellFormed(text) ? null : 'loneSurrogate';
}

/** The longest a field's name is quoted in a message (a key may be as long as the body). */
const NAME_MAX = 64;

/** A field's name as a message may quote it: printable, and short. */
const quoted = (name: string): string => {
  const printable = wellFormedText(name);
  return printable.length > NAME_MAX ? `${printable.slice(0, NAME_MAX)}…` : printable;
};

/** Where a value sits in a body: its key (or index) and where its parent sits; a path is rebuilt only when needed. */
interface Place {
  key: string;
  parent: Place | null;
}

const pathOf = (place: Place | null, last?: string): string => {
  const keys = last === undefined ? [] : [last];
  for (let at = place; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/** The first key or string in a parsed JSON value that the database cannot store, with its path (`a.0.b`). */
export function findUnstorableText(value: unknown): { path: string; problem: UnstorableProblem } | null {
  // Walked with a list, not recursion: a body nested a hundred thousand deep must not overflow the stack.
  const pending: { value: unknown; place: Place | null }[] = [{ value, place: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, place } = next;
    if (typeof current === 'string') {
      const problem = unstorableProblem(current);
      if (problem) return { path: pathOf(place), problem };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        pending.push({ value: current[index], place: { key: String(index), parent: place } });
    } else if (isRecord(current)) {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const problem = unstorableProblem(key);
        if (problem) return { path: pathOf(place, quoted(key)), problem };
      }
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, element] = entries[index] as [string, unknown];
        pending.push({ value: element, place: { key: quoted(key), parent: place } });
      }
    }
  }
  return null;
}

/** The 400 a request gets for text the database cannot store in `field`. */
export function unstorableText(field: string, problem: UnstorableProblem): AppError {
  const name = quoted(field) || 'body';
  const message = UNSTORABLE_TEXT_MESSAGES[problem](name);
  return new AppError(400, 'validation_failed', message, [{ path: name, message }]);
}

/**
 * Refuses, on every route under `prefixes` (the API and the original calls; never the sandbox, whose platform takes
 * what a customer types), a request whose path parameters, query or parsed body hold text the database cannot store.
 * Runs before validation, so before any handler; the error handler answers it without logging the request's text.
 */
export function registerTextAtTheDoor(app: FastifyInstance, prefixes: readonly string[]): void {
  app.addHook('preValidation', async (request) => {
    // The route's own path, not the URL as sent: `/%61pi/…` is routed to `/api/…` but does not start with `/api/`.
    const route = request.routeOptions.url ?? '';
    if (!prefixes.some((prefix) => route.startsWith(prefix))) return;
    for (const part of [request.params, request.query, request.body]) {
      if (part === undefined || part === null || Buffer.isBuffer(part)) continue;
      const found = findUnstorableText(part);
      if (found) throw unstorableText(found.path, found.problem);
    }
  });
}
