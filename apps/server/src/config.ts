import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const durationMs = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * Every environment variable the server reads, in one schema. The README's configuration table
 * lists the same variables; `loadConfig` refuses to start on a bad value and names the variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_MODE: booleanFromEnv.optional(),
  DEMO_PASSWORD: z.string().min(8).default('demo-password'),
  SUPPORT_EMAIL: z.email().default('ce-toolkit-support@example.com'),
  SESSION_IDLE_TIMEOUT_MS: durationMs(8 * 60 * 60 * 1000),
  SESSION_ABSOLUTE_TIMEOUT_MS: durationMs(7 * 24 * 60 * 60 * 1000),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: booleanFromEnv.default(false),
  PROVISIONED_TESTS_BASELINE: z.coerce.number().int().nonnegative().default(8589),
  PLATFORM_API_URL: z.url().optional(),
  WEB_DIST_DIR: z.string().optional(),
  SHUTDOWN_GRACE_MS: durationMs(10_000),
  WORKERS_ENABLED: booleanFromEnv.default(true),
  PLATFORM_TIMEOUT_MS: durationMs(30_000),
  SANDBOX_SEED: z.string().min(1).default('ce-toolkit'),
  SANDBOX_SIZE: z.enum(['demo', 'large']).default('demo'),
  SANDBOX_RATE_LIMIT: z.coerce.number().int().min(1).default(240),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
  PASSWORD_REQUIRE_LOWERCASE: booleanFromEnv.default(true),
  PASSWORD_REQUIRE_UPPERCASE: booleanFromEnv.default(true),
  PASSWORD_REQUIRE_NUMBER: booleanFromEnv.default(true),
  PASSWORD_REQUIRE_SYMBOL: booleanFromEnv.default(true),
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  SIGN_IN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('CE Toolkit <no-reply@ce-toolkit.local>'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ROLE_CLAIM: z.string().min(1).default('locale'),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),
  OIDC_LABEL: z.string().min(1).default('Sign in with SSO'),
  OIDC_ALLOW_INSECURE: booleanFromEnv.default(false),
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REPORTS_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64 (openssl rand -base64 32)')
    .optional(),
  WEBEX_API_URL: z.url().optional(),
  WEBEX_BOT_TOKEN: z.string().min(10).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** `null` means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  logLevel: Env['LOG_LEVEL'];
  demoMode: boolean;
  demoPassword: string;
  supportEmail: string;
  session: { idleTimeoutMs: number; absoluteTimeoutMs: number; cookieSecure: 'auto' | boolean };
  trustProxy: boolean;
  provisionedTestsBaseline: number;
  /** `null` means the sandbox mounted at /sandbox on this server. */
  platformApiUrl: string | null;
  platformTimeoutMs: number;
  sandbox: { seed: string; size: 'demo' | 'large'; rateLimitPerMinute: number };
  passwordPolicy: { minLength: number; lowercase: boolean; uppercase: boolean; number: boolean; symbol: boolean };
  signIn: { maxFailures: number; lockMs: number };
  mail: { smtpUrl: string | null; from: string };
  /** Signs short-lived cookies; several instances must share it. `null`: a key file under DATA_DIR. */
  cookieSecret: string | null;
  /** AES key for tokens kept during report jobs (base64); `null`: a key file under DATA_DIR. */
  reportsKey: string | null;
  /** Webex for report delivery; `null` when neither a URL nor the sandbox is there. */
  webex: { apiUrl: string | null; botToken: string | null };
  /** OpenID Connect sign-in; `null` when OIDC_ISSUER is unset. */
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string | null;
    roleClaim: string;
    scopes: string;
    label: string;
    allowInsecure: boolean;
  } | null;
  webDistDir: string;
  shutdownGraceMs: number;
  /** Whether this instance takes jobs from the queue (an instance can serve HTTP only). */
  workersEnabled: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the configuration from an environment (process.env by default). Throws ConfigError naming each bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}=${JSON.stringify(source[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const env = parsed.data;
  const embedded = env.DATABASE_URL === undefined;
  const demoMode = env.DEMO_MODE ?? embedded;
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
    throw new ConfigError(['OIDC_CLIENT_ID="": required when OIDC_ISSUER is set']);
  }
  if (demoMode && !embedded) {
    throw new ConfigError(['DEMO_MODE=true: demo accounts exist only on the embedded database (unset DATABASE_URL)']);
  }
  const host = env.HOST;
  return {
    env: env.NODE_ENV,
    host,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL ?? null,
    logLevel: env.LOG_LEVEL,
    demoMode,
    demoPassword: env.DEMO_PASSWORD,
    supportEmail: env.SUPPORT_EMAIL,
    session: {
      idleTimeoutMs: env.SESSION_IDLE_TIMEOUT_MS,
      absoluteTimeoutMs: env.SESSION_ABSOLUTE_TIMEOUT_MS,
      cookieSecure: env.COOKIE_SECURE === 'auto' ? 'auto' : env.COOKIE_SECURE === 'true',
    },
    trustProxy: env.TRUST_PROXY,
    provisionedTestsBaseline: env.PROVISIONED_TESTS_BASELINE,
    platformApiUrl: env.PLATFORM_API_URL ?? null,
    platformTimeoutMs: env.PLATFORM_TIMEOUT_MS,
    sandbox: { seed: env.SANDBOX_SEED, size: env.SANDBOX_SIZE, rateLimitPerMinute: env.SANDBOX_RATE_LIMIT },
    passwordPolicy: {
      minLength: env.PASSWORD_MIN_LENGTH,
      lowercase: env.PASSWORD_REQUIRE_LOWERCASE,
      uppercase: env.PASSWORD_REQUIRE_UPPERCASE,
      number: env.PASSWORD_REQUIRE_NUMBER,
      symbol: env.PASSWORD_REQUIRE_SYMBOL,
    },
    signIn: { maxFailures: env.SIGN_IN_MAX_FAILURES, lockMs: env.SIGN_IN_LOCK_MINUTES * 60_000 },
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM },
    cookieSecret: env.COOKIE_SECRET ?? null,
    reportsKey: env.REPORTS_KEY ?? null,
    webex: { apiUrl: env.WEBEX_API_URL ?? null, botToken: env.WEBEX_BOT_TOKEN ?? null },
    oidc: env.OIDC_ISSUER
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID ?? '',
          clientSecret: env.OIDC_CLIENT_SECRET ?? null,
          roleClaim: env.OIDC_ROLE_CLAIM,
          scopes: env.OIDC_SCOPES,
          label: env.OIDC_LABEL,
          allowInsecure: env.OIDC_ALLOW_INSECURE,
        }
      : null,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    workersEnabled: env.WORKERS_ENABLED,
  };
}
