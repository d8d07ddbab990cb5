/** The explorer module: the platform's API, called with a customer's token, audited. */
import type { AppModule } from '../../core/modules.js';
import { explorerRoutes } from './explorer.routes.js';
import { ExplorerService } from './explorer.service.js';

export const explorerModule: AppModule = {
  name: 'explorer',
  async register({ platform, openApi, services, routes }) {
    const explorer = new ExplorerService({
      platform,
      audit: services.get('audit'),
      documentUrl: openApi.url,
      fetch: openApi.fetch,
    });
    routes.add((app) => app.register(explorerRoutes, { explorer }));
    return {};
  },
};
