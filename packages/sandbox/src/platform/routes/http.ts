import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../../bounded.js';

export const DAY_MS = 86_400_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A problem+json answer, the platform's error shape for 4xx/5xx other than 401. */
export function problem(reply: FastifyReply, status: number, title: string, detail?: string, errors?: unknown[]) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send({
      type: `https://developer.cisco.com/docs/thousandeyes/errors/#${status}`,
      title,
      status,
      detail: detail ?? title,
      instance: reply.request.url.split('?')[0],
      ...(errors ? { errors } : {}),
    });
}

/**
 * The sandbox keeps everything in memory, so what callers can create is bounded, as a plan's quota
 * would: past the limit a creation answers 400 with a LIMIT error.
 */
export function overLimit(reply: FastifyReply, existing: number, what: string, per: string) {
  if (existing < LIMITS.createdPerGroup) return undefined;
  return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
    { code: 'LIMIT', field: what, message: `at most ${LIMITS.createdPerGroup} ${what} per ${per} in the sandbox` },
  ]);
}

export function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  return request.query as Record<string, string | undefined>;
}

export const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];

/** Parses `window` (e.g. 12h, 7d, 3600) or startDate+endDate into [from, to] epoch ms. */
export function timeRange(request: FastifyRequest, now: number, defaultDays: number): [number, number] | 'invalid' {
  const { window, startDate, endDate } = queryOf(request);
  if (window && (startDate || endDate)) return 'invalid';
  if (window) {
    const match = /^(\d+)([smhdw]?)$/.exec(window);
    if (!match) return 'invalid';
    const unit = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[match[2] ?? ''] ?? 1000;
    return [now - Number(match[1]) * unit, now];
  }
  if (startDate || endDate) {
    const from = Date.parse(startDate ?? '');
    const to = endDate ? Date.parse(endDate) : now;
    if (Number.isNaN(from) || Number.isNaN(to) || from > to) return 'invalid';
    return [from, to];
  }
  return [now - defaultDays * DAY_MS, now];
}

/** Cursor pagination: `_links.next.href` carries an opaque cursor until the last page. */
export function paginate<T>(request: FastifyRequest, items: T[], defaultMax: number, base: string) {
  const query = queryOf(request);
  const max = Math.min(Math.max(Number(query.max ?? defaultMax) || defaultMax, 1), 1000);
  let offset = 0;
  if (query.cursor) {
    try {
      offset = Number(JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')).offset) || 0;
    } catch {
      offset = -1;
    }
  }
  if (offset < 0) return 'invalid' as const;
  const pageItems = items.slice(offset, offset + max);
  const path = request.url.split('?')[0]?.replace(/^.*\/v7/, '') ?? '';
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[0] !== 'cursor' && entry[1] !== undefined),
  );
  const selfHref = `${base}${path}${params.size ? `?${params}` : ''}`;
  const links: Record<string, { href: string }> = { self: { href: selfHref } };
  if (offset + max < items.length) {
    const next = new URLSearchParams(params);
    next.set('cursor', Buffer.from(JSON.stringify({ offset: offset + max })).toString('base64url'));
    links.next = { href: `${base}${path}?${next}` };
  }
  if (offset > 0) {
    const previous = new URLSearchParams(params);
    previous.set('cursor', Buffer.from(JSON.stringify({ offset: Math.max(0, offset - max) })).toString('base64url'));
    links.previous = { href: `${base}${path}?${previous}` };
  }
  return { items: pageItems, links };
}

/** Checks a test creation body the way the platform does; returns field errors. */
