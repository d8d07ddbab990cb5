/** The dashboards module: a customer's dashboards cloned and remapped; what other modules may use of it. */
import type { AppModule } from '../../core/modules.js';
import { DashboardsRepository } from './dashboards.repository.js';
import { dashboardsRoutes } from './dashboards.routes.js';
import { DashboardPushService } from './dashboards-push.service.js';
import { DashboardsService } from './dashboards.service.js';
import { pushTimeline } from './push-timeline.js';

/** The clone form's files and limits (the original calls read theirs with them). */
export { CLONE_UPLOAD_FORM } from './dashboards.routes.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    dashboards: DashboardsService;
  }
}

export const dashboardsModule: AppModule = {
  name: 'dashboards',
  async register({ db, platform, services, routes, timelineSources }) {
    const repository = new DashboardsRepository(db);
    const customer = services.get('customer');
    const audit = services.get('audit');
    const dashboards = new DashboardsService({ repository, platform, customer, usage: services.get('usage'), audit });
    const pushes = new DashboardPushService({ repository, platform, customer, audit });
    routes.add((app) => app.register(dashboardsRoutes, { dashboards, pushes }));
    timelineSources.add(pushTimeline(repository));
    return { dashboards };
  },
};
