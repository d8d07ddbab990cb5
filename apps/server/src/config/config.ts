import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { envSchema, parseTrustProxy, VENDOR_API_URL, type Env, type TrustProxy } from './config-env.js';

export { CONFIG_VARIABLES, VENDOR_API_URL, type Env, type TrustProxy } from './config-env.js';

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
  /** The share of each window of an organization's platform budget kept for background calls (jobs). */
  platformBackgroundShare: number;
  /** The most of each window of an organization's platform budget its watches (scheduled work) spend. */
  platformScheduledShare: number;
  /** People's calls before jobs' at a customer's budget (false: first come, first served; for measuring only). */
  platformLanes: boolean;
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
  webex: {
    apiUrl: string | null;
    botToken: string | null;
    /** A message Webex did not take: tried again after `firstMs`, doubling to `maxMs`, given up after `giveUpMs`. */
    retry: { firstMs: number; maxMs: number; giveUpMs: number };
  };
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
    /** The engagement's status field: a value starting with "Closed" takes no new task. */
    engagementStatusField: string;
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
  /** Backups are kept longer than reports: their own setting. */
  backupRetentionDays: number;
  /**
   * What a backup archive may unpack to (read at upload, and once for an archive kept before the item index):
   * in all, and as a multiple of its own size; and what each user's uploaded archives may hold together.
   */
  backupArchives: { maxUnpackedBytes: number; maxRatio: number; quotaBytes: number };
  /** The longest life of a personal API token, in days. */
  apiTokenMaxDays: number;
  /** Account Watch: waivers of findings in force per organization at most. */
  waiversPerOrganizationMax: number;
  /** Account Watch: the longest a customer's token is stored with consent, and how long score history is kept (days). */
  watch: {
    tokenMaxDays: number;
    historyDays: number;
    /** Watches one user may keep, and one organization may have. */
    maxPerUser: number;
    maxPerOrganization: number;
    /** "Run now" runs one watch at most once in this many minutes. */
    runNowEveryMinutes: number;
    /** Runs of one organization's watches working at once; the next is its least recently served owner's. */
    runsPerOrganization: number;
  };
  /** Where the original services' calls are mounted (the compatibility layer). */
  compatPrefixes: { reports: string; dashboards: string; tracker: string; api: string };
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
  /**
   * Past the knee (decision 0036): requests worked at once before callers are answered 503 "busy", and how far
   * behind the event loop may fall before API calls are (0: not measured).
   */
  pressure: { maxInFlight: number; maxEventLoopDelayMs: number };
  /** Whether this instance takes jobs from the queue (an instance can serve HTTP only). */
  workersEnabled: boolean;
  /**
   * Whether an instance that takes jobs on PostgreSQL works them on a thread of its own at a lower CPU priority
   * (decision 0035), so that background work never keeps a person's request waiting for the event loop.
   */
  jobsThread: boolean;
  /** Names this process in job leases and log lines (host, process and a random part by default). */
  instanceId: string;
  /** Connections this instance opens to PostgreSQL at most. */
  databasePoolSize: number;
  /** How long a worker's claim on a job lasts without renewal (renewed every quarter of it). */
  jobLeaseMs: number;
  /** Reports, backups and runs of change sets one instance works on at once (each queue). */
  jobConcurrency: number;
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
  // The browser tests run the demo on a throwaway PostgreSQL database of their own (NODE_ENV=test); nothing else may.
  if (demoMode && !embedded && env.NODE_ENV !== 'test')
    problems.push('DEMO_MODE=true: demo accounts exist only on the embedded database (unset DATABASE_URL)');
  if (env.REPORTS_KEY_PREVIOUS && !env.REPORTS_KEY)
    problems.push('REPORTS_KEY="": required when REPORTS_KEY_PREVIOUS is set (the current key seals new tokens)');

  // Each original service has a path of its own: one nested in another would answer the other's calls.
  const compat = Object.entries({
    COMPAT_REPORTS_PREFIX: env.COMPAT_REPORTS_PREFIX,
    COMPAT_DASHBOARDS_PREFIX: env.COMPAT_DASHBOARDS_PREFIX,
    COMPAT_TRACKER_PREFIX: env.COMPAT_TRACKER_PREFIX,
    COMPAT_API_PREFIX: env.COMPAT_API_PREFIX,
  });
  for (const [index, [name, prefix]] of compat.entries()) {
    const other = compat
      .slice(0, index)
      .find(([, earlier]) => prefix.startsWith(earlier) || earlier.startsWith(prefix));
    if (other)
      problems.push(`${name}=${JSON.stringify(prefix)}: must not be inside, or hold, ${other[0]} (${other[1]})`);
  }

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
    platformBackgroundShare: env.PLATFORM_BACKGROUND_SHARE,
    platformScheduledShare: env.PLATFORM_SCHEDULED_SHARE,
    platformLanes: env.PLATFORM_LANES,
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
    webex: {
      apiUrl: env.WEBEX_API_URL ?? null,
      botToken: env.WEBEX_BOT_TOKEN ?? null,
      retry: { firstMs: env.WEBEX_RETRY_FIRST_MS, maxMs: env.WEBEX_RETRY_MAX_MS, giveUpMs: env.WEBEX_GIVE_UP_MS },
    },
    pcapMaxBytes: env.PCAP_MAX_MB * 1024 * 1024,
    platformOpenApiUrl: env.PLATFORM_OPENAPI_URL ?? null,
    salesforce: {
      loginUrl: env.SALESFORCE_LOGIN_URL ?? null,
      clientId: env.SALESFORCE_CLIENT_ID ?? null,
      clientSecret: env.SALESFORCE_CLIENT_SECRET ?? null,
      apiVersion: env.SALESFORCE_API_VERSION,
      engagementObject: env.SALESFORCE_ENGAGEMENT_OBJECT,
      engagementField: env.SALESFORCE_ENGAGEMENT_FIELD,
      engagementStatusField: env.SALESFORCE_ENGAGEMENT_STATUS_FIELD,
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
    backupRetentionDays: env.BACKUP_RETENTION_DAYS,
    backupArchives: {
      maxUnpackedBytes: env.BACKUP_MAX_UNPACKED_MB * 1024 * 1024,
      maxRatio: env.BACKUP_MAX_RATIO,
      quotaBytes: env.BACKUP_QUOTA_MB * 1024 * 1024,
    },
    apiTokenMaxDays: env.API_TOKEN_MAX_DAYS,
    waiversPerOrganizationMax: env.WAIVERS_PER_ORGANIZATION_MAX,
    watch: {
      tokenMaxDays: env.WATCH_TOKEN_MAX_DAYS,
      historyDays: env.WATCH_HISTORY_DAYS,
      maxPerUser: env.WATCH_MAX_PER_USER,
      maxPerOrganization: env.WATCH_MAX_PER_ORGANIZATION,
      runNowEveryMinutes: env.WATCH_RUN_NOW_EVERY_MINUTES,
      runsPerOrganization: env.WATCH_RUNS_PER_ORGANIZATION,
    },
    compatPrefixes: {
      reports: env.COMPAT_REPORTS_PREFIX,
      dashboards: env.COMPAT_DASHBOARDS_PREFIX,
      tracker: env.COMPAT_TRACKER_PREFIX,
      api: env.COMPAT_API_PREFIX,
    },
    publicRateLimitPerMinute: env.PUBLIC_RATE_LIMIT_PER_MINUTE,
    hashingConcurrency: env.HASHING_CONCURRENCY,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    requestTimeouts: {
      requestMs: env.REQUEST_TIMEOUT_MS,
      uploadMs: Math.max(env.UPLOAD_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS),
    },
    pressure: { maxInFlight: env.MAX_REQUESTS_IN_FLIGHT, maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS },
    workersEnabled: env.WORKERS_ENABLED,
    jobsThread: env.JOBS_THREAD,
    instanceId: env.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    jobLeaseMs: env.JOB_LEASE_MS,
    jobConcurrency: env.JOB_CONCURRENCY,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    metricsToken: env.METRICS_TOKEN ?? null,
  };
}
