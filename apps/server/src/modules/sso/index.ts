/** The sso module: signing in with the organization's OpenID Connect provider, when OIDC_ISSUER is set. */
import type { AppModule } from '../../core/modules.js';
import { loadOrCreateSecret } from '../../core/secrets.js';
import { ssoRoutes } from './sso.routes.js';
import { SsoService } from './sso.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    /** Null when SSO is not configured. */
    sso: SsoService | null;
  }
}

export const ssoModule: AppModule = {
  name: 'sso',
  async register({ config, logger, services, routes }) {
    const sso = config.oidc
      ? new SsoService(
          { ...config.oidc, publicUrl: config.publicUrl },
          services.get('accounts'),
          services.get('auth'),
          loadOrCreateSecret(config.secretsDir, 'cookie', config.cookieSecret),
          logger,
        )
      : null;
    routes.add((app) => app.register(ssoRoutes, { sso, sessionMaxAgeMs: config.session.absoluteTimeoutMs }));
    return { sso };
  },
};
