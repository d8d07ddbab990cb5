/** The environment variables the server reads, each with its parser and default. */
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  API_TOKEN_DEFAULT_MAX_DAYS,
  COMPAT_DEFAULT_PREFIXES,
  WAIVERS_PER_ORGANIZATION_DEFAULT_MAX,
  WATCH_DEFAULTS,
} from '@ce/contract';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Where an original service's calls are mounted: a path of its own, from / to /, outside /api/. */
const compatPrefix = (fallback: string) =>
  z
    .string()
    .regex(/^\/([A-Za-z0-9._-]+\/)+$/, 'a path that starts and ends with "/", such as /compat/reports/')
    .refine(
      (value) => !value.startsWith('/api/') && !value.startsWith('/sandbox/'),
      'a path outside /api/ and /sandbox/',
    )
    .default(fallback);

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

export function parseTrustProxy(raw: string | undefined): TrustProxy | string {
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
 * Every environment variable the server reads, in one schema. docs/configuration.md's table
 * lists the same variables; `loadConfig` refuses to start on a bad value and names the variable.
 */
export const envSchema = z.object({
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
  /** Requests one instance works on at once before it answers 503 "busy" (decision 0036). */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
  /** How far behind the event loop may fall before API calls are answered 503 "busy"; 0 measures nothing. */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  UPLOAD_TIMEOUT_MS: durationMs(10 * 60_000),
  WORKERS_ENABLED: booleanFromEnv.default(true),
  JOBS_THREAD: booleanFromEnv.default(true),
  INSTANCE_ID: z
    .string()
    .regex(/^[\w.:-]{1,100}$/, 'letters, digits, dots, colons, dashes and underscores, at most 100')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
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
  /** The share of each platform window kept for jobs and scheduled work (background), from 0 to 1. */
  PLATFORM_BACKGROUND_SHARE: z.coerce.number().min(0).max(1).default(0.5),
  /** The most of each platform window an organization's watches (scheduled work) spend, from 0 to 1. */
  PLATFORM_SCHEDULED_SHARE: z.coerce.number().min(0.05).max(1).default(0.5),
  PLATFORM_LANES: booleanFromEnv.default(true),
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
  BACKUP_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  BACKUP_MAX_UNPACKED_MB: z.coerce.number().int().min(1).max(4096).default(512),
  BACKUP_MAX_RATIO: z.coerce.number().int().min(2).max(10_000).default(100),
  BACKUP_QUOTA_MB: z.coerce.number().int().min(1).default(1000),
  COMPAT_REPORTS_PREFIX: compatPrefix(COMPAT_DEFAULT_PREFIXES.reports),
  COMPAT_DASHBOARDS_PREFIX: compatPrefix(COMPAT_DEFAULT_PREFIXES.dashboards),
  COMPAT_TRACKER_PREFIX: compatPrefix(COMPAT_DEFAULT_PREFIXES.tracker),
  COMPAT_API_PREFIX: compatPrefix(COMPAT_DEFAULT_PREFIXES.api),
  API_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(API_TOKEN_DEFAULT_MAX_DAYS),
  WAIVERS_PER_ORGANIZATION_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(WAIVERS_PER_ORGANIZATION_DEFAULT_MAX),
  WATCH_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(WATCH_DEFAULTS.tokenMaxDays),
  WATCH_HISTORY_DAYS: z.coerce.number().int().min(1).max(36500).default(WATCH_DEFAULTS.historyDays),
  WATCH_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(WATCH_DEFAULTS.maxPerUser),
  WATCH_MAX_PER_ORGANIZATION: z.coerce.number().int().min(1).max(10_000).default(WATCH_DEFAULTS.maxPerOrganization),
  WATCH_RUN_NOW_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(WATCH_DEFAULTS.runNowEveryMinutes),
  WATCH_RUNS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(100).default(WATCH_DEFAULTS.runsPerOrganization),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  HASHING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WEBEX_API_URL: z.url().optional(),
  WEBEX_BOT_TOKEN: z.string().min(10).optional(),
  /** A message Webex did not take is tried again after this, doubling up to WEBEX_RETRY_MAX_MS (issue 56). */
  WEBEX_RETRY_FIRST_MS: durationMs(15_000),
  WEBEX_RETRY_MAX_MS: durationMs(10 * 60_000),
  /** A message still not taken this long after it was first tried is given up, and told on its run and in notifications. */
  WEBEX_GIVE_UP_MS: durationMs(6 * 60 * 60_000),
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
  SALESFORCE_ENGAGEMENT_STATUS_FIELD: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/)
    .default('Status__c'),
  SALESFORCE_TASK_KEY_FIELD: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/)
    .default('CE_Toolkit_Key__c'),
});

export type Env = z.infer<typeof envSchema>;

/** The names of every variable the configuration reads (docs/configuration.md documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);
