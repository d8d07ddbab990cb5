/** The customer module: a customer's account groups and organizations, read with their token, and its page. */
import type { AppModule } from '../../core/modules.js';
import { CustomerMeasurementsRepository } from './customer-measurements.repository.js';
import { CustomerMeasurementsService } from './customer-measurements.service.js';
import { CustomerOverviewRepository } from './customer-overview.repository.js';
import { CustomerOverviewService } from './customer-overview.service.js';
import { hoursTimeline, waiverTimeline } from './customer-sources.js';
import { customerRoutes } from './customer.routes.js';
import { CustomerTimelineService } from './customer-timeline.service.js';
import { CustomerService } from './customer.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    customer: CustomerService;
  }
}

export const customerModule: AppModule = {
  name: 'customer',
  async register({ db, config, platform, routes, budgetWaits, timelineSources, clock }) {
    const customer = new CustomerService(platform, budgetWaits);
    const repository = new CustomerOverviewRepository(db);
    // Its page also lists the waivers made for it and the hours logged on its engagements.
    timelineSources.add(waiverTimeline(repository), hoursTimeline(repository));
    const timeline = new CustomerTimelineService(
      () => timelineSources.items,
      clock,
      (reports, backups) => repository.watchMarks(reports, backups),
    );
    const overview = new CustomerOverviewService(repository, timeline, clock);
    const measurements = new CustomerMeasurementsService(
      new CustomerMeasurementsRepository(db),
      config.watch.historyDays,
      clock,
    );
    routes.add((app) =>
      app.register(customerRoutes, { customer, waits: budgetWaits, timeline, overview, measurements }),
    );
    return { customer };
  },
};
