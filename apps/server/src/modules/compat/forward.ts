import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  accountGroupsResponseSchema,
  apiErrorSchema,
  COMPAT_MESSAGES,
  CSRF_HEADER,
  type SessionUser,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';

/** An error answer of the product's own operations (`apiErrorSchema`): each part read when it is there. */
const errorAnswer = z.object({
  error: z.object({
    code: apiErrorSchema.shape.error.shape.code.optional().catch(undefined),
    message: apiErrorSchema.shape.error.shape.message.optional().catch(undefined),
    fields: apiErrorSchema.shape.error.shape.fields.catch(undefined),
  }),
});

/** What the product's own operation answered. */
export interface Answer<T> {
  status: number;
  body: T;
  raw: Buffer;
  contentType: string;
}

/** One call of the product's own operations: a JSON body, or a form's bytes (its content type in `headers`). */
interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/**
 * Calls one of the product's own operations with the caller's own credentials (session cookie and CSRF header,
 * or personal token) from the caller's address: the operation checks sign-in, capability, CSRF, pacing and
 * audit exactly as for the browser. An answer of 400 or more is thrown as the operation's own error. The
 * answer's body is read with `schema`, the operation's response schema (none: the caller reads only its bytes).
 */
export async function forward(app: FastifyInstance, request: FastifyRequest, call: Call): Promise<Answer<unknown>>;
export async function forward<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  call: Call,
  schema: z.ZodType<T>,
): Promise<Answer<T>>;
export async function forward(
  app: FastifyInstance,
  request: FastifyRequest,
  call: Call,
  schema: z.ZodType = z.unknown(),
): Promise<Answer<unknown>> {
  const headers: Record<string, string> = {};
  for (const name of ['cookie', 'authorization', CSRF_HEADER, 'user-agent', 'x-forwarded-proto'])
    if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
  const payload = call.payload;
  const response = await app.inject({
    method: call.method,
    url: call.url,
    remoteAddress: request.ip,
    headers: { ...headers, ...(isJson(payload) ? { 'content-type': 'application/json' } : {}), ...call.headers },
    ...(payload === undefined ? {} : { payload: Buffer.isBuffer(payload) ? payload : JSON.stringify(payload) }),
  });
  const contentType = String(response.headers['content-type'] ?? '');
  const body: unknown = contentType.includes('json') && response.body ? JSON.parse(response.body) : undefined;
  if (response.statusCode >= 400) {
    const error = errorAnswer.safeParse(body).data?.error;
    throw new AppError(
      response.statusCode,
      error?.code ?? 'failed',
      error?.message ?? `The operation answered ${response.statusCode}`,
      error?.fields,
    );
  }
  return { status: response.statusCode, body: schema.parse(body), raw: response.rawPayload, contentType };
}

const isJson = (payload: unknown) => payload !== undefined && !Buffer.isBuffer(payload);

/** The original bodies name their user in `cec`: it must be the caller (a body that names a user may name another). */
export function checkCec(user: SessionUser, cec: string | null): void {
  if (cec !== null && cec.trim().toLowerCase() !== user.email.toLowerCase())
    throw new AppError(403, 'cec_mismatch', COMPAT_MESSAGES.cecMismatch);
}

/** Reads an operation's state again until `done` says so, or the time is up (the answer then says it is under way). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/** The token's account groups with their organizations (the product's `listAccountGroups`). */
export interface TokenGroup {
  aid: string;
  accountGroupName: string;
  organizationId: string;
  organizationName: string;
}

export async function tokenGroups(app: FastifyInstance, request: FastifyRequest, token: string): Promise<TokenGroup[]> {
  const answer = await forward(
    app,
    request,
    { method: 'POST', url: '/api/account-groups', payload: { token } },
    accountGroupsResponseSchema,
  );
  return answer.body.accountGroups;
}

/** The organization of the chosen groups (or named, or the token's only one), as the product's operations take it. */
export function organizationOf(
  groups: TokenGroup[],
  chosen: readonly { aid: string }[],
  orgName: string | null,
): { id: string; name: string } {
  const found =
    groups.find((group) => chosen.some((each) => each.aid === group.aid)) ??
    groups.find((group) => orgName !== null && group.organizationName.toLowerCase() === orgName.toLowerCase()) ??
    (new Set(groups.map((group) => group.organizationId)).size === 1 ? groups[0] : undefined);
  if (!found) throw new AppError(400, 'organization_required', 'Please select an organization');
  return { id: found.organizationId, name: found.organizationName };
}
