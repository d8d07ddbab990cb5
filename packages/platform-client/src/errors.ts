/** One field error from a 400 problem body (`errors[]`). */
export interface PlatformFieldError {
  field?: string;
  code?: string;
  message: string;
}

/**
 * A failed platform call, in words a user can act on. `status` is the HTTP status, 0 for a network
 * failure and -1 for a timeout. Never holds the token, the headers or the request body.
 */
export class PlatformError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly fieldErrors: PlatformFieldError[] = [],
    /** The platform's own detail, when it sent one (problem body `detail` or OAuth `error_description`). */
    public readonly detail?: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }
}

export const TIMEOUT_STATUS = -1;

/** Messages of spec section 8 for direct platform calls and service statuses. */
export function messageForStatus(status: number, timeoutMs?: number): string {
  switch (status) {
    case 0:
      return 'Network error - cannot reach the platform API';
    case TIMEOUT_STATUS:
      return `Request timed out - the platform did not answer within ${Number(((timeoutMs ?? 0) / 1000).toFixed(1))} s`;
    case 400:
      return 'Bad request - check test configuration';
    case 401:
      return 'Unauthorized - check your OAuth token';
    case 403:
      return 'Forbidden - insufficient permissions';
    case 404:
      return 'Not found - the endpoint or resource does not exist';
    case 429:
      return 'Rate limit exhausted for the organization';
    case 500:
      return 'Platform server error (500)';
    case 502:
    case 503:
      return `Platform temporarily unavailable (${status})`;
    case 504:
      return 'Platform gateway timeout (504)';
    default:
      return `Platform error (${status})`;
  }
}

/** Builds the error for an HTTP answer from its status and problem body. */
export function errorFromResponse(status: number, body: unknown): PlatformError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const fieldErrors = Array.isArray(problem.errors)
    ? problem.errors
        .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
        .map((item) => ({
          field: typeof item.field === 'string' ? item.field : undefined,
          code: typeof item.code === 'string' ? item.code : undefined,
          message: typeof item.message === 'string' ? item.message : 'Invalid value',
        }))
    : [];
  const detail =
    typeof problem.detail === 'string'
      ? problem.detail
      : typeof problem.error_description === 'string'
        ? problem.error_description
        : undefined;
  let message = messageForStatus(status);
  if (status === 400 && fieldErrors.length > 0) {
    message += `: ${fieldErrors.map((error) => (error.field ? `${error.field}: ${error.message}` : error.message)).join('; ')}`;
  }
  return new PlatformError(status, message, fieldErrors, detail);
}

/** A refusal by an operation's own limit: its words, and when to try again when the platform said. */
export function operationLimitError(words: string, retryAfter: number | undefined, body: unknown): PlatformError {
  const seconds = retryAfter === undefined ? undefined : Math.max(1, Math.ceil(retryAfter / 1000));
  const when =
    seconds === undefined
      ? 'try again in a few minutes'
      : `try again in ${seconds >= 60 ? `${Math.ceil(seconds / 60)} minute(s)` : `${seconds} s`}`;
  return new PlatformError(429, `${words}: ${when}.`, [], errorFromResponse(429, body).detail);
}
