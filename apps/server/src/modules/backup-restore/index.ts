/** The backup-restore module: account groups backed up whole, compared with today, and restored as change sets. */
import type { AppModule } from '../../core/modules.js';
import { RunService } from '../../core/runs/run-service.js';
import { backupsRoutes } from './backup-restore.routes.js';
import { BackupsService } from './backup-restore.service.js';
import { restoresRoutes } from './backup-restore-restores.routes.js';
import { RESTORE_RUNS, RestoresService } from './backup-restore-restores.service.js';
import { BackupJob } from './backup-restore.job.js';
import { backupRestoreNotifications } from './backup-restore.notifications.js';
import { BackupsRepository } from './backup-restore.repository.js';
import { restoreChangeSets } from './restore-kinds.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    backups: BackupsService;
    backupJob: BackupJob;
  }
}

export const backupRestoreModule: AppModule = {
  name: 'backup-restore',
  async register(context) {
    const { db, changeSets, jobsAhead, queue, tokens, platform, config, services } = context;
    const customer = services.get('customer');
    const repository = new BackupsRepository(db);
    const backups = new BackupsService({
      repository,
      queue,
      tokens,
      platform,
      customer,
      jobsAhead,
      audit: services.get('audit'),
      archives: config.backupArchives,
    });
    const backupJob = new BackupJob({
      repository,
      queue,
      tokens,
      platform,
      logger: context.logger,
      instanceId: config.instanceId,
      leaseMs: config.jobLeaseMs,
      metrics: context.metrics,
      callAudit: context.callAudit,
    });
    const runs = new RunService({ repository: changeSets, queue, tokens, customer, jobsAhead }, RESTORE_RUNS);
    const restores = new RestoresService({
      backups: repository,
      runs,
      platform,
      customer,
      limits: config.backupArchives,
    });
    context.routes.add((app) => app.register(backupsRoutes, { backups }));
    context.routes.add((app) => app.register(restoresRoutes, { restores }));
    // Backups stop reading before the queue stops: they go back to it, not after their lease lapses.
    context.app.addHook('preClose', async () => backupJob.stop());
    context.jobs.add(...backupJob.jobs(config.backupRetentionDays));
    context.jobs.onStarted.add((embedded) => backupJob.recoverOrphans(embedded));
    context.changeSetKinds.add(restoreChangeSets(repository, config.backupArchives));
    context.notificationSources.add(backupRestoreNotifications(repository, runs));
    context.timelineSources.add(backups, runs);
    return { backups, backupJob };
  },
};
