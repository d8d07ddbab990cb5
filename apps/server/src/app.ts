import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { PlatformClient } from '@ce/platform-client';
import type { Sandbox } from '@ce/sandbox';
import type { AppConfig } from './config/config.js';
import { alertsMigrationModule } from './modules/alerts-migration/index.js';
import { apiTokensModule } from './modules/api-tokens/index.js';
import { auditModule } from './modules/audit/index.js';
import { authModule } from './modules/auth/index.js';
import { backupRestoreModule } from './modules/backup-restore/index.js';
import { bulkModule } from './modules/bulk/index.js';
import { compatModule } from './modules/compat/index.js';
import { customerModule } from './modules/customer/index.js';
import { dashboardsModule } from './modules/dashboards/index.js';
import { diagnosticsModule } from './modules/diagnostics/index.js';
import { explorerModule } from './modules/explorer/index.js';
import { feedbackModule } from './modules/feedback/index.js';
import { identityModule } from './modules/identity/index.js';
import { notificationsModule } from './modules/notifications/index.js';
import { pcapModule } from './modules/pcap/index.js';
import { reportsModule } from './modules/reports/index.js';
import { reviewModule } from './modules/review/index.js';
import { ssoModule } from './modules/sso/index.js';
import { trackerModule } from './modules/tracker/index.js';
import { usageModule } from './modules/usage/index.js';
import { usersModule } from './modules/users/index.js';
import { watchModule } from './modules/watch/index.js';
import { mergeTools } from './core/change-sets/handlers.js';
import { ChangeSetJob } from './core/change-sets/job.js';
import { drainWithinMs } from './core/leased-job.js';
import { CallAudit } from './core/call-audit.js';
import { BudgetWaits, registerRequestContext } from './core/budget-waits.js';
import { jobsAhead } from './core/jobs-ahead.js';
import { ChangeSetRepository } from './core/change-sets/repository.js';
import { prepareDataDir } from './core/data-dir.js';
import { openDatabase, type Database, type DatabaseTarget } from './core/database.js';
import { ExclusiveLocks } from './core/exclusive-locks.js';
import {
  JobRegistry,
  ModuleServiceRegistry,
  Registry,
  type AppModule,
  type ModuleContext,
  type ModuleServices,
} from './core/modules.js';
import { SharedRateBudgets } from './core/rate-budget.js';
import { Metrics } from './core/metrics.js';
import { SharedThrottle, sharedStateJobs } from './core/shared-throttle.js';
import { registerErrorHandling } from './core/errors.js';
import { connectExternals } from './adapters/externals.js';
import { WebexDeliveries } from './adapters/webex-delivery.js';
import { startJobs } from './core/jobs.js';
import { diskState } from './core/disk-space.js';
import { registerPlugins } from './core/plugins.js';
import { createServer } from './core/http-server.js';
import { JobQueue } from './core/queue.js';
import { SealedTokens, tokenJobs } from './core/sealed-tokens.js';
import { openTokenVault } from './core/secrets.js';
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
  /** This app is an instance's jobs thread (decision 0035): its counts leave out the process's and the queue's. */
  jobsThread?: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  queue: JobQueue;
  services: Pick<
    ModuleServices,
    | 'auth'
    | 'identity'
    | 'users'
    | 'usage'
    | 'audit'
    | 'customer'
    | 'reports'
    | 'bulk'
    | 'migration'
    | 'backups'
    | 'dashboards'
    | 'tracker'
    | 'watches'
  > & { platform: PlatformClient };
  /** The background jobs of the modules that have them (tests play the worker through these). */
  jobs: {
    reports: ModuleServices['reportJobs'];
    changeSets: ChangeSetJob;
    backups: ModuleServices['backupJob'];
    watchRuns: ModuleServices['watchRunJobs'];
  };
  /** The stand-ins of the external systems, when this instance mounts them (demo mode with PLATFORM_API_URL unset). */
  sandbox: Sandbox | null;
  /** The customer tokens held for jobs. */
  tokens: SealedTokens;
  metrics: Metrics;
  /** What else `/readyz` waits for, added once the app is built (the instance's jobs thread). */
  readiness: Registry<Readiness>;
}

/** A part of the instance `/readyz` names: 'ok' when it is ready, else what it is. */
export interface Readiness {
  name: string;
  state(): string;
}

declare module './core/modules.js' {
  interface ModuleServices {
    changeSetJob: ChangeSetJob;
  }
}

/**
 * The change-set engine: every write into a customer's account, with the kinds of change set and the actions
 * the writing tools registered (a name registered twice refuses to start); each write is audited.
 */
const changeSetEngine: AppModule = {
  name: 'change sets',
  async register(context) {
    const { app, changeSets, config, services } = context;
    const audit = services.get('audit');
    const changeSetJob = new ChangeSetJob({
      repository: changeSets,
      queue: context.queue,
      tokens: context.tokens,
      platform: context.platform,
      tools: mergeTools(...context.changeSetKinds.items),
      locks: context.locks,
      onWrite: async (run, item, resultId) =>
        audit.record(
          { id: run.userId, email: await changeSets.requesterEmail(run.userId) },
          `change-set.${item.action}`,
          `${run.organizationName} / ${item.accountGroupName}: ${item.subject}`,
          { changeSet: run.id, kind: run.kind, aid: item.aid, resultId },
        ),
      logger: context.logger,
      instanceId: config.instanceId,
      leaseMs: config.jobLeaseMs,
      metrics: context.metrics,
    });
    // Change sets stop taking items before the queue stops: they resume on the next worker, not after a long wait.
    app.addHook('preClose', async () => changeSetJob.stop(drainWithinMs(config.shutdownGraceMs)));
    context.jobs.add(...changeSetJob.jobs(config.retentionDays));
    context.jobs.onStarted.add((embedded) => changeSetJob.recoverOrphans(embedded));
    return { changeSetJob };
  },
};

/**
 * The server's modules, in the order they register: a module uses the services of those before it.
 * Their routes are mounted in the same order once all have registered.
 */
const MODULES: readonly AppModule[] = [
  auditModule,
  usageModule,
  usersModule,
  authModule,
  identityModule,
  apiTokensModule,
  ssoModule,
  feedbackModule,
  customerModule,
  reportsModule,
  bulkModule,
  alertsMigrationModule,
  backupRestoreModule,
  watchModule,
  changeSetEngine,
  dashboardsModule,
  trackerModule,
  reviewModule,
  pcapModule,
  explorerModule,
  diagnosticsModule,
  notificationsModule,
  compatModule,
];

/** The least the queue is given to stop, however long the modules' own drains took. */
const MIN_QUEUE_STOP_MS = 1000;
/** What the queue's stop may take past its time (its statements under way settle a second later). */
const QUEUE_STOP_OVERRUN_MS = 1000;

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
  const { app, gate } = createServer(config, options.logDestination);
  if (target.kind === 'pglite' && target.dataDir !== null) prepareDataDir(config.dataDir);
  const database = await openDatabase(target, app.log);
  const { db } = database;
  const queue = new JobQueue(database.sql, app.log);
  // One grace for the whole stop: what the modules drain first (change sets, backups) counts against the queue's.
  let closingSince = 0;
  app.addHook('preClose', async () => {
    closingSince = Date.now();
  });
  app.addHook('onClose', async () => {
    // The queue may take a second past what it is given (its last statements): that second is kept out of it.
    const left = config.shutdownGraceMs - (Date.now() - (closingSince || Date.now())) - QUEUE_STOP_OVERRUN_MS;
    await queue.stop(Math.max(MIN_QUEUE_STOP_MS, left));
    await database.close();
  });

  try {
    const throttle = new SharedThrottle(db);
    const metrics = new Metrics(database.sql, config.instanceId, { processWide: !options.jobsThread });
    metrics.register(app, config.metricsToken);
    const pressure = await registerPlugins(app, config, throttle, gate);
    registerErrorHandling(app);
    // On PostgreSQL every instance and worker draws on one budget per organization; PGlite has one process.
    const budgets =
      database.kind === 'postgres'
        ? new SharedRateBudgets(db, {
            backgroundShare: config.platformBackgroundShare,
            scheduledShare: config.platformScheduledShare,
          })
        : undefined;
    // A person's request waits for a customer's budget in words, and ends its platform calls when it is cancelled.
    const budgetWaits = new BudgetWaits(db);
    registerRequestContext(app, budgetWaits);
    const { sandbox, ...externals } = await connectExternals(app, config, {
      clock: options.clock,
      limiters: budgets,
      observer: metrics.platform,
      ambient: () => budgetWaits.ambient(),
    });
    const tokens = new SealedTokens(db, openTokenVault(config, app.log));
    const locks = new ExclusiveLocks(db);
    const context: ModuleContext = {
      ...externals,
      app,
      logger: app.log,
      config,
      clock: options.clock,
      database,
      db,
      queue,
      tokens,
      changeSets: new ChangeSetRepository(db),
      jobsAhead: (jobs) => jobsAhead(db, jobs),
      metrics,
      throttle,
      locks,
      budgetWaits,
      callAudit: new CallAudit(db, app.log),
      deliveries: externals.webex
        ? new WebexDeliveries(db, externals.webex, { retry: config.webex.retry, queue, logger: app.log })
        : null,
      services: new ModuleServiceRegistry(),
      routes: new Registry(),
      jobs: new JobRegistry(),
      notificationSources: new Registry(),
      timelineSources: new Registry(),
      changeSetKinds: new Registry(),
    };
    // Messages Webex did not take are tried again by any instance; one given up is told in notifications.
    if (context.deliveries) {
      context.jobs.add(...context.deliveries.jobs());
      context.notificationSources.add(context.deliveries);
    }
    for (const module of MODULES) context.services.offer(module.name, await module.register(context));
    for (const mount of context.routes.items) await mount(app);

    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    const readiness = new Registry<Readiness>();
    // The embedded database writes to this machine's disk: a full one is said, and the instance is not ready.
    const pgliteFolder = target.kind === 'pglite' ? target.dataDir : null;
    if (pgliteFolder !== null) readiness.add({ name: 'disk', state: () => diskState(pgliteFolder) });
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const checks = await Promise.allSettled([database.ping(), queue.ping()]);
      const [store, jobs] = checks.map((check) => (check.status === 'fulfilled' ? 'ok' : 'unreachable'));
      const parts = readiness.items.map((part) => [part.name, part.state()] as const);
      const ready = store === 'ok' && jobs === 'ok' && parts.every(([, state]) => state === 'ok');
      // A busy instance still serves those it lets in: it says so, and stays ready (decision 0036).
      const load = pressure.state() === 'busy' ? { load: 'busy' } : {};
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not ready',
        database: store,
        queue: jobs,
        ...load,
        ...Object.fromEntries(parts),
      });
    });
    registerWebApp(app, config.webDistDir, { boot: context.services.get('pageBoot') });

    // pg-boss installs its schema on first start; instances starting together take turns (it races otherwise).
    await database.exclusively(() => queue.start());
    if (config.workersEnabled) {
      await startJobs(
        queue,
        { metrics, logger: app.log },
        [
          ...context.jobs.items,
          ...tokenJobs(tokens, app.log),
          ...sharedStateJobs({ throttle, locks, budgets, waits: context.budgetWaits }, app.log),
        ],
        config.jobConcurrency,
      );
      // The embedded database belongs to this process alone: whatever was running died with the last one.
      const embedded = database.kind === 'pglite';
      for (const recover of context.jobs.onStarted.items) await recover(embedded);
      await tokens.sweep();
    }

    await app.ready();
    const { services } = context;
    return {
      app,
      database,
      queue,
      services: {
        auth: services.get('auth'),
        identity: services.get('identity'),
        users: services.get('users'),
        usage: services.get('usage'),
        platform: externals.platform,
        audit: services.get('audit'),
        customer: services.get('customer'),
        reports: services.get('reports'),
        bulk: services.get('bulk'),
        migration: services.get('migration'),
        backups: services.get('backups'),
        dashboards: services.get('dashboards'),
        tracker: services.get('tracker'),
        watches: services.get('watches'),
      },
      jobs: {
        reports: services.get('reportJobs'),
        changeSets: services.get('changeSetJob'),
        backups: services.get('backupJob'),
        watchRuns: services.get('watchRunJobs'),
      },
      sandbox,
      tokens,
      metrics,
      readiness,
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}
