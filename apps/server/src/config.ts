import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const durationMs = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** 32 bytes in base64, as `openssl rand -base64 32` prints them. */
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/;

/** The platform's published API address, used outside demo mode when PLATFORM_API_URL is unset (development only). */
export const VENDOR_API_URL = 'https://api.thousandeyes.com/v7';

/**
 * Which proxies may set X-Forwarded-For: none, a number of hops in front of the server, or their
 * addresses (IPs, CIDR ranges, or proxy-addr's names loopback, linklocal, uniquelocal). "true" would
 * trust every hop, letting any client forge its address, so it is refused.
 */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(raw: string | undefined): TrustProxy | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true')
    return 'trusts every hop, so any client could forge its address: give the number of proxies in front of the server (for example 1) or their addresses';
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 10 ? hops : 'more than 10 proxy hops: give their addresses instead';
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => {
    if (PROXY_NAMES.has(entry)) return false;
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return true;
    if (bits === undefined) return false;
    const prefix = Number(bits);
    return !/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128);
  });
  return bad === undefined ? entries : `"${bad}" is neither a hop count nor an address or CIDR range`;
}

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
  SECRETS_DIR: z.string().min(1).optional(),
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
  TRUST_PROXY: z.string().optional(),
  PROVISIONED_TESTS_BASELINE: z.coerce.number().int().nonnegative().default(8589),
  PLATFORM_API_URL: z.url().optional(),
  WEB_DIST_DIR: z.string().optional(),
  SHUTDOWN_GRACE_MS: durationMs(10_000),
  REQUEST_TIMEOUT_MS: durationMs(30_000),
  UPLOAD_TIMEOUT_MS: durationMs(10 * 60_000),
  WORKERS_ENABLED: booleanFromEnv.default(true),
  INSTANCE_ID: z
    .string()
    .regex(/^[\w.:-]{1,100}$/, 'letters, digits, dots, colons, dashes and underscores, at most 100')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  JOB_LEASE_MS: z.coerce
    .number()
    .int()
    .min(2_000)
    .max(10 * 60_000)
    .default(60_000),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  PLATFORM_TIMEOUT_MS: durationMs(30_000),
  PLATFORM_RETRY_BUDGET_MS: durationMs(120_000),
  PLATFORM_RATE_LIMIT_WAIT_MS: durationMs(10 * 60_000),
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
  PASSWORD_RESET_ENABLED: booleanFromEnv.default(true),
  MAIL_FROM: z.string().min(3).default('CE Toolkit <no-reply@ce-toolkit.local>'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ROLE_CLAIM: z.string().min(1).default('locale'),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),
  OIDC_LABEL: z.string().min(1).default('Sign in with SSO'),
  OIDC_ALLOW_INSECURE: booleanFromEnv.default(false),
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REPORTS_KEY: z.string().regex(BASE64_KEY, 'must be 32 bytes in base64 (openssl rand -base64 32)').optional(),
  /** Ids of retired keys (as `npm run keys -- list` or the start log name them), comma-separated. */
  REPORTS_KEY_RETIRED: z
    .string()
    .regex(/^[0-9a-f]{12}(,[0-9a-f]{12})*$/, 'must be a comma-separated list of 12-hex-digit key ids')
    .optional(),
  REPORTS_KEY_PREVIOUS: z
    .string()
    .regex(
      new RegExp(`^${BASE64_KEY.source.slice(1, -1)}(,${BASE64_KEY.source.slice(1, -1)})*$`),
      'must be a comma-separated list of 32-byte keys in base64',
    )
    .optional(),
  OIDC_REQUIRE_VERIFIED_EMAIL: booleanFromEnv.default(true),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  HASHING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WEBEX_API_URL: z.url().optional(),
  WEBEX_BOT_TOKEN: z.string().min(10).optional(),
  PLATFORM_OPENAPI_URL: z.url().optional(),
  PCAP_MAX_MB: z.coerce.number().int().min(1).max(2048).default(100),
  SALESFORCE_LOGIN_URL: z.url().optional(),
  SALESFORCE_CLIENT_ID: z.string().min(1).optional(),
  SALESFORCE_CLIENT_SECRET: z.string().min(1).optional(),
  SALESFORCE_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d$/, 'must look like v60.0')
    .default('v60.0'),
  SALESFORCE_ENGAGEMENT_OBJECT: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/)
    .default('Engagement__c'),
  SALESFORCE_ENGAGEMENT_FIELD: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/)
    .default('Engagement_ID__c'),
  SALESFORCE_TASK_KEY_FIELD: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/)
    .default('CE_Toolkit_Key__c'),
});

export type Env = z.infer<typeof envSchema>;

/** The names of every variable the configuration reads (the README documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** Key files of the embedded default: never inside `dataDir`, so a copy of the data opens no token. */
  secretsDir: string;
  /** `null` means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  logLevel: Env['LOG_LEVEL'];
  demoMode: boolean;
  demoPassword: string;
  supportEmail: string;
  session: { idleTimeoutMs: number; absoluteTimeoutMs: number; cookieSecure: 'auto' | boolean };
  trustProxy: TrustProxy;
  provisionedTestsBaseline: number;
  /** `null` means the sandbox mounted at /sandbox on this server (demo mode only). */
  platformApiUrl: string | null;
  platformTimeoutMs: number;
  /** How long a read keeps being retried after 5xx answers, timeouts and network failures. */
  platformRetryBudgetMs: number;
  /** How long one call keeps waiting out 429 answers (Retry-After and Reset honoured) before it gives up. */
  platformRateLimitWaitMs: number;
  sandbox: { seed: string; size: 'demo' | 'large'; rateLimitPerMinute: number };
  passwordPolicy: { minLength: number; lowercase: boolean; uppercase: boolean; number: boolean; symbol: boolean };
  signIn: { maxFailures: number; lockMs: number };
  /** Reset by a mailed code: on unless PASSWORD_RESET_ENABLED=false (it then needs SMTP, or the sandbox outbox). */
  passwordResetEnabled: boolean;
  mail: { smtpUrl: string | null; from: string };
  /** Signs short-lived cookies; several instances must share it. `null`: a key file under `secretsDir`. */
  cookieSecret: string | null;
  /** AES keys for customer tokens kept during jobs (base64): the current one and older ones still accepted. */
  tokenKeys: { current: string; previous: string[]; retired: string[] } | null;
  /** Webex for report delivery; `null` when neither a URL nor the sandbox is there. */
  webex: { apiUrl: string | null; botToken: string | null };
  /** The platform's OpenAPI document for the API explorer; null means the sandbox's (demo) or the vendor's. */
  platformOpenApiUrl: string | null;
  /** The largest packet capture the support tool takes. */
  pcapMaxBytes: number;
  /** The CRM the time tracker creates tasks in; null credentials mean the sandbox's (demo) or none. */
  salesforce: {
    loginUrl: string | null;
    clientId: string | null;
    clientSecret: string | null;
    apiVersion: string;
    engagementObject: string;
    engagementField: string;
    taskKeyField: string;
  };
  /** OpenID Connect sign-in; `null` when OIDC_ISSUER is unset. */
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string | null;
    roleClaim: string;
    scopes: string;
    label: string;
    allowInsecure: boolean;
    requireVerifiedEmail: boolean;
  } | null;
  /** Security events, throttle rows and finished reports and runs older than this are deleted. */
  retentionDays: number;
  /** Calls per minute per address to the operations that need no session (sign-in, reset, SSO). */
  publicRateLimitPerMinute: number;
  /** Password hashes computed at once; more wait their turn. */
  hashingConcurrency: number;
  webDistDir: string;
  shutdownGraceMs: number;
  /**
   * How long a request may take to arrive (headers and body): REQUEST_TIMEOUT_MS for every route, and
   * UPLOAD_TIMEOUT_MS for the routes that take files. A connection idle for REQUEST_TIMEOUT_MS is closed.
   */
  requestTimeouts: { requestMs: number; uploadMs: number };
  /** Whether this instance takes jobs from the queue (an instance can serve HTTP only). */
  workersEnabled: boolean;
  /** Names this process in job leases and log lines (host, process and a random part by default). */
  instanceId: string;
  /** Connections this instance opens to PostgreSQL at most. */
  databasePoolSize: number;
  /** How long a worker's claim on a job lasts without renewal (renewed every quarter of it). */
  jobLeaseMs: number;
  /** The bearer token GET /metrics asks for; without it, /metrics answers 404. */
  metricsToken: string | null;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Whether `inner` is `outer` or a folder under it. */
function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
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
  const production = env.NODE_ENV === 'production';
  const problems: string[] = [];

  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(`TRUST_PROXY=${JSON.stringify(env.TRUST_PROXY)}: ${trustProxy}`);
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) problems.push('OIDC_CLIENT_ID="": required when OIDC_ISSUER is set');
  if (demoMode && !embedded)
    problems.push('DEMO_MODE=true: demo accounts exist only on the embedded database (unset DATABASE_URL)');
  if (env.REPORTS_KEY_PREVIOUS && !env.REPORTS_KEY)
    problems.push('REPORTS_KEY="": required when REPORTS_KEY_PREVIOUS is set (the current key seals new tokens)');

  const dataDir = path.resolve(env.DATA_DIR);
  const secretsDir = path.resolve(
    env.SECRETS_DIR ?? path.join(path.dirname(dataDir), `${path.basename(dataDir)}.keys`),
  );
  if (isWithin(dataDir, secretsDir))
    problems.push(
      `SECRETS_DIR=${JSON.stringify(env.SECRETS_DIR ?? secretsDir)}: must be outside DATA_DIR, so a copy of the data opens no token`,
    );

  // Several instances share one PostgreSQL: each must seal, open and sign with the same keys.
  if (!embedded) {
    if (!env.REPORTS_KEY)
      problems.push('REPORTS_KEY="": required on PostgreSQL, the same on every instance (openssl rand -base64 32)');
    if (!env.COOKIE_SECRET)
      problems.push('COOKIE_SECRET="": required on PostgreSQL, the same on every instance (32+ characters)');
  }
  if (production) {
    if (demoMode)
      problems.push(
        `DEMO_MODE=${env.DEMO_MODE === undefined ? '(unset: on by default on the embedded database)' : 'true'}: demo mode mounts the sandbox and the demo accounts; set DEMO_MODE=false in production`,
      );
    if (!env.PLATFORM_API_URL)
      problems.push(`PLATFORM_API_URL="": required in production (the platform's API, for example ${VENDOR_API_URL})`);
    if (env.PASSWORD_RESET_ENABLED && !env.SMTP_URL)
      problems.push(
        'SMTP_URL="": required in production while reset by code is on (or set PASSWORD_RESET_ENABLED=false)',
      );
    if (!env.REPORTS_KEY && embedded) problems.push('REPORTS_KEY="": required in production (openssl rand -base64 32)');
    if (!env.COOKIE_SECRET && embedded) problems.push('COOKIE_SECRET="": required in production (32+ characters)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const host = env.HOST;
  return {
    env: env.NODE_ENV,
    host,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`,
    dataDir,
    secretsDir,
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
    trustProxy: trustProxy as TrustProxy,
    provisionedTestsBaseline: env.PROVISIONED_TESTS_BASELINE,
    // Outside demo mode there is no sandbox: the platform is the vendor's unless PLATFORM_API_URL says otherwise.
    platformApiUrl: env.PLATFORM_API_URL ?? (demoMode ? null : VENDOR_API_URL),
    platformTimeoutMs: env.PLATFORM_TIMEOUT_MS,
    platformRetryBudgetMs: env.PLATFORM_RETRY_BUDGET_MS,
    platformRateLimitWaitMs: env.PLATFORM_RATE_LIMIT_WAIT_MS,
    sandbox: { seed: env.SANDBOX_SEED, size: env.SANDBOX_SIZE, rateLimitPerMinute: env.SANDBOX_RATE_LIMIT },
    passwordPolicy: {
      minLength: env.PASSWORD_MIN_LENGTH,
      lowercase: env.PASSWORD_REQUIRE_LOWERCASE,
      uppercase: env.PASSWORD_REQUIRE_UPPERCASE,
      number: env.PASSWORD_REQUIRE_NUMBER,
      symbol: env.PASSWORD_REQUIRE_SYMBOL,
    },
    signIn: { maxFailures: env.SIGN_IN_MAX_FAILURES, lockMs: env.SIGN_IN_LOCK_MINUTES * 60_000 },
    passwordResetEnabled: env.PASSWORD_RESET_ENABLED,
    mail: { smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM },
    cookieSecret: env.COOKIE_SECRET ?? null,
    tokenKeys: env.REPORTS_KEY
      ? {
          current: env.REPORTS_KEY,
          previous: env.REPORTS_KEY_PREVIOUS?.split(',') ?? [],
          retired: env.REPORTS_KEY_RETIRED?.split(',') ?? [],
        }
      : null,
    webex: { apiUrl: env.WEBEX_API_URL ?? null, botToken: env.WEBEX_BOT_TOKEN ?? null },
    pcapMaxBytes: env.PCAP_MAX_MB * 1024 * 1024,
    platformOpenApiUrl: env.PLATFORM_OPENAPI_URL ?? null,
    salesforce: {
      loginUrl: env.SALESFORCE_LOGIN_URL ?? null,
      clientId: env.SALESFORCE_CLIENT_ID ?? null,
      clientSecret: env.SALESFORCE_CLIENT_SECRET ?? null,
      apiVersion: env.SALESFORCE_API_VERSION,
      engagementObject: env.SALESFORCE_ENGAGEMENT_OBJECT,
      engagementField: env.SALESFORCE_ENGAGEMENT_FIELD,
      taskKeyField: env.SALESFORCE_TASK_KEY_FIELD,
    },
    oidc: env.OIDC_ISSUER
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID ?? '',
          clientSecret: env.OIDC_CLIENT_SECRET ?? null,
          roleClaim: env.OIDC_ROLE_CLAIM,
          scopes: env.OIDC_SCOPES,
          label: env.OIDC_LABEL,
          allowInsecure: env.OIDC_ALLOW_INSECURE,
          requireVerifiedEmail: env.OIDC_REQUIRE_VERIFIED_EMAIL,
        }
      : null,
    retentionDays: env.RETENTION_DAYS,
    publicRateLimitPerMinute: env.PUBLIC_RATE_LIMIT_PER_MINUTE,
    hashingConcurrency: env.HASHING_CONCURRENCY,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    requestTimeouts: {
      requestMs: env.REQUEST_TIMEOUT_MS,
      uploadMs: Math.max(env.UPLOAD_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS),
    },
    workersEnabled: env.WORKERS_ENABLED,
    instanceId: env.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    jobLeaseMs: env.JOB_LEASE_MS,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    metricsToken: env.METRICS_TOKEN ?? null,
  };
}
