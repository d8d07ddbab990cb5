/** The reports module: reports generated in the background from a customer's data, delivered or downloaded. */
import type { AppModule } from '../../core/modules.js';
import { ReportJobs } from './reports.job.js';
import { ReportsRepository } from './reports.repository.js';
import { reportsRoutes } from './reports.routes.js';
import { ReportsService } from './reports.service.js';

/** The health check's score, for a watch that counts its checks with waived findings left out. */
export { scoreOf } from './kinds/health/checks.js';
/** The measured checks' thresholds, for a watch that says what moved by the same lines. */
export { MEASURED_LIMITS } from './kinds/health/checks/measured-limits.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    reports: ReportsService;
    reportJobs: ReportJobs;
  }
}

export const reportsModule: AppModule = {
  name: 'reports',
  async register(context) {
    const { db, queue, tokens, platform, webex, deliveries, config, services } = context;
    const repository = new ReportsRepository(db);
    const reports = new ReportsService({
      repository,
      queue,
      tokens,
      customer: services.get('customer'),
      delivers: webex !== null,
      usage: services.get('usage'),
      jobsAhead: context.jobsAhead,
    });
    const reportJobs = new ReportJobs({
      repository,
      queue,
      tokens,
      platform,
      webex: deliveries,
      logger: context.logger,
      instanceId: config.instanceId,
      leaseMs: config.jobLeaseMs,
      metrics: context.metrics,
      clock: context.clock,
      callAudit: context.callAudit,
      stored: { db, timelineSources: () => context.timelineSources.items },
      publicUrl: config.publicUrl,
    });
    deliveries?.onEnd('report', (id, state) => reportJobs.deliveryEnded(id, state));
    context.routes.add((app) => app.register(reportsRoutes, { reports }));
    // A stopping instance hands its reports back before the queue stops: they resume elsewhere at once.
    context.app.addHook('preClose', async () => reportJobs.stop());
    context.jobs.add(...reportJobs.jobs(config.retentionDays));
    context.jobs.onStarted.add((embedded) => reportJobs.recoverOrphans(embedded));
    context.notificationSources.add(reports);
    context.timelineSources.add(reports);
    return { reports, reportJobs };
  },
};
