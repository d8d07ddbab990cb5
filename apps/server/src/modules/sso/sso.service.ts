import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { roleFromLocale } from '@ce/contract';
import { AppError } from '../../platform/errors.js';
import type { ClientInfo, AuthService } from '../auth/auth.service.js';
import { hashPassword } from '../users/passwords.js';
import type { UsersRepository } from '../users/users.repository.js';
import { localeForRole, normaliseEmail } from '../users/users.service.js';

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  roleClaim: string;
  scopes: string;
  allowInsecure: boolean;
  publicUrl: string;
}

/** What travels in the short-lived cookie between the redirect and the callback. */
interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

const PENDING_TTL_MS = 10 * 60_000;

/**
 * OpenID Connect sign-in (authorization code with PKCE) for Cognito, Okta, Entra ID and the like.
 * The role comes from a claim (`locale` by default); the account is created or updated at sign-in.
 */
export class SsoService {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: SsoSettings,
    private readonly users: UsersRepository,
    private readonly sessions: AuthService,
    private readonly cookieSecret: Buffer,
  ) {}

  get redirectUri(): string {
    return `${this.settings.publicUrl}/api/sso/callback`;
  }

  /** Discovery happens at first use, so the server starts even while the provider is down. */
  private config(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret ?? undefined,
        undefined,
        {
          execute: this.settings.allowInsecure ? [oidc.allowInsecureRequests] : [],
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new AppError(
          502,
          'sso_unavailable',
          `The sign-in provider cannot be reached: ${error instanceof Error ? error.message : 'unknown error'}`,
        );
      });
    return this.configuration;
  }

  /** The provider's authorization URL and the sealed cookie value holding state, nonce and verifier. */
  async start(): Promise<{ url: string; cookie: string }> {
    const config = await this.config();
    const pending: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      expiresAt: Date.now() + PENDING_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, cookie: this.seal(pending) };
  }

  /** Exchanges the code, reads the claims, creates or updates the account and opens a session. */
  async finish(callbackUrl: URL, sealed: string | undefined, client: ClientInfo) {
    const pending = sealed ? this.unseal(sealed) : null;
    if (!pending || pending.expiresAt < Date.now()) {
      throw new AppError(
        400,
        'sso_expired',
        "Couldn't finish OAuth flow: the sign-in took too long or came from another browser. Try again.",
      );
    }
    const config = await this.config();
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      });
      const idClaims = tokens.claims();
      claims = idClaims;
      // Providers may keep profile claims (email, locale) for the UserInfo endpoint rather than the ID token.
      const missing =
        idClaims && (typeof idClaims.email !== 'string' || idClaims[this.settings.roleClaim] === undefined);
      if (idClaims && missing && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
      }
    } catch (error) {
      throw new AppError(
        400,
        'sso_failed',
        `Couldn't finish OAuth flow: ${error instanceof Error ? error.message : 'unknown error'}`,
      );
    }
    const email = typeof claims?.email === 'string' ? normaliseEmail(claims.email) : '';
    if (!email) throw new AppError(400, 'sso_no_email', 'The sign-in provider did not share an email address.');
    const role = roleFromLocale(
      typeof claims?.[this.settings.roleClaim] === 'string' ? String(claims[this.settings.roleClaim]) : null,
    );
    const name = typeof claims?.name === 'string' ? claims.name : null;
    const existing = await this.users.findByEmail(email);
    if (existing?.disabled)
      throw new AppError(403, 'account_disabled', 'This account is disabled. Ask a Super User to enable it.');
    const user = existing
      ? ((await this.users.update(existing.id, { locale: localeForRole(role), ...(name ? { name } : {}) })) ?? existing)
      : await this.users.insert({
          email,
          name,
          locale: localeForRole(role),
          // SSO accounts have no usable password until someone resets it.
          passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        });
    return this.sessions.open(user, client, 'sso');
  }

  /** The provider's end-session address, when it offers one. */
  async logoutUrl(): Promise<string | undefined> {
    const config = await this.config().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return undefined;
    return oidc
      .buildEndSessionUrl(config, {
        client_id: this.settings.clientId,
        post_logout_redirect_uri: `${this.settings.publicUrl}/login`,
      })
      .toString();
  }

  private seal(pending: PendingSignIn): string {
    const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${payload}.${createHmac('sha256', this.cookieSecret).update(payload).digest('base64url')}`;
  }

  private unseal(value: string): PendingSignIn | null {
    const [payload, signature] = value.split('.');
    if (!payload || !signature) return null;
    const expected = createHmac('sha256', this.cookieSecret).update(payload).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingSignIn;
    } catch {
      return null;
    }
  }
}
