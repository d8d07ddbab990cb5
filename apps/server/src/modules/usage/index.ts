/** The usage module: what each tool provisioned, counted against the baseline. */
import type { AppModule } from '../../core/modules.js';
import { UsageRepository } from './usage.repository.js';
import { usageRoutes } from './usage.routes.js';
import { UsageService } from './usage.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    usage: UsageService;
  }
}

export const usageModule: AppModule = {
  name: 'usage',
  async register({ db, config, routes }) {
    const usage = new UsageService(new UsageRepository(db), config.provisionedTestsBaseline);
    routes.add((app) => app.register(usageRoutes, { usage }));
    return { usage };
  },
};
