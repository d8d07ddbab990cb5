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
    },
  };
}

/** Query strings can carry secrets (reset codes, OAuth callbacks): never log them. */
function stripQuery(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const index = url.indexOf('?');
  return index === -1 ? url : `${url.slice(0, index)}?[redacted]`;
}
