/** The api-tokens module: personal API tokens for scripts, within their owner's capabilities. */
import type { AppModule } from '../../core/modules.js';
import { ApiTokensRepository } from './api-tokens.repository.js';
import { apiTokensRoutes } from './api-tokens.routes.js';
import { ApiTokensService } from './api-tokens.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    apiTokens: ApiTokensService;
  }
}

export const apiTokensModule: AppModule = {
  name: 'api-tokens',
  async register({ db, config, services, routes }) {
    const apiTokens = new ApiTokensService({
      repository: new ApiTokensRepository(db),
      audit: services.get('audit'),
      security: services.get('securityEvents'),
      maxDays: config.apiTokenMaxDays,
    });
    routes.add((app) => app.register(apiTokensRoutes, { apiTokens }));
    return { apiTokens };
  },
};
