/** The watch module: Account Watch, scheduled health checks and backups per customer (decision 0031). */
import type { AppModule } from '../../core/modules.js';
import { EVERY_MINUTE, periodicJob } from '../../core/jobs.js';
import { WatchRepository } from './watch.repository.js';
import { watchRoutes } from './watch.routes.js';
import { WatchService } from './watch.service.js';

export { WatchService } from './watch.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    watches: WatchService;
  }
}

export const watchModule: AppModule = {
  name: 'watch',
  async register(context) {
    const { db, tokens, services, config, routes, logger } = context;
    const watches = new WatchService({
      repository: new WatchRepository(db),
      tokens,
      customer: services.get('customer'),
      audit: services.get('audit'),
      tokenMaxDays: config.watch.tokenMaxDays,
      clock: context.clock ?? (() => new Date()),
    });
    routes.add((app) => app.register(watchRoutes, { watches }));
    context.jobs.add(
      // A stored token past its consent's expiry goes within the minute, and its watch pauses.
      periodicJob('watch.expire', EVERY_MINUTE, async () => {
        const expired = await watches.expire();
        if (expired > 0) logger.info({ expired }, 'watch tokens past their consent were erased');
      }),
    );
    return { watches };
  },
};
