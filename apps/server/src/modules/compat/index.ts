/** The compat module: the original services' calls, each translated onto today's operations (decision 0027). */
import type { AppModule } from '../../core/modules.js';
import { compatRoutes } from './compat.routes.js';

export const compatModule: AppModule = {
  name: 'compat',
  async register({ config, routes }) {
    routes.add((app) => app.register(compatRoutes, { prefixes: config.compatPrefixes }));
    return {};
  },
};
