import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { PlatformClient } from '@ce/platform-client';
import type { Sandbox } from '@ce/sandbox';
import type { AppConfig } from './config/config.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { sessionJobs } from './modules/auth/sessions.job.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import type { AlertsMigrationService } from './modules/alerts-migration/alerts-migration.service.js';
import type { BackupJob } from './modules/backup-restore/backup.job.js';
import type { ChangeSetJob } from './core/change-sets/job.js';
import { registerGroupTools } from './group-tools.js';
import type { BackupsService } from './modules/backup-restore/backups.service.js';
import type { BulkService } from './modules/bulk/bulk.service.js';
import { DashboardsRepository } from './modules/dashboards/dashboards.repository.js';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes.js';
import { DashboardsService } from './modules/dashboards/dashboards.service.js';
import { explorerRoutes } from './modules/explorer/explorer.routes.js';
import { ExplorerService } from './modules/explorer/explorer.service.js';
import { diagnosticsJobs } from './modules/diagnostics/diagnostics.job.js';
import { DiagnosticsRepository } from './modules/diagnostics/diagnostics.repository.js';
import { diagnosticsRoutes } from './modules/diagnostics/diagnostics.routes.js';
import { DiagnosticsService } from './modules/diagnostics/diagnostics.service.js';
import { pcapJobs } from './modules/pcap/pcap.job.js';
import { PcapRepository } from './modules/pcap/pcap.repository.js';
import { pcapRoutes } from './modules/pcap/pcap.routes.js';
import { PcapService } from './modules/pcap/pcap.service.js';
import { SheetParser } from './modules/tracker/sheet-parser.js';
import { trackerJobs } from './modules/tracker/tracker.job.js';
import { TrackerRepository } from './modules/tracker/tracker.repository.js';
import { trackerRoutes } from './modules/tracker/tracker.routes.js';
import { TrackerService } from './modules/tracker/tracker.service.js';
import { customerRoutes } from './modules/customer/customer.routes.js';
import { CustomerService } from './modules/customer/customer.service.js';
import { identityJobs } from './modules/identity/identity.job.js';
import { IdentityRepository } from './modules/identity/identity.repository.js';
import { compatRoutes } from './modules/compat/compat.routes.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { FeedbackService } from './modules/feedback/feedback.service.js';
import { ApiTokensRepository } from './modules/api-tokens/api-tokens.repository.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { IdentityService } from './modules/identity/identity.service.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { ReportJobs } from './modules/reports/reports.job.js';
import { ReportsRepository } from './modules/reports/reports.repository.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { ReportsService } from './modules/reports/reports.service.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { SsoService } from './modules/sso/sso.service.js';
import { usageRoutes } from './modules/usage/usage.routes.js';
import { UsageRepository } from './modules/usage/usage.repository.js';
import { UsageService } from './modules/usage/usage.service.js';
import { seedDemoAccounts } from './modules/users/demo-accounts.js';
import { configureHashing } from './modules/users/passwords.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { registerAccessControl } from './core/access.js';
import type { CookieSecurity } from './core/cookies.js';
import { prepareDataDir } from './core/data-dir.js';
import { openDatabase, type Database, type DatabaseTarget } from './core/database.js';
import { ExclusiveLocks } from './core/exclusive-locks.js';
import { registerRequestTimeouts } from './core/request-timeouts.js';
import { SharedRateBudgets } from './core/rate-budget.js';
import { WebexDeliveries } from './adapters/webex-delivery.js';
import { Metrics } from './core/metrics.js';
import { SharedThrottle, sharedStateJobs } from './core/shared-throttle.js';
import { registerErrorHandling } from './core/errors.js';
import { connectExternals } from './adapters/externals.js';
import { startJobs } from './core/jobs.js';
import { loggerOptions } from './core/logging.js';
import { registerPlugins } from './core/plugins.js';
import { JobQueue } from './core/queue.js';
import { SealedTokens, tokenJobs } from './core/sealed-tokens.js';
import { loadOrCreateSecret, openTokenVault } from './core/secrets.js';
import { registerWebApp } from './core/web-app.js';

export interface BuildOptions {
  /** Overrides where the data lives (tests use an in-memory PGlite or a throwaway PostgreSQL database). */
  database?: DatabaseTarget;
  /** Where log lines go (tests capture them). */
  logDestination?: DestinationStream;
  /**
   * The product's clock for what reports date and measure (tests pass a fixed one, so a run passes at any
   * hour of any day); the sandbox's world is spread back from the same moment. The system clock by default.
   */
  clock?: () => Date;
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
    customer: CustomerService;
    reports: ReportsService;
    bulk: BulkService;
    migration: AlertsMigrationService;
    backups: BackupsService;
    dashboards: DashboardsService;
    tracker: TrackerService;
  };
  /** The background jobs of the modules that have them (tests play the worker through these). */
  jobs: { reports: ReportJobs; bulk: ChangeSetJob; backups: BackupJob };
  /** The stand-ins of the external systems, when this instance mounts them (demo mode with PLATFORM_API_URL unset). */
  sandbox: Sandbox | null;
  /** The customer tokens held for jobs. */
  tokens: SealedTokens;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

function createServer(config: AppConfig, options: BuildOptions) {
  const app = Fastify({
    logger: options.logDestination
      ? { ...loggerOptions(config.logLevel, config.instanceId), stream: options.logDestination }
      : loggerOptions(config.logLevel, config.instanceId),
    // A hop count trusts that many proxies nearest the server; addresses trust those proxies only.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Backstops at the socket (an upload is the longest a request may take to arrive, or stay silent);
    // each route's body has its own, shorter limit (registerRequestTimeouts).
    requestTimeout: config.requestTimeouts.uploadMs,
    connectionTimeout: config.requestTimeouts.uploadMs,
    requestIdHeader: 'x-request-id',
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Headers arrive within the request limit, whatever the route.
  app.server.headersTimeout = Math.min(config.requestTimeouts.requestMs, config.requestTimeouts.uploadMs);
  registerRequestTimeouts(app, config.requestTimeouts);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return app;
}

/**
 * Builds the whole application without listening: the data and the queue, plugins, then each module
 * (its services, routes and jobs), the web app, and the workers on instances that take jobs.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const target: DatabaseTarget =
    options.database ??
    (config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });
  const app = createServer(config, options);
  if (target.kind === 'pglite' && target.dataDir !== null) prepareDataDir(config.dataDir);
  configureHashing(config.hashingConcurrency);
  const database = await openDatabase(target, app.log);
  const { db } = database;
  const queue = new JobQueue(database.sql, app.log);
  app.addHook('onClose', async () => {
    await queue.stop(config.shutdownGraceMs);
    await database.close();
  });

  try {
    const throttle = new SharedThrottle(db);
    const metrics = new Metrics(database.sql, config.instanceId);
    metrics.register(app, config.metricsToken);
    await registerPlugins(app, config, throttle);
    registerErrorHandling(app);
    // On PostgreSQL every instance and worker draws on one budget per organization; PGlite has one process.
    const budgets = database.kind === 'postgres' ? new SharedRateBudgets(db) : undefined;
    const { sandbox, platform, webex, mailer, crm, openApi } = await connectExternals(app, config, {
      clock: options.clock,
      limiters: budgets,
      observer: metrics.platform,
    });
    const tokens = new SealedTokens(db, openTokenVault(config, app.log));
    const locks = new ExclusiveLocks(db);
    const usage = new UsageService(new UsageRepository(db), config.provisionedTestsBaseline);

    // Sessions, identity and accounts.
    const usersRepository = new UsersRepository(db);
    const auth = new AuthService(new SessionsRepository(db), { ...config.session, demoMode: config.demoMode });
    const identity = new IdentityService(usersRepository, new IdentityRepository(db), auth, mailer, {
      passwordPolicy: config.passwordPolicy,
      throttle: { ...config.signIn, windowMs: config.signIn.lockMs, baseDelayMs: 250, maxDelayMs: 4000 },
      demoMode: config.demoMode,
      passwordResetEnabled: config.passwordResetEnabled,
      logger: app.log,
    });
    const audit = new AuditRepository(db);
    const apiTokens = new ApiTokensService({
      repository: new ApiTokensRepository(db),
      audit,
      security: new IdentityRepository(db),
      maxDays: config.apiTokenMaxDays,
    });
    const users = new UsersService(usersRepository, audit, (account) => apiTokens.accountChanged(account));
    const sso = config.oidc
      ? new SsoService(
          { ...config.oidc, publicUrl: config.publicUrl },
          usersRepository,
          auth,
          loadOrCreateSecret(config.secretsDir, 'cookie', config.cookieSecret),
          app.log,
        )
      : null;
    const cookies: CookieSecurity = {
      secure: (request: FastifyRequest) =>
        config.session.cookieSecure === 'auto' ? request.protocol === 'https' : config.session.cookieSecure,
    };
    registerAccessControl(app, auth, cookies, apiTokens);
    await app.register(authRoutes, {
      auth,
      appInfo: {
        supportEmail: config.supportEmail,
        demoMode: config.demoMode,
        passwordPolicy: config.passwordPolicy,
        sso: { enabled: sso !== null, label: config.oidc?.label ?? 'Sign in with SSO' },
        passwordResetEnabled: config.passwordResetEnabled && mailer.available,
      },
      providerLogoutUrl: async (idToken) => (sso ? sso.logoutUrl(idToken) : undefined),
    });
    await app.register(identityRoutes, { identity, sessionMaxAgeMs: config.session.absoluteTimeoutMs });
    await app.register(apiTokensRoutes, { apiTokens });
    await app.register(ssoRoutes, { sso, sessionMaxAgeMs: config.session.absoluteTimeoutMs });
    await app.register(usersRoutes, { users });
    await app.register(usageRoutes, { usage });
    await app.register(feedbackRoutes, {
      feedback: new FeedbackService({ mailer, audit, throttle, supportEmail: config.supportEmail }),
    });

    // The tools that act with a customer's token.
    const customer = new CustomerService(platform);
    await app.register(customerRoutes, { customer });
    const reportsRepository = new ReportsRepository(db);
    const reports = new ReportsService({
      repository: reportsRepository,
      queue,
      tokens,
      customer,
      delivers: webex !== null,
      usage,
    });
    const reportJobs = new ReportJobs({
      repository: reportsRepository,
      queue,
      tokens,
      platform,
      webex: webex ? new WebexDeliveries(db, webex) : null,
      logger: app.log,
      instanceId: config.instanceId,
      leaseMs: config.jobLeaseMs,
      metrics,
      clock: options.clock,
    });
    await app.register(reportsRoutes, { reports });
    // Every write into a customer's account goes through one change-set engine; backups read groups whole.
    const { bulk, bulkJob, migration, backups, backupJob, backupRestore } = await registerGroupTools(app, {
      db,
      queue,
      tokens,
      platform,
      customer,
      usage,
      audit,
      webex,
      config,
      metrics,
    });
    const dashboards = new DashboardsService({
      repository: new DashboardsRepository(db),
      platform,
      customer,
      usage,
      audit,
    });
    await app.register(dashboardsRoutes, { dashboards });
    const parser = new SheetParser({ logger: app.log });
    app.addHook('onClose', async () => parser.close());
    const trackerRepository = new TrackerRepository(db);
    const tracker = new TrackerService({
      parser,
      locks,
      crm,
      repository: trackerRepository,
      usage,
      crmNames: {
        engagementObject: config.salesforce.engagementObject,
        engagementField: config.salesforce.engagementField,
        taskKeyField: config.salesforce.taskKeyField,
      },
    });
    await app.register(trackerRoutes, { tracker });
    const pcapRepository = new PcapRepository(db);
    const pcap = new PcapService({ repository: pcapRepository, webex, maxBytes: config.pcapMaxBytes });
    await app.register(pcapRoutes, { pcap });
    await app.register(explorerRoutes, {
      explorer: new ExplorerService({ platform, audit, documentUrl: openApi.url, fetch: openApi.fetch }),
    });
    const diagnosticsRepository = new DiagnosticsRepository(db);
    await app.register(diagnosticsRoutes, {
      diagnostics: new DiagnosticsService({ repository: diagnosticsRepository, platform, webex }),
    });
    // What ended badly, told wherever the user is in the app.
    await app.register(notificationsRoutes, {
      notifications: new NotificationsService([reports, bulk, migration, backupRestore]),
    });
    // The original services' calls, each translated onto the operations above (decision 0027).
    await app.register(compatRoutes, { prefixes: config.compatPrefixes });

    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const checks = await Promise.allSettled([database.ping(), queue.ping()]);
      const [store, jobs] = checks.map((check) => (check.status === 'fulfilled' ? 'ok' : 'unreachable'));
      const ready = store === 'ok' && jobs === 'ok';
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', database: store, queue: jobs });
    });
    registerWebApp(app, config.webDistDir);
    if (config.demoMode) await seedDemoAccounts(usersRepository, config.demoPassword);

    // pg-boss installs its schema on first start; instances starting together take turns (it races otherwise).
    await database.exclusively(() => queue.start());
    if (config.workersEnabled) {
      await startJobs(queue, { metrics, logger: app.log }, [
        ...sessionJobs(auth, app.log),
        ...identityJobs(identity, config.retentionDays, app.log),
        ...reportJobs.jobs(config.retentionDays),
        ...bulkJob.jobs(config.retentionDays),
        ...backupJob.jobs(config.backupRetentionDays),
        ...pcapJobs(pcapRepository, config.retentionDays, app.log),
        ...diagnosticsJobs(diagnosticsRepository, config.retentionDays, app.log),
        ...trackerJobs(trackerRepository, config.retentionDays, app.log),
        ...tokenJobs(tokens, app.log),
        ...sharedStateJobs({ throttle, locks, budgets }, app.log),
      ]);
      // The embedded database belongs to this process alone: whatever was running died with the last one.
      const embedded = database.kind === 'pglite';
      await reportJobs.recoverOrphans(embedded);
      await bulkJob.recoverOrphans(embedded);
      await backupJob.recoverOrphans(embedded);
      await tokens.sweep();
    }

    await app.ready();
    return {
      app,
      database,
      queue,
      services: {
        auth,
        identity,
        users,
        usage,
        platform,
        audit,
        customer,
        reports,
        bulk,
        migration,
        backups,
        dashboards,
        tracker,
      },
      jobs: { reports: reportJobs, bulk: bulkJob, backups: backupJob },
      sandbox,
      tokens,
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}
