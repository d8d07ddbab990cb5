import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  DATABASE_FAULT_MESSAGES,
  DATABASE_RETRY_AFTER_SECONDS,
  PLATFORM_TOKEN_REFUSED,
  type ApiError,
} from '@ce/contract';
import { PlatformError } from '@ce/platform-client';
import { databaseFault } from './database-faults.js';
import { isRecord } from './json.js';
import { isMalformedUpload, MALFORMED_UPLOAD_MESSAGE } from './uploads.js';

/** An error the caller should see as is: status, stable code, plain message. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly fields?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** An error's code in words (Node's `EPERM`, a parser's `FST_...`, a driver's SQLSTATE), when it carries one. */
export const errorCode = (error: unknown): string | undefined =>
  isRecord(error) && typeof error.code === 'string' ? error.code : undefined;

export const unauthorized = (message = 'User not authenticated') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, 'forbidden', message);

function body(requestId: string, code: string, message: string, fields?: ApiError['error']['fields']): ApiError {
  return { error: { code, message, requestId, ...(fields ? { fields } : {}) } };
}

/**
 * One JSON error shape for every API error. Unexpected errors are logged with their stack and
 * answered with a generic message: internals never reach the browser.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(body(request.id, error.code, error.message, error.fields));
    }
    // A customer's token the platform refused, wherever a handler let it through: one code the web app knows.
    if (error instanceof PlatformError && error.status === 401) {
      return reply.status(401).send(body(request.id, 'invalid_platform_token', PLATFORM_TOKEN_REFUSED));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value',
      }));
      return reply
        .status(400)
        .send(body(request.id, 'validation_failed', fields[0]?.message ?? 'Invalid request', fields));
    }
    if (isMalformedUpload(error)) {
      return reply.status(400).send(body(request.id, 'malformed_upload', MALFORMED_UPLOAD_MESSAGE));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send(body(request.id, 'internal', 'Internal server error'));
    }
    // The toolkit's own database away or full: not the caller's fault, and it passes; said in words.
    const fault = databaseFault(error);
    if (fault) {
      request.log.error({ err: error, fault }, 'request failed: the database is unreachable or its disk is full');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(
          fault === 'unreachable'
            ? body(request.id, 'database_unavailable', DATABASE_FAULT_MESSAGES.unreachable)
            : body(request.id, 'disk_full', DATABASE_FAULT_MESSAGES.diskFull),
        );
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send(body(request.id, 'internal', 'Internal server error'));
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): safe to show.
    return reply.status(status).send(body(request.id, error.code ?? 'bad_request', error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(body(request.id, 'not_found', `No such operation: ${request.method} ${request.url.split('?')[0]}`));
  });
}

/** The response schemas of a route's error answers: the one error shape, under each status it may answer. */
export function errorResponses<const S extends readonly number[]>(
  ...statuses: S
): { [K in S[number]]: typeof apiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as {
    [K in S[number]]: typeof apiErrorSchema;
  };
}
