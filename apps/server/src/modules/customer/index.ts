/** The customer module: a customer's account groups and organizations, read with their token. */
import type { AppModule } from '../../core/modules.js';
import { customerRoutes } from './customer.routes.js';
import { CustomerService } from './customer.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    customer: CustomerService;
  }
}

export const customerModule: AppModule = {
  name: 'customer',
  async register({ platform, routes, budgetWaits }) {
    const customer = new CustomerService(platform, budgetWaits);
    routes.add((app) => app.register(customerRoutes, { customer, waits: budgetWaits }));
    return { customer };
  },
};
