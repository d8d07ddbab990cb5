/** The auth module: sessions, who may call what, and the browser's side of starting a session. */
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE, type AppInfo, type BootData } from '@ce/contract';
import { registerAccessControl } from '../../core/access.js';
import type { CookieSecurity } from '../../core/cookies.js';
import type { AppModule } from '../../core/modules.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { sessionJobs } from './auth.job.js';
import { SessionsRepository } from './auth.repository.js';

export { clientInfo, refuseWhenSignedIn, SSO_ID_TOKEN_COOKIE, startBrowserSession } from './browser-session.js';
export { accountMayHoldSession, AuthService, hashSecret, type ClientInfo } from './auth.service.js';

declare module '../../core/modules.js' {
  interface ModuleServices {
    auth: AuthService;
    /** What the app's page carries for the app to start with (core/web-app.ts). */
    pageBoot: (request: FastifyRequest) => Promise<BootData>;
  }
}

/** Sessions, and access control on every route (the routes of every module mount after it is in place). */
export const authModule: AppModule = {
  name: 'auth',
  async register({ app, db, config, mailer, logger, services, routes, jobs }) {
    const auth = new AuthService(new SessionsRepository(db), { ...config.session, demoMode: config.demoMode });
    const cookies: CookieSecurity = {
      secure: (request: FastifyRequest) =>
        config.session.cookieSecure === 'auto' ? request.protocol === 'https' : config.session.cookieSecure,
    };
    // Personal API tokens are the api-tokens module's, registered later: looked up when a call carries one.
    registerAccessControl(app, auth, cookies, {
      authenticate: (secret, ipAddress) => services.get('apiTokens').authenticate(secret, ipAddress),
    });
    const appInfo: AppInfo = {
      supportEmail: config.supportEmail,
      demoMode: config.demoMode,
      passwordPolicy: config.passwordPolicy,
      sso: { enabled: config.oidc !== null, label: config.oidc?.label ?? 'Sign in with SSO' },
      passwordResetEnabled: config.passwordResetEnabled && mailer.available,
    };
    routes.add((server) =>
      server.register(authRoutes, {
        auth,
        appInfo,
        providerLogoutUrl: async (idToken) => services.get('sso')?.logoutUrl(idToken),
        revokeApiTokens: (user, ipAddress) => services.get('apiTokens').revokeAllOf(user, ipAddress),
      }),
    );
    jobs.add(...sessionJobs(auth, logger));
    // The page holds what GET /api/session and GET /api/app-info would answer.
    // Without the user when the session cannot be read (the database is away): the page still opens, and the app
    // asks GET /api/session, which says what went wrong.
    const pageBoot = async (request: FastifyRequest): Promise<BootData> => {
      const sessionId = request.jar.get(SESSION_COOKIE);
      if (!sessionId) return { user: null, appInfo };
      try {
        return { user: (await auth.resolve(sessionId))?.user ?? null, appInfo };
      } catch (error) {
        request.log.warn({ err: error }, 'the page goes without its user: the session could not be read');
        return { appInfo };
      }
    };
    return { auth, pageBoot };
  },
};
