/** The bulk module: tests, agents, labels and users changed across account groups at once, as change sets. */
import type { AppModule } from '../../core/modules.js';
import { RunService } from '../../core/runs/run-service.js';
import { bulkChangeSets } from './bulk-kinds.js';
import { bulkRoutes } from './bulk.routes.js';
import { BULK_RUNS } from './bulk.runs.js';
import { BulkService } from './bulk.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    bulk: BulkService;
  }
}

export const bulkModule: AppModule = {
  name: 'bulk',
  async register({
    changeSets,
    jobsAhead,
    queue,
    tokens,
    platform,
    services,
    routes,
    changeSetKinds,
    notificationSources,
    timelineSources,
  }) {
    const customer = services.get('customer');
    const runs = new RunService({ repository: changeSets, queue, tokens, customer, jobsAhead }, BULK_RUNS);
    const bulk = new BulkService({ runs, platform, customer });
    routes.add((app) => app.register(bulkRoutes, { bulk }));
    changeSetKinds.add(bulkChangeSets(services.get('usage')));
    notificationSources.add(runs);
    timelineSources.add(runs);
    return { bulk };
  },
};
