/** The notifications module: what ended badly, told wherever the user is in the app. */
import type { AppModule } from '../../core/modules.js';
import { notificationsRoutes } from './notifications.routes.js';
import { NotificationsService } from './notifications.service.js';

export const notificationsModule: AppModule = {
  name: 'notifications',
  async register({ notificationSources, routes }) {
    // Every module's sources, those registered after this one included: the list is read at each poll.
    const notifications = new NotificationsService(notificationSources.items);
    routes.add((app) => app.register(notificationsRoutes, { notifications }));
    return {};
  },
};
