import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import { budgetWaits, newRequestId } from './budget-waits';

/** An API answer other than 2xx, with the server's plain-words message. */
export class ApiRequestError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly fields: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

type Listener = (error: ApiRequestError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any call answers 401: the session is gone, the app goes back to sign-in. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

type RefusedListener = (sent: unknown) => void;
const refusedListeners = new Set<RefusedListener>();

/**
 * Called when the platform refused a customer's token a call sent (401 `invalid_platform_token`), with what the
 * call sent: the chosen customer is cleared when it was its token, whichever tool made the call.
 */
export function onPlatformTokenRefused(listener: RefusedListener): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/**
 * Tells the listeners the platform refused the token `sent` carries, for an answer that is not an API error: the
 * explorer's call goes through (200) with the platform's own 401 inside it.
 */
export function announcePlatformTokenRefused(sent: { token: string }): void {
  refusedListeners.forEach((listener) => listener(sent));
}

function readCookie(name: string): string | undefined {
  const cookies = document.cookie.split(';').map((part) => part.trim());
  // Over https the server names its cookies with the __Host- prefix.
  const value = (candidate: string) =>
    cookies.find((part) => part.startsWith(`${candidate}=`))?.slice(candidate.length + 1);
  return value(`__Host-${name}`) ?? value(name);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Don't announce a 401 (used by the session probe itself). */
  expectUnauthorized?: boolean;
  /** Give up after this long with a clear message (the dashboards tool's calls: 30 s). */
  timeoutMs?: number;
}

export const timeoutError = (ms: number) => {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return new ApiRequestError(
    0,
    'timeout',
    `The server did not answer within ${seconds} second${seconds === 1 ? '' : 's'}. Try again.`,
  );
};

/** What a request the person cancelled (while it waited for a customer's API budget) ends with. */
export const CANCELLED_MESSAGE = 'Cancelled.';

/**
 * The one way the web app calls its server: same-origin cookies, the anti-forgery header, one error shape. A
 * request that changes or reads through the server (any but GET) is named (`x-request-id`): when it waits for a
 * customer's API budget, the page says so with a Cancel (lib/budget-waits.ts).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') Object.assign(headers, await csrfHeaders());
  const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const cancel = new AbortController();
  const signals = [options.signal, timeout, cancel.signal].filter((each) => each !== undefined);
  const signal = AbortSignal.any(signals);
  let endWatch: (() => void) | undefined;
  if (method !== 'GET') {
    const requestId = newRequestId();
    headers['x-request-id'] = requestId;
    endWatch = budgetWaits.watch(requestId, () => cancel.abort());
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (cancel.signal.aborted) throw new ApiRequestError(0, 'cancelled', CANCELLED_MESSAGE);
    if (timeout?.aborted && options.timeoutMs) throw timeoutError(options.timeoutMs);
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.');
  } finally {
    endWatch?.();
  }
  const payload: unknown = text ? safeJson(text) : undefined;
  if (response.ok) return payload as T;

  const error = await failure(response.status, response.statusText, payload, options.expectUnauthorized);
  if (error.code === 'invalid_platform_token') refusedListeners.forEach((listener) => listener(options.body));
  throw error;
}

/**
 * A file from the server (a GET, or a POST with a JSON body and the anti-forgery header): the bytes as a
 * Blob, or the same errors as {@link apiRequest} (a JSON error answer read in one place, 401 announced, a
 * network failure in words).
 */
export async function apiBlob(
  path: string,
  options: Pick<RequestOptions, 'signal'> & { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<Blob> {
  const method = options.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(
      path,
      method === 'GET'
        ? { credentials: 'same-origin', signal: options.signal }
        : {
            method,
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json', ...(await csrfHeaders()) },
            body: JSON.stringify(options.body ?? {}),
            signal: options.signal,
          },
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.');
  }
  if (response.ok) return response.blob();
  const text = await response.text();
  throw await failure(response.status, response.statusText, text ? safeJson(text) : undefined);
}

/** The anti-forgery header every state-changing call carries. */
export async function csrfHeaders(): Promise<Record<string, string>> {
  const csrf = readCookie(CSRF_COOKIE) ?? (await primeCsrfCookie());
  return csrf ? { [CSRF_HEADER]: decodeURIComponent(csrf) } : {};
}

/** An error answer as an {@link ApiRequestError}; the session's own 401 is announced (the app signs out). */
export async function failure(
  status: number,
  statusText: string,
  payload: unknown,
  expectUnauthorized = false,
): Promise<ApiRequestError> {
  const body = (await loadErrorReader()).readApiError(payload);
  const error = body
    ? new ApiRequestError(status, body.code, body.message, body.fields)
    : new ApiRequestError(status, 'http_error', `Server error: ${statusText} (${status})`);
  // Only the session's own 401 ends the session; a 401 about a customer's platform token does not.
  if (status === 401 && error.code === 'unauthorized' && !expectUnauthorized) {
    unauthorizedListeners.forEach((listener) => listener(error));
  }
  return error;
}

/** The schema that reads error answers, loaded on the first error (or ahead, see prefetchErrorReader). */
export const loadErrorReader = () => import('./api-error');

/** The server sets the anti-forgery cookie on any API answer; fetch one if the browser has none yet. */
async function primeCsrfCookie(): Promise<string | undefined> {
  await fetch('/api/app-info', { credentials: 'same-origin' }).catch(() => undefined);
  return readCookie(CSRF_COOKIE);
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
