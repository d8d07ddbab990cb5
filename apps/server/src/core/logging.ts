import type { LoggerOptions } from 'pino';

/**
 * Paths pino censors. Headers and cookies are redacted wherever a request or response is logged;
 * anything named like a secret is redacted up to three levels deep (pino needs explicit paths).
 */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'oldPassword',
  'temporaryPassword',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'oauthToken',
  'OAuth',
  'OAuthToken',
  'apiToken',
  'botToken',
  'sessionId',
  'secret',
  'clientSecret',
  'code',
  'authorization',
  'cookie',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

export function loggerOptions(level: string, instance?: string): LoggerOptions {
  return {
    level,
    // Every line names the process that wrote it, so several instances' logs can be read together.
    ...(instance ? { base: { pid: process.pid, instance } } : {}),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req(request: { id?: string; method?: string; url?: string }) {
        return { id: request.id, method: request.method, url: stripQuery(request.url) };
      },
      err: errorForLog,
    },
  };
}

/** Query strings can carry secrets (reset codes, OAuth callbacks): never log them. */
function stripQuery(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const index = url.indexOf('?');
  return index === -1 ? url : `${url.slice(0, index)}?[redacted]`;
}

/** How much of an error's message a log keeps: enough to tell the fault, too little to carry a platform answer. */
export const LOGGED_MESSAGE_CHARS = 300;
const LOGGED_FRAMES = 12;
const LOGGED_CAUSES = 3;

/**
 * What a log says of an error: its class, code, status and message (cut to LOGGED_MESSAGE_CHARS), where it was
 * thrown, and the same of its causes. Nothing else of it: a failed query's error carries its parameters (a
 * platform answer being stored, with the customer's people's names, emails and addresses) in its fields and in its
 * message after "params:", and a database error's detail quotes the row it refused.
 */
export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) {
    return typeof error === 'string' ? cut(error) : typeof error === 'object' && error !== null ? '[object]' : error;
  }
  const code: unknown = Reflect.get(error, 'code');
  const status: unknown = Reflect.get(error, 'statusCode') ?? Reflect.get(error, 'status');
  return {
    type: error.constructor.name,
    // Not `code`: the censor takes every field so named (an OAuth callback's code), an error's code with them.
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    message: cut(withoutParams(error.message)),
    stack: framesOf(error.stack),
    ...(error.cause !== undefined && depth < LOGGED_CAUSES ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

/** drizzle writes a failed query's values after its SQL: the SQL tells the fault, the values are the data. */
function withoutParams(message: string): string {
  const index = message.indexOf('\nparams:');
  return index === -1 ? message : message.slice(0, index);
}

function cut(text: string): string {
  return text.length > LOGGED_MESSAGE_CHARS ? `${text.slice(0, LOGGED_MESSAGE_CHARS)}…` : text;
}

/** The stack's frames only: its first lines repeat the message, whole. */
function framesOf(stack: string | undefined): string | undefined {
  if (stack === undefined) return undefined;
  const frames = stack.split('\n').filter((line) => line.startsWith('    at '));
  return frames.slice(0, LOGGED_FRAMES).join('\n');
}
