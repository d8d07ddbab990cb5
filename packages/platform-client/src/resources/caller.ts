import { z } from 'zod';
import { PlatformError } from '../errors.js';
import type { CallOptions, PlatformAuth, PlatformHttp, Query } from '../http.js';
import { linksSchema } from '../schemas.js';

/** A time range: a window such as `7d`, or start and end dates (ISO-8601 UTC); never both. */
export type TimeRange = { window: string } | { startDate: string; endDate: string };

export const rangeQuery = (range: TimeRange | undefined): Query =>
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

/**
 * A value from a fixed list (a test type, an endpoint test's type) as a path segment; anything else is refused
 * before a call is sent.
 */
export function knownSegment(value: string, known: readonly string[], what: string): string {
  if (!known.includes(value)) throw new PlatformError(400, `"${value}" is not ${what} the platform knows.`);
  return value;
}

const pageLinks = z.looseObject({ _links: linksSchema.optional() });

/** The calls of one caller (token and organization) that every resource makes: checked answers, lists, pages. */
export class Caller {
  constructor(
    readonly http: PlatformHttp,
    readonly auth: PlatformAuth,
  ) {}

  /** One call (GET by default, or the method in `options`) whose answer is checked against `schema`. */
  request<T>(schema: z.ZodType<T>, path: string, what: string, options: CallOptions = {}): Promise<T> {
    return this.http.call<unknown>(this.auth, path, options).then((body) => parse(schema, body, what));
  }

  /** A list answer `{key: [...], _links}`, items checked one schema each. */
  async list<T>(key: string, item: z.ZodType<T>, path: string, what: string, options: CallOptions = {}): Promise<T[]> {
    const body = await this.http.call<unknown>(this.auth, path, options);
    return parse(z.array(item), (body as Record<string, unknown> | undefined)?.[key], what);
  }

  /**
   * Follows `_links.next` until it is absent, yielding each page's whole answer checked against `page` (for
   * readers that need a page's own fields, such as the range a results answer covers). One page at a time is held.
   */
  async *pages<T>(path: string, page: z.ZodType<T>, options: CallOptions = {}): AsyncGenerator<T> {
    let body: unknown = await this.http.call<unknown>(this.auth, path, options);
    for (;;) {
      yield parse(page, body, path);
      const next = parse(pageLinks, body, path)._links?.next?.href;
      if (!next) return;
      body = await this.http.follow<unknown>(this.auth, next, { signal: options.signal, unkept: options.unkept });
    }
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
}
