/** The diagnostics module: what a customer's token may do with each tool, checked and kept. */
import type { AppModule } from '../../core/modules.js';
import { diagnosticsJobs } from './diagnostics.job.js';
import { DiagnosticsRepository } from './diagnostics.repository.js';
import { diagnosticsRoutes } from './diagnostics.routes.js';
import { DiagnosticsService } from './diagnostics.service.js';

export const diagnosticsModule: AppModule = {
  name: 'diagnostics',
  async register({ db, platform, webex, config, logger, routes, jobs }) {
    const repository = new DiagnosticsRepository(db);
    const diagnostics = new DiagnosticsService({ repository, platform, webex });
    routes.add((app) => app.register(diagnosticsRoutes, { diagnostics }));
    jobs.add(...diagnosticsJobs(repository, config.retentionDays, logger));
    return {};
  },
};
