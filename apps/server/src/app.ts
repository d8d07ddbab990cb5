import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { PlatformClient } from '@ce/platform-client';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import type { AppConfig } from './config.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { usageRoutes } from './modules/usage/usage.routes.js';
import { UsageRepository } from './modules/usage/usage.repository.js';
import { UsageService } from './modules/usage/usage.service.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { IdentityRepository } from './modules/identity/identity.repository.js';
import { IdentityService } from './modules/identity/identity.service.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import {
  GENERATED_KINDS,
  REPORT_RECOVERY_QUEUE,
  reportQueue,
  ReportsService,
} from './modules/reports/reports.service.js';
import { ReportsRepository } from './modules/reports/reports.repository.js';
import { bulkRoutes } from './modules/bulk/bulk.routes.js';
import { BULK_RECOVERY_QUEUE, BULK_RUN_QUEUE, BulkService } from './modules/bulk/bulk.service.js';
import { BulkRepository } from './modules/bulk/bulk.repository.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { SsoService } from './modules/sso/sso.service.js';
import { seedDemoAccounts } from './modules/users/demo-accounts.js';
import { configureHashing } from './modules/users/passwords.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { registerAccessControl } from './platform/access.js';
import type { CookieSecurity } from './platform/cookies.js';
import { openDatabase, type Database, type DatabaseTarget } from './platform/database.js';
import { AppError, registerErrorHandling } from './platform/errors.js';
import { loggerOptions } from './platform/logging.js';
import { noMailer, outboxMailer, smtpMailer, type Mailer } from './platform/mailer.js';
import { prepareDataDir } from './platform/data-dir.js';
import { loadOrCreateSecret, loadOrCreateTokenKeys, moveLegacySecrets } from './platform/secrets.js';
import { SealedTokens } from './platform/sealed-tokens.js';
import { TokenVault } from './platform/token-vault.js';
import { WebexClient } from './platform/webex-client.js';
import { injectFetch } from './platform/inject-fetch.js';
import { JobQueue } from './platform/queue.js';

export interface BuildOptions {
  /** Overrides where the data lives (tests use an in-memory PGlite or a throwaway PostgreSQL database). */
  database?: DatabaseTarget;
  /** Where log lines go (tests capture them). */
  logDestination?: DestinationStream;
}

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  queue: JobQueue;
  services: {
    auth: AuthService;
    identity: IdentityService;
    users: UsersService;
    usage: UsageService;
    platform: PlatformClient;
    audit: AuditRepository;
    reports: ReportsService;
    bulk: BulkService;
  };
  /** The stand-ins of the external systems, when this instance mounts them (demo mode with PLATFORM_API_URL unset). */
  sandbox: Sandbox | null;
  /** The customer tokens held for jobs. */
  tokens: SealedTokens;
  /** Deletes what is older than RETENTION_DAYS (the nightly job); `now` for tests. */
  retention: (now?: Date) => Promise<{ securityEvents: number; reports: number; bulkRuns: number }>;
}

/** Where the embedded platform client reaches the sandbox: in-process, never over the network. */
const EMBEDDED_SANDBOX_ORIGIN = 'http://sandbox.internal';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;
const SESSION_PURGE_QUEUE = 'sessions.purge-expired';
const TOKEN_SWEEP_QUEUE = 'tokens.sweep';
/** Operations anyone may call that take credentials or send mail: limited per address before anything else. */
const RATE_LIMITED_OPERATIONS = new Set([
  'login',
  'completeNewPassword',
  'requestPasswordReset',
  'confirmPasswordReset',
  'startSso',
  'finishSso',
]);
const RETENTION_QUEUE = 'retention.prune';
const DAY_MS = 86_400_000;

/**
 * The key ring for customer tokens: REPORTS_KEY (and REPORTS_KEY_PREVIOUS) when set, else the key file
 * of the embedded default in SECRETS_DIR, outside DATA_DIR. Keys an earlier version kept inside
 * DATA_DIR are moved out first.
 */
function tokenVault(config: AppConfig, log: FastifyInstance['log']): TokenVault {
  if (config.tokenKeys) return TokenVault.fromBase64(config.tokenKeys.current, config.tokenKeys.previous);
  const moved = moveLegacySecrets(config.dataDir, config.secretsDir);
  if (moved.length > 0)
    log.warn(
      { moved, secretsDir: config.secretsDir },
      'keys moved out of DATA_DIR; once running jobs finish, retire the old token key with `npm run keys -- retire`',
    );
  const keys = loadOrCreateTokenKeys(config.secretsDir);
  return TokenVault.fromBase64(keys.current, keys.previous);
}

/** Builds the whole application without listening: plugins, then platform, then modules, then the web app. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const target: DatabaseTarget =
    options.database ??
    (config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });

  const app = Fastify({
    logger: options.logDestination
      ? { ...loggerOptions(config.logLevel), stream: options.logDestination }
      : loggerOptions(config.logLevel),
    // A hop count trusts that many proxies nearest the server; addresses trust those proxies only.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  if (target.kind === 'pglite' && target.dataDir !== null) prepareDataDir(config.dataDir);
  configureHashing(config.hashingConcurrency);
  const database = await openDatabase(target);
  const queue = new JobQueue(database.sql, app.log);
  app.addHook('onClose', async () => {
    await queue.stop(config.shutdownGraceMs);
    await database.close();
  });

  try {
    await app.register(fastifyCookie);
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          // React sets style properties through the DOM, which the policy allows; no inline <style> or style="".
          styleSrc: ["'self'"],
          scriptSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
    });
    await app.register(fastifyRateLimit, {
      max: config.publicRateLimitPerMinute,
      timeWindow: 60_000,
      cache: 50_000,
      allowList: (request) => !RATE_LIMITED_OPERATIONS.has(String(request.routeOptions.schema?.operationId ?? '')),
      errorResponseBuilder: (_request, context) =>
        new AppError(
          429,
          'rate_limited',
          `Too many requests from this address. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`,
        ),
    });
    await app.register(fastifySwagger, {
      openapi: {
        info: {
          title: 'CE Toolkit API',
          version: '0.1.0',
          description:
            'Every operation of the CE Toolkit server. State-changing calls need the `x-csrf-token` header echoing the `ce_csrf` cookie.',
        },
        components: {
          securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'ce_session' } },
        },
        security: [{ session: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

    registerErrorHandling(app);

    const usersRepository = new UsersRepository(database.db);
    const auth = new AuthService(new SessionsRepository(database.db), {
      idleTimeoutMs: config.session.idleTimeoutMs,
      absoluteTimeoutMs: config.session.absoluteTimeoutMs,
      demoMode: config.demoMode,
    });
    // The sandbox (mail outbox, Webex inbox, scenario switches) exists in demo mode only: outside it, a
    // readable outbox would hand anyone the reset codes of every account.
    const sandbox =
      config.demoMode && config.platformApiUrl === null
        ? new Sandbox({ ...config.sandbox, webexBotToken: config.webex.botToken })
        : null;
    const mailer: Mailer = config.mail.smtpUrl
      ? smtpMailer(config.mail.smtpUrl, config.mail.from)
      : sandbox
        ? outboxMailer(sandbox.mail)
        : noMailer;
    const identity = new IdentityService(usersRepository, new IdentityRepository(database.db), auth, mailer, {
      passwordPolicy: config.passwordPolicy,
      throttle: {
        maxFailures: config.signIn.maxFailures,
        windowMs: config.signIn.lockMs,
        lockMs: config.signIn.lockMs,
        baseDelayMs: 250,
        maxDelayMs: 4000,
      },
      demoMode: config.demoMode,
      passwordResetEnabled: config.passwordResetEnabled,
      logger: app.log,
    });
    const users = new UsersService(usersRepository);
    const audit = new AuditRepository(database.db);
    const usage = new UsageService(new UsageRepository(database.db), config.provisionedTestsBaseline);
    const cookies: CookieSecurity = {
      secure: (request: FastifyRequest) =>
        config.session.cookieSecure === 'auto' ? request.protocol === 'https' : config.session.cookieSecure,
    };
    const sso = config.oidc
      ? new SsoService(
          { ...config.oidc, publicUrl: config.publicUrl },
          usersRepository,
          auth,
          loadOrCreateSecret(config.secretsDir, 'cookie', config.cookieSecret),
          app.log,
        )
      : null;

    registerAccessControl(app, auth, cookies);
    await app.register(authRoutes, {
      auth,
      identity,
      users: usersRepository,
      sessionMaxAgeMs: config.session.absoluteTimeoutMs,
      appInfo: {
        supportEmail: config.supportEmail,
        demoMode: config.demoMode,
        passwordPolicy: config.passwordPolicy,
        sso: { enabled: sso !== null, label: config.oidc?.label ?? 'Sign in with SSO' },
        passwordResetEnabled: config.passwordResetEnabled && mailer.available,
      },
      providerLogoutUrl: async (idToken) => (sso ? sso.logoutUrl(idToken) : undefined),
    });
    await app.register(ssoRoutes, { sso, sessionMaxAgeMs: config.session.absoluteTimeoutMs });
    await app.register(usersRoutes, { users, audit });
    await app.register(usageRoutes, { usage });

    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const checks = await Promise.allSettled([database.ping(), queue.ping()]);
      const [db, jobs] = checks.map((check) => (check.status === 'fulfilled' ? 'ok' : 'unreachable'));
      const ready = db === 'ok' && jobs === 'ok';
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', database: db, queue: jobs });
    });

    if (sandbox) await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: config.demoMode });
    const platform = new PlatformClient({
      baseUrl: config.platformApiUrl ?? `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/te/v7`,
      timeoutMs: config.platformTimeoutMs,
      retryBudgetMs: config.platformRetryBudgetMs,
      fetch: sandbox ? injectFetch(app, EMBEDDED_SANDBOX_ORIGIN) : undefined,
      logger: app.log,
    });

    const webexUrl = config.webex.apiUrl ?? (sandbox ? `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/webex` : null);
    const webex = webexUrl
      ? new WebexClient({
          baseUrl: webexUrl,
          botToken: config.webex.botToken ?? sandbox?.webexBotToken ?? '',
          fetch: sandbox && !config.webex.apiUrl ? injectFetch(app, EMBEDDED_SANDBOX_ORIGIN) : undefined,
        })
      : null;
    const tokens = new SealedTokens(database.db, tokenVault(config, app.log));
    const reports = new ReportsService({
      repository: new ReportsRepository(database.db),
      queue,
      tokens,
      platform,
      webex,
      usage,
      logger: app.log,
    });
    await app.register(reportsRoutes, { reports });
    const bulk = new BulkService({
      repository: new BulkRepository(database.db),
      queue,
      tokens,
      platform,
      usage,
      logger: app.log,
    });
    // Runs stop taking items before the queue stops: they resume on the next worker, not after a long wait.
    app.addHook('preClose', async () => bulk.stop());
    await app.register(bulkRoutes, { bulk });

    const retention = async (now = new Date()) => {
      const before = new Date(now.getTime() - config.retentionDays * DAY_MS);
      return {
        securityEvents: await identity.pruneBefore(before),
        reports: await reports.pruneFinished(before),
        bulkRuns: await bulk.pruneFinished(before),
      };
    };

    registerWebApp(app, config.webDistDir);

    if (config.demoMode) await seedDemoAccounts(usersRepository, config.demoPassword);

    await queue.start();
    if (config.workersEnabled) {
      await queue.work(SESSION_PURGE_QUEUE, async () => {
        const purged = await auth.purgeExpired();
        if (purged > 0) app.log.info({ purged }, 'expired sessions removed');
      });
      await queue.schedule(SESSION_PURGE_QUEUE, '*/15 * * * *');
      for (const kind of GENERATED_KINDS) {
        await queue.work<{ reportId: string }>(reportQueue(kind), async ([job]) => {
          if (job) await reports.run(job.data.reportId);
        });
      }
      await queue.work(REPORT_RECOVERY_QUEUE, async () => {
        await reports.recoverOrphans(false);
      });
      await queue.schedule(REPORT_RECOVERY_QUEUE, '* * * * *');
      // The embedded database belongs to this process alone: whatever was running died with the last one.
      await reports.recoverOrphans(database.kind === 'pglite');
      await queue.work<{ runId: string }>(
        BULK_RUN_QUEUE,
        async ([job]) => {
          if (job) await bulk.run(job.data.runId);
        },
        { batchSize: 1 },
      );
      await queue.work(BULK_RECOVERY_QUEUE, async () => {
        await bulk.recoverOrphans(false);
      });
      await queue.schedule(BULK_RECOVERY_QUEUE, '* * * * *');
      await bulk.recoverOrphans(database.kind === 'pglite');
      // Any token no queued or running job refers to, or sealed by a retired key, is deleted.
      await queue.work(TOKEN_SWEEP_QUEUE, async () => {
        const swept = await tokens.sweep();
        if (swept > 0) app.log.info({ swept }, 'sealed tokens no job needs were deleted');
      });
      await queue.schedule(TOKEN_SWEEP_QUEUE, '*/5 * * * *');
      await tokens.sweep();
      await queue.work(RETENTION_QUEUE, async () => {
        const pruned = await retention();
        app.log.info({ ...pruned, retentionDays: config.retentionDays }, 'retention: old records deleted');
      });
      await queue.schedule(RETENTION_QUEUE, '17 3 * * *');
    }

    await app.ready();
    return {
      app,
      database,
      queue,
      services: { auth, identity, users, usage, platform, audit, reports, bulk },
      sandbox,
      tokens,
      retention,
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and any
 * other GET outside /api and /sandbox answered with index.html (history fallback). The build holds a
 * brotli and a gzip copy of each text file; a browser that accepts one gets it as it is.
 */
function registerWebApp(app: FastifyInstance, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` (npm start does this)');
    return;
  }
  void app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    cacheControl: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname.startsWith('/sandbox/')) {
      return reply.callNotFound();
    }
    const candidate = path.join(distDir, path.normalize(pathname));
    if (pathname !== '/' && candidate.startsWith(distDir) && existsSync(candidate) && !candidate.endsWith(path.sep)) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
