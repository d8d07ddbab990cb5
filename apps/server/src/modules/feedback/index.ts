/** The feedback module: what users tell the support address. */
import type { AppModule } from '../../core/modules.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';

export const feedbackModule: AppModule = {
  name: 'feedback',
  async register({ mailer, throttle, config, services, routes }) {
    const feedback = new FeedbackService({
      mailer,
      audit: services.get('audit'),
      throttle,
      supportEmail: config.supportEmail,
    });
    routes.add((app) => app.register(feedbackRoutes, { feedback }));
    return {};
  },
};
