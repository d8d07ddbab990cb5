import type { FastifyInstance } from 'fastify';
import type { PlatformClient } from '@ce/platform-client';
import type { WebexClient } from './adapters/webex-client.js';
import type { AppConfig } from './config/config.js';
import { mergeTools } from './core/change-sets/handlers.js';
import { ChangeSetJob } from './core/change-sets/job.js';
import { ChangeSetRepository } from './core/change-sets/repository.js';
import type { Db } from './core/database.js';
import type { Metrics } from './core/metrics.js';
import { RunService } from './core/runs/run-service.js';
import type { JobQueue } from './core/queue.js';
import type { SealedTokens } from './core/sealed-tokens.js';
import { alertsMigrationRoutes } from './modules/alerts-migration/alerts-migration.routes.js';
import { AlertsMigrationService } from './modules/alerts-migration/alerts-migration.service.js';
import { MIGRATION_RUNS } from './modules/alerts-migration/alerts-migration.runs.js';
import { alertsMigrationChangeSets } from './modules/alerts-migration/kinds.js';
import type { AuditLog } from './modules/audit/index.js';
import { BackupJob } from './modules/backup-restore/backup.job.js';
import { backupRestoreNotifications } from './modules/backup-restore/backup-restore.notifications.js';
import { backupsRoutes } from './modules/backup-restore/backups.routes.js';
import { BackupsRepository } from './modules/backup-restore/backups.repository.js';
import { BackupsService } from './modules/backup-restore/backups.service.js';
import { restoreChangeSets } from './modules/backup-restore/restore-kinds.js';
import { restoresRoutes } from './modules/backup-restore/restores.routes.js';
import { RESTORE_RUNS, RestoresService } from './modules/backup-restore/restores.service.js';
import { bulkChangeSets } from './modules/bulk/bulk-kinds.js';
import { bulkRoutes } from './modules/bulk/bulk.routes.js';
import { BulkService } from './modules/bulk/bulk.service.js';
import { BULK_RUNS } from './modules/bulk/bulk.runs.js';
import type { CustomerService } from './modules/customer/customer.service.js';
import type { UsageService } from './modules/usage/usage.service.js';

export interface GroupToolsDependencies {
  db: Db;
  queue: JobQueue;
  tokens: SealedTokens;
  platform: PlatformClient;
  customer: CustomerService;
  usage: UsageService;
  audit: AuditLog;
  webex: WebexClient | null;
  config: Pick<AppConfig, 'instanceId' | 'jobLeaseMs' | 'backupArchives'>;
  metrics: Metrics;
}

/**
 * Part of the composition root: the tools that act on a customer's account groups as a whole. Every write
 * into a customer's account goes through one change-set engine (core/change-sets): the bulk tools and
 * alerts migration register their kinds and actions with it, and each write is audited. Backups read
 * groups whole with a job of their own.
 */
export async function registerGroupTools(app: FastifyInstance, deps: GroupToolsDependencies) {
  const { db, queue, tokens, platform, customer, usage, audit, webex, config, metrics } = deps;
  const leased = { logger: app.log, instanceId: config.instanceId, leaseMs: config.jobLeaseMs, metrics };
  const changeSets = new ChangeSetRepository(db);
  const backupsRepository = new BackupsRepository(db);
  // Every writing tool's runs are served by one run service, told the tool's kinds.
  const runs = { repository: changeSets, queue, tokens, customer };
  const bulk = new BulkService({ runs: new RunService(runs, BULK_RUNS), platform, customer });
  const changeSetJob = new ChangeSetJob({
    repository: changeSets,
    queue,
    tokens,
    platform,
    tools: mergeTools(
      bulkChangeSets(usage),
      alertsMigrationChangeSets({ webex, requesterEmail: (userId) => changeSets.requesterEmail(userId) }),
      restoreChangeSets(backupsRepository, config.backupArchives),
    ),
    onWrite: async (run, item, resultId) =>
      audit.record(
        { id: run.userId, email: await changeSets.requesterEmail(run.userId) },
        `change-set.${item.action}`,
        `${run.organizationName} / ${item.accountGroupName}: ${item.subject}`,
        { changeSet: run.id, kind: run.kind, aid: item.aid, resultId },
      ),
    ...leased,
  });
  // Change sets stop taking items before the queue stops: they resume on the next worker, not after a long wait.
  app.addHook('preClose', async () => changeSetJob.stop());
  await app.register(bulkRoutes, { bulk });
  const migration = new AlertsMigrationService({
    runs: new RunService(runs, MIGRATION_RUNS),
    platform,
    customer,
  });
  await app.register(alertsMigrationRoutes, { migration });
  const backups = new BackupsService({
    repository: backupsRepository,
    queue,
    tokens,
    platform,
    customer,
    audit,
    archives: config.backupArchives,
  });
  const backupJob = new BackupJob({ repository: backupsRepository, queue, tokens, platform, ...leased });
  await app.register(backupsRoutes, { backups });
  const restores = new RestoresService({
    backups: backupsRepository,
    runs: new RunService(runs, RESTORE_RUNS),
    platform,
    customer,
    limits: config.backupArchives,
  });
  await app.register(restoresRoutes, { restores });
  const backupRestore = backupRestoreNotifications(backupsRepository, restores.runs);
  return { bulk, changeSetJob, migration, backups, backupJob, backupRestore };
}
