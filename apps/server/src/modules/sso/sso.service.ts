import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { DEFAULT_ROLE, ROLES, SIGN_IN_ERROR_MESSAGES, type Role, type SignInErrorCode } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { ClientInfo, AuthService } from '../auth/index.js';
import { hashPassword } from '../users/index.js';
import type { UserAccounts } from '../users/index.js';
import { localeForRole, normaliseEmail } from '../users/users.service.js';

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  roleClaim: string;
  scopes: string;
  allowInsecure: boolean;
  /** Refuse identities whose provider does not vouch for the email (`email_verified` not true). */
  requireVerifiedEmail: boolean;
  publicUrl: string;
}

/** An SSO sign-in refused: the sign-in page shows the fixed message of the code (never provider text). */
const refuse = (status: number, code: SignInErrorCode) => new AppError(status, code, SIGN_IN_ERROR_MESSAGES[code]);

/**
 * The role a claim names, matched exactly against the known roles; anything else (empty, unknown, a
 * role name inside other text) is User.
 */
export function roleFromClaim(value: unknown): { role: Role; known: boolean } {
  if (value === undefined || value === null || value === '') return { role: DEFAULT_ROLE, known: true };
  const role = ROLES.find((candidate) => candidate === value);
  return role ? { role, known: true } : { role: DEFAULT_ROLE, known: false };
}

/** What travels in the short-lived cookie between the redirect and the callback. */
const pendingSignInSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  expiresAt: z.number(),
});
type PendingSignIn = z.infer<typeof pendingSignInSchema>;

const PENDING_TTL_MS = 10 * 60_000;

/**
 * OpenID Connect sign-in (authorization code with PKCE) for Cognito, Okta, Entra ID and the like.
 * The role comes from a claim (`locale` by default); the account is created or updated at sign-in.
 */
export class SsoService {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: SsoSettings,
    private readonly users: UserAccounts,
    private readonly sessions: AuthService,
    private readonly cookieSecret: Buffer,
    private readonly logger: {
      warn(object: object, message: string): void;
      info(object: object, message: string): void;
    },
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
        this.logger.warn({ err: error }, 'SSO provider discovery failed');
        throw refuse(502, 'sso_unavailable');
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

  /**
   * Exchanges the code, reads the claims, and opens a session for the account of this identity. The
   * identity is the provider's subject: a first sign-in creates the account, or takes over a password
   * account of the same (verified) email only when a Super User allowed it. The role comes from the
   * configured claim, matched exactly.
   */
  async finish(callbackUrl: URL, sealed: string | undefined, client: ClientInfo) {
    const pending = sealed ? this.unseal(sealed) : null;
    if (!pending || pending.expiresAt < Date.now()) {
      throw refuse(400, 'sso_expired');
    }
    const config = await this.config();
    let claims: Record<string, unknown>;
    let idToken: string | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      idToken = tokens.id_token;
      claims = idClaims;
      // Providers may keep profile claims (email, locale) for the UserInfo endpoint rather than the ID token.
      const missing =
        typeof idClaims.email !== 'string' ||
        idClaims[this.settings.roleClaim] === undefined ||
        idClaims.email_verified === undefined;
      if (missing && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'SSO code exchange failed');
      throw refuse(400, 'sso_failed');
    }
    return { ...(await this.signInIdentity(claims, client)), idToken };
  }

  /** Finds, creates or links the account of verified identity claims, and opens its session. */
  async signInIdentity(claims: Record<string, unknown>, client: ClientInfo) {
    const issuer = this.settings.issuer;
    const subject = `${issuer}|${String(claims.sub ?? '')}`;
    const email = typeof claims.email === 'string' ? normaliseEmail(claims.email) : '';
    if (!email || !claims.sub) throw refuse(400, 'sso_no_email');
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (this.settings.requireVerifiedEmail && !verified) {
      this.logger.warn({ email }, 'SSO sign-in refused: the provider does not vouch for the email');
      throw refuse(403, 'sso_email_unverified');
    }
    const claimed = claims[this.settings.roleClaim];
    const { role, known } = roleFromClaim(claimed);
    if (!known)
      this.logger.warn(
        { email, claim: this.settings.roleClaim, value: String(claimed).slice(0, 100) },
        'SSO role claim names no known role: signed in as User',
      );
    const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;

    let user = await this.users.findBySsoSubject(subject);
    if (!user) {
      const existing = await this.users.findByEmail(email);
      if (existing?.ssoSubject) throw refuse(403, 'sso_other_identity');
      if (existing && !existing.ssoLinkAllowed) {
        this.logger.warn({ email }, 'SSO sign-in refused: a password account has this email');
        throw refuse(403, 'sso_account_exists');
      }
      user = existing
        ? await this.users.update(existing.id, { ssoSubject: subject, ssoLinkAllowed: false })
        : await this.users.insert({
            email,
            name,
            locale: localeForRole(role),
            ssoSubject: subject,
            // SSO accounts have no usable password: they sign in at their provider.
            passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
          });
      if (!user) throw refuse(403, 'sso_account_exists');
      this.logger.info({ userId: user.id, linked: existing !== undefined }, 'SSO identity linked to an account');
    }
    if (user.disabled) throw refuse(403, 'account_disabled');
    const updated =
      (await this.users.update(user.id, { locale: localeForRole(role), ...(name ? { name } : {}) })) ?? user;
    return this.sessions.open(updated, client, 'sso');
  }

  /**
   * The provider's end-session address, when it offers one: the browser goes there after sign-out so
   * the provider's session ends too. `idToken` (kept with the session) lets the provider skip asking.
   */
  async logoutUrl(idToken?: string | null): Promise<string | undefined> {
    const config = await this.config().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return undefined;
    return oidc
      .buildEndSessionUrl(config, {
        client_id: this.settings.clientId,
        post_logout_redirect_uri: `${this.settings.publicUrl}/login`,
        ...(idToken ? { id_token_hint: idToken } : {}),
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
      return pendingSignInSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).data ?? null;
    } catch {
      return null;
    }
  }
}
