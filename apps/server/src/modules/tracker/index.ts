/** The tracker module: engagement hours from a sheet into the CRM; what other modules may use of it. */
import type { AppModule } from '../../core/modules.js';
import { SheetParser } from './sheet-parser.js';
import { trackerJobs } from './tracker.job.js';
import { TrackerRepository } from './tracker.repository.js';
import { trackerRoutes } from './tracker.routes.js';
import { TrackerService } from './tracker.service.js';

/** The hours upload's form (the original calls read theirs with it). */
export { HOURS_UPLOAD_FORM } from './tracker.routes.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    tracker: TrackerService;
  }
}

export const trackerModule: AppModule = {
  name: 'tracker',
  async register({ app, db, locks, crm, config, logger, services, routes, jobs }) {
    const parser = new SheetParser({ logger });
    app.addHook('onClose', async () => parser.close());
    const repository = new TrackerRepository(db);
    const tracker = new TrackerService({
      parser,
      locks,
      crm,
      repository,
      usage: services.get('usage'),
      crmNames: {
        engagementObject: config.salesforce.engagementObject,
        engagementField: config.salesforce.engagementField,
        engagementStatusField: config.salesforce.engagementStatusField,
        taskKeyField: config.salesforce.taskKeyField,
      },
    });
    routes.add((server) => server.register(trackerRoutes, { tracker }));
    jobs.add(...trackerJobs(repository, config.retentionDays, logger));
    return { tracker };
  },
};
