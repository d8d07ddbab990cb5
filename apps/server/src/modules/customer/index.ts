/** The customer module: a customer's account groups and organizations, read with their token, and its page. */
import type { AppModule } from '../../core/modules.js';
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
  async register({ platform, routes, budgetWaits, timelineSources, clock }) {
    const customer = new CustomerService(platform, budgetWaits);
    const timeline = new CustomerTimelineService(() => timelineSources.items, clock);
    routes.add((app) => app.register(customerRoutes, { customer, waits: budgetWaits, timeline }));
    return { customer };
  },
};
