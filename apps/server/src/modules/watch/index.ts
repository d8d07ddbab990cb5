/** The watch module: Account Watch, scheduled health checks and backups per customer (decision 0031). */
import { PATHS, watchRunsSchema } from '@ce/contract';
import { databaseClockOf } from '../../core/database-clock.js';
import type { AppModule } from '../../core/modules.js';
import { emailOf } from '../../core/requester.js';
import { mdSafe } from '../../report-kit/markdown.js';
import { DriftAttribution } from './watch-attribution.service.js';
import { ChangeJournalRepository } from './watch-change-journal.repository.js';
import { changesTimeline } from './changes-timeline.js';
import { WatchFleetService } from './watch-fleet.service.js';
import { WatchPortfolioRepository } from './watch-portfolio.repository.js';
import { watchPortfolioRoutes } from './watch-portfolio.routes.js';
import { WatchPortfolioService } from './watch-portfolio.service.js';
import { WatchRunJobs } from './watch-runs.job.js';
import { WatchRunsRepository } from './watch-runs.repository.js';
import { WatchRunsService } from './watch-runs.service.js';
import { WatchScheduler } from './watch-schedule.job.js';
import { WatchScheduleRepository } from './watch-schedule.repository.js';
import { WatchRepository } from './watch.repository.js';
import { watchRoutes } from './watch.routes.js';
import { CAPABILITIES_OF, WatchService } from './watch.service.js';

export { WatchService } from './watch.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    watches: WatchService;
    watchRunJobs: WatchRunJobs;
  }
}

export const watchModule: AppModule = {
  name: 'watch',
  async register(context) {
    const { db, tokens, services, config, routes, webex, platform, queue } = context;
    // The database's clock (issue 56): a watch's first due time, the spacing of "run now" and a consent's expiry are
    // computed in its time, not in this instance's (tests fix the clock instead).
    const databaseClock = context.clock ? null : databaseClockOf(db);
    if (databaseClock) {
      await databaseClock.start();
      context.app.addHook('onClose', async () => databaseClock.stop());
    }
    const clock = context.clock ?? databaseClock?.now ?? (() => new Date());
    const audit = services.get('audit');
    const reports = services.get('reports');
    const deliveries = context.deliveries;
    const logger = context.logger;
    const repository = new WatchRunsRepository(db, config.watch.runsPerOrganization);
    // Whether a watch's owner is a member of a Webex room: asked when the watch is saved and before each message.
    const roomMembership = webex
      ? (roomId: string, personEmail: string) => webex.membership(roomId, personEmail)
      : undefined;
    const watches = new WatchService({
      repository: new WatchRepository(db),
      tokens,
      customer: services.get('customer'),
      audit,
      tokenMaxDays: config.watch.tokenMaxDays,
      caps: { perUser: config.watch.maxPerUser, perOrganization: config.watch.maxPerOrganization },
      roomMembership,
      clock,
      // The runs it ended free their organization's turn: the next runs of its other watches are sent at once.
      cancelRuns: async (watchId, reason) => {
        const ended = await repository.cancelUnfinished(watchId, reason);
        const watch = ended > 0 ? await repository.watch(watchId) : undefined;
        if (watch) await watchRunJobs.dispatch(watch.organizationId);
        return ended;
      },
      // Once per erased token, tried again while Webex does not take it; never in the way of the erasure.
      tellOwner: async (watch, reason) => {
        if (!deliveries || !watch.tokenId) return;
        const text = mdSafe`**Account Watch: ${watch.organizationName}** is paused and its stored token erased. ${reason}`;
        const key = `watch-token-erased:${watch.tokenId}`;
        const of = {
          subject: `watch:${watch.id}:${watch.tokenId}`,
          userId: watch.userId,
          notice: {
            source: 'watch',
            path: PATHS.customers,
            title: 'Account Watch pause not sent to Webex',
            about: watch.organizationName,
            // Heard of by those who see the watch: a personal API token carrying the capabilities of what it runs.
            capabilities: CAPABILITIES_OF[watchRunsSchema.parse(watch.runs)],
          },
        } as const;
        await deliveries
          .deliver(key, await emailOf(db, watch.userId), text.text, undefined, of)
          .catch((error: unknown) => logger.warn({ err: error, watchId: watch.id }, 'the owner was not told in Webex'));
      },
    });
    // Every worker instance makes the due runs, with the others (each run once), and sends those in turn.
    const scheduler = new WatchScheduler({
      schedules: new WatchScheduleRepository(db),
      watches,
      dispatch: (organizationId): Promise<void> => watchRunJobs.dispatch(organizationId),
      databaseClock: context.clock,
      logger,
    });
    const watchRunJobs = new WatchRunJobs({
      runs: repository,
      watches,
      queue,
      tokens,
      platform,
      reports,
      backups: services.get('backups'),
      webex: deliveries,
      callAudit: context.callAudit,
      publicUrl: config.publicUrl,
      historyDays: config.watch.historyDays,
      roomMembership,
      clock,
      scheduler,
      attribution: new DriftAttribution({
        journal: new ChangeJournalRepository(db),
        platform,
        callAudit: context.callAudit,
        logger,
      }),
      logger,
      instanceId: config.instanceId,
      leaseMs: config.jobLeaseMs,
      metrics: context.metrics,
    });
    deliveries?.onEnd('watch-run', (id, state) => watchRunJobs.deliveryEnded(id, state));
    const runs = new WatchRunsService({
      runs: repository,
      watches,
      audit,
      send: (runId) => watchRunJobs.send(runId),
      reportOf: (runIds) => reports.watchRunReports(runIds),
      backupsOf: (runId) => services.get('backups').ofWatchRun(runId),
      runNowEveryMinutes: config.watch.runNowEveryMinutes,
      clock,
    });
    const portfolioRepository = new WatchPortfolioRepository(db);
    const portfolio = new WatchPortfolioService({
      repository: portfolioRepository,
      audit,
      customer: services.get('customer'),
      waiversMax: config.waiversPerOrganizationMax,
      clock,
    });
    // A customer's page lists the changes its watches found there, each with who made it.
    context.timelineSources.add(changesTimeline(db));
    routes.add((app) => app.register(watchRoutes, { watches, runs }));
    const fleet = new WatchFleetService({ portfolio, repository: portfolioRepository, clock });
    routes.add((app) => app.register(watchPortfolioRoutes, { portfolio, fleet }));
    // Every minute: tokens past their consent go (their watches pause), then the due runs are made, each once.
    context.jobs.add(...watchRunJobs.jobs());
    context.jobs.onStarted.add((embedded) => watchRunJobs.recoverOrphans(embedded));
    // Every worker instance makes the due runs itself at each minute (with the others, each run once).
    context.jobs.onStarted.add(async () => scheduler.start());
    context.app.addHook('preClose', async () => scheduler.stop());
    // A stopping instance hands its watch runs back: their messages do not wait for a lapsed lease (issue 56).
    context.app.addHook('preClose', async () => watchRunJobs.stop());
    return { watches, watchRunJobs };
  },
};
