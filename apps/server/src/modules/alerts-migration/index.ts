/** The alerts-migration module: alert rules and suppression windows copied into other account groups, as change sets. */
import type { AppModule } from '../../core/modules.js';
import { RunService } from '../../core/runs/run-service.js';
import { alertsMigrationRoutes } from './alerts-migration.routes.js';
import { MIGRATION_RUNS } from './alerts-migration.runs.js';
import { AlertsMigrationService } from './alerts-migration.service.js';
import { alertsMigrationChangeSets } from './kinds.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    migration: AlertsMigrationService;
  }
}

export const alertsMigrationModule: AppModule = {
  name: 'alerts-migration',
  async register(context) {
    const { changeSets, jobsAhead, queue, tokens, platform, deliveries, services } = context;
    const customer = services.get('customer');
    // Its summary goes to Webex: the run's page says where the message stands.
    const messageOf = deliveries ? (subject: string) => deliveries.messageOf(subject) : undefined;
    const runs = new RunService(
      { repository: changeSets, queue, tokens, customer, jobsAhead, messageOf },
      MIGRATION_RUNS,
    );
    const migration = new AlertsMigrationService({ runs, platform, customer });
    context.routes.add((app) => app.register(alertsMigrationRoutes, { migration }));
    context.changeSetKinds.add(
      alertsMigrationChangeSets({ deliveries, requesterEmail: (userId) => changeSets.requesterEmail(userId) }),
    );
    context.notificationSources.add(runs);
    context.timelineSources.add(runs);
    return { migration };
  },
};
