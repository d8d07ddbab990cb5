import type { FastifyPluginAsync } from 'fastify';
import { compatApiRoutes } from './compat-api.routes.js';
import { compatDashboardsRoutes } from './compat-dashboards.routes.js';
import { compatReportsRoutes } from './compat-reports.routes.js';
import { compatTrackerRoutes } from './compat-tracker.routes.js';
import { registerUploads } from '../../core/uploads.js';

export interface CompatPrefixes {
  reports: string;
  dashboards: string;
  tracker: string;
  api: string;
}

/**
 * The original services' calls (spec section 7) under their prefixes, so a reverse proxy can point the old
 * hosts here. Every call is a translation onto the product's own operations, called with the caller's own
 * credentials: the same sign-in, capability checks, CSRF, pacing, audit and token rules.
 */
export const compatRoutes: FastifyPluginAsync<{ prefixes: CompatPrefixes }> = async (app, { prefixes }) => {
  await registerUploads(app);
  compatReportsRoutes(app, prefixes.reports);
  compatDashboardsRoutes(app, prefixes.dashboards);
  compatTrackerRoutes(app, prefixes.tracker);
  compatApiRoutes(app, prefixes.api);
};
