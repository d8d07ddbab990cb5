/** The identity module: signing in with a password, resets, security events; what other modules may use of it. */
import type { AppModule } from '../../core/modules.js';
import { identityJobs } from './identity.job.js';
import { IdentityRepository } from './identity.repository.js';
import { identityRoutes } from './identity.routes.js';
import { IdentityService } from './identity.service.js';

export type { SecurityEventType } from './identity.repository.js';

/** Security events as other modules write them (never a secret in them). */
export type SecurityEvents = Pick<IdentityRepository, 'recordEvent'>;

declare module '../../core/modules.js' {
  interface ModuleServices {
    identity: IdentityService;
    securityEvents: SecurityEvents;
  }
}

export const identityModule: AppModule = {
  name: 'identity',
  async register({ db, config, mailer, logger, services, routes, jobs }) {
    const repository = new IdentityRepository(db);
    const identity = new IdentityService(services.get('accounts'), repository, services.get('auth'), mailer, {
      passwordPolicy: config.passwordPolicy,
      throttle: { ...config.signIn, windowMs: config.signIn.lockMs, baseDelayMs: 250, maxDelayMs: 4000 },
      demoMode: config.demoMode,
      passwordResetEnabled: config.passwordResetEnabled,
      logger,
    });
    routes.add((app) => app.register(identityRoutes, { identity, sessionMaxAgeMs: config.session.absoluteTimeoutMs }));
    jobs.add(...identityJobs(identity, config.retentionDays, logger));
    return { identity, securityEvents: repository };
  },
};
