import { randomBytes } from 'node:crypto';
import { passwordProblems, type PasswordPolicy, type SessionUser } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { Mailer } from '../../adapters/mailer.js';
import { accountMayHoldSession, hashSecret, type AuthService, type ClientInfo } from '../auth/index.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../users/index.js';
import type { UserAccounts } from '../users/index.js';
import { normaliseEmail } from '../users/users.service.js';
import type { AttemptClaim, IdentityRepository } from './identity.repository.js';
import {
  generateResetCode,
  hashResetCode,
  RESET_CODE_MAX_ATTEMPTS,
  RESET_CODE_TTL_MS,
  resetCodeMatches,
} from './reset-codes.js';
import {
  delayAfter,
  lockedFor,
  lockMessage,
  resetRequestLockMessage,
  type ThrottlePolicy,
} from './sign-in-throttle.js';

export const SIGN_IN_FAILED = 'Incorrect username or password.';
/** Spec section 9: sign-in state lasts 3 minutes. */
export const CHALLENGE_TTL_MS = 3 * 60_000;
const RESET_ANSWER = 'If an account exists for this username, a confirmation code is on its way by email.';
const ADDRESS_FACTOR = 4;
/** Code requests per account in 15 minutes (and four times as many per address). */
const RESET_REQUESTS_PER_ACCOUNT = 5;
/**
 * A code request answers no sooner than this, whether the account exists or not, and the mail is sent
 * after the answer: the time taken says nothing about the account.
 */
export const RESET_ANSWER_FLOOR_MS = 300;

export const CODE_WRONG = 'The confirmation code is wrong. Check it and try again.';
export const CODE_EXPIRED = 'The confirmation code has expired or was already used. Ask for a new code.';
export const CODE_LOCKED = `This confirmation code is locked after ${RESET_CODE_MAX_ATTEMPTS} failed attempts. Ask for a new code.`;

export type SignInOutcome =
  { kind: 'session'; sessionId: string; user: SessionUser } | { kind: 'challenge'; session: string };

export interface IdentityOptions {
  passwordPolicy: PasswordPolicy;
  throttle: ThrottlePolicy;
  demoMode: boolean;
  /** Reset by a mailed code (needs a mailer that can send). */
  passwordResetEnabled: boolean;
  logger: { error(object: object, message: string): void };
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

/** Credentials: sign-in with throttling, the new-password step, reset by code, change of password. */
export class IdentityService {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => Date;

  constructor(
    private readonly users: UserAccounts,
    private readonly identity: IdentityRepository,
    private readonly sessions: AuthService,
    private readonly mailer: Mailer,
    private readonly options: IdentityOptions,
  ) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? (() => new Date());
  }

  private addressPolicy(): ThrottlePolicy {
    return { ...this.options.throttle, maxFailures: this.options.throttle.maxFailures * ADDRESS_FACTOR };
  }

  private checkPolicy(password: string): void {
    const problems = passwordProblems(this.options.passwordPolicy, password);
    if (problems.length > 0) {
      throw new AppError(400, 'weak_password', `The password needs: ${problems.join(', ').toLowerCase()}.`, [
        { path: 'newPassword', message: problems.join(', ') },
      ]);
    }
  }

  private resetRequestPolicy(factor = 1): ThrottlePolicy {
    return { ...this.options.throttle, maxFailures: RESET_REQUESTS_PER_ACCOUNT * factor };
  }

  /** The longest lock among refused claims, in ms (0 when every claim was allowed). */
  private refusedFor(claims: AttemptClaim[], now: Date): number {
    return Math.max(0, ...claims.map((claim) => (claim.allowed ? 0 : lockedFor(claim.lockedUntil, now))));
  }

  /**
   * Counts a password check for the account and the address before it is made (one statement each), so of
   * any number sent at once at most the limit are checked; refused with 429 when either is locked. Sign-in
   * and change password draw on the same counts: a password cannot be guessed through either.
   */
  private async claimPasswordCheck(email: string, client: ClientInfo, now: Date) {
    const accountKey = `account:${email}`;
    const addressKey = `address:${client.ipAddress ?? 'unknown'}`;
    const [account, address] = await Promise.all([
      this.identity.claimAttempt(accountKey, now, this.options.throttle),
      this.identity.claimAttempt(addressKey, now, this.addressPolicy()),
    ]);
    if (!account.allowed || !address.allowed) {
      // Nothing was checked: the side that was allowed gets its attempt back.
      if (account.allowed) await this.identity.releaseAttempt(accountKey);
      if (address.allowed) await this.identity.releaseAttempt(addressKey);
      await this.identity.recordEvent({ type: 'sign_in_refused_locked', email, ipAddress: client.ipAddress });
      throw new AppError(429, 'sign_in_locked', lockMessage(this.refusedFor([account, address], now)));
    }
    return { account, address, accountKey, addressKey };
  }

  /**
   * Signs in. Each attempt is counted for the account and the address before the password is checked
   * (one statement each), so of any number of attempts sent at once at most the limit are checked;
   * a success gives the attempts back.
   */
  async signIn(emailInput: string, password: string, client: ClientInfo): Promise<SignInOutcome> {
    const email = normaliseEmail(emailInput);
    const now = this.now();
    const { account, address, accountKey, addressKey } = await this.claimPasswordCheck(email, client, now);

    const user = await this.users.findByEmail(email);
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !passwordMatches) {
      await this.identity.recordEvent({
        type: 'sign_in_failed',
        email,
        userId: user?.id,
        ipAddress: client.ipAddress,
        detail: `failure ${account.count}`,
      });
      const lockedNow = Math.max(lockedFor(account.lockedUntil, now), lockedFor(address.lockedUntil, now));
      if (lockedNow > 0) {
        await this.identity.recordEvent({
          type: 'sign_in_locked',
          email,
          userId: user?.id,
          ipAddress: client.ipAddress,
        });
        throw new AppError(429, 'sign_in_locked', lockMessage(lockedNow));
      }
      await this.sleep(delayAfter(Math.max(account.count, address.count), this.options.throttle));
      throw new AppError(401, 'sign_in_failed', SIGN_IN_FAILED);
    }
    await this.identity.clearThrottle(accountKey);
    await this.identity.releaseAttempt(addressKey);
    if (user.disabled)
      throw new AppError(403, 'account_disabled', 'This account is disabled. Ask a Super User to enable it.');
    if (user.isDemo && !this.options.demoMode)
      throw new AppError(403, 'demo_disabled', 'Demo accounts are disabled on this installation.');

    if (user.mustChangePassword) {
      const secret = randomBytes(32).toString('base64url');
      await this.identity.insertChallenge({
        idHash: hashSecret(secret),
        userId: user.id,
        kind: 'NEW_PASSWORD_REQUIRED',
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
      });
      return { kind: 'challenge', session: secret };
    }
    const opened = await this.sessions.open(user, client);
    return { kind: 'session', ...opened };
  }

  /** The new-password step of a first sign-in with a temporary password. */
  async completeNewPassword(challenge: string, newPassword: string, client: ClientInfo) {
    const row = await this.identity.takeChallenge(hashSecret(challenge));
    if (!row || row.kind !== 'NEW_PASSWORD_REQUIRED' || row.expiresAt <= this.now()) {
      throw new AppError(
        401,
        'challenge_expired',
        'This sign-in has expired. Sign in again with your temporary password.',
      );
    }
    const user = await this.users.findById(row.userId);
    if (!user || !accountMayHoldSession(user, this.options.demoMode))
      throw new AppError(403, 'account_disabled', 'This account cannot sign in.');
    try {
      this.checkPolicy(newPassword);
      if (await verifyPassword(user.passwordHash, newPassword)) {
        throw new AppError(400, 'same_password', 'Choose a password different from the temporary one.');
      }
    } catch (error) {
      // Give the attempt back so the user can correct the password without signing in again.
      await this.identity.insertChallenge({ ...row });
      throw error;
    }
    const updated = await this.users.update(user.id, {
      passwordHash: await hashPassword(newPassword),
      mustChangePassword: false,
    });
    await this.identity.recordEvent({
      type: 'new_password_set',
      email: user.email,
      userId: user.id,
      ipAddress: client.ipAddress,
    });
    return this.sessions.open(updated ?? user, client);
  }

  /**
   * Sends a reset code when the account exists; the answer is the same either way, in words and in
   * time. Requests are limited per account and per address.
   */
  async requestReset(emailInput: string, client: ClientInfo): Promise<string> {
    if (!this.options.passwordResetEnabled || !this.mailer.available)
      throw new AppError(503, 'mail_unavailable', 'Password reset by email is not available on this installation.');
    const started = Date.now();
    const email = normaliseEmail(emailInput);
    const now = this.now();
    const claims = await Promise.all([
      this.identity.claimAttempt(`reset:account:${email}`, now, this.resetRequestPolicy()),
      this.identity.claimAttempt(
        `reset:address:${client.ipAddress ?? 'unknown'}`,
        now,
        this.resetRequestPolicy(ADDRESS_FACTOR),
      ),
    ]);
    const refused = this.refusedFor(claims, now);
    if (refused > 0) {
      await this.identity.recordEvent({ type: 'password_reset_throttled', email, ipAddress: client.ipAddress });
      throw new AppError(429, 'reset_throttled', resetRequestLockMessage(refused));
    }
    const user = await this.users.findByEmail(email);
    await this.identity.recordEvent({
      type: 'password_reset_requested',
      email,
      userId: user?.id,
      ipAddress: client.ipAddress,
    });
    // Accounts of single sign-on have no password to reset: they sign in at their provider.
    if (user && accountMayHoldSession(user, this.options.demoMode) && !user.ssoSubject) {
      const code = generateResetCode();
      await this.identity.insertResetCode(user.id, hashResetCode(code), new Date(now.getTime() + RESET_CODE_TTL_MS));
      // Sent after the answer, so a slow mail server does not tell that the account exists.
      this.mailer
        .send({
          to: user.email,
          subject: 'Your CE Toolkit confirmation code',
          text: [
            `Hello ${user.name ?? user.email},`,
            '',
            `Your confirmation code is ${code}. It works once, for 15 minutes.`,
            'If you did not ask to reset your password, ignore this message: your password stays as it is.',
          ].join('\n'),
        })
        .catch((error: unknown) => this.options.logger.error({ err: error, userId: user.id }, 'reset code not mailed'));
    }
    await this.sleep(Math.max(0, started + RESET_ANSWER_FLOOR_MS - Date.now()));
    return RESET_ANSWER;
  }

  /**
   * Sets a new password with a valid code; ends every session of the account. Each attempt is taken
   * from the code's allowance in one statement before the code is compared, so parallel guesses get at
   * most the allowance checked.
   */
  async confirmReset(emailInput: string, code: string, newPassword: string, client: ClientInfo): Promise<string> {
    if (!this.options.passwordResetEnabled)
      throw new AppError(503, 'mail_unavailable', 'Password reset by email is not available on this installation.');
    this.checkPolicy(newPassword);
    const email = normaliseEmail(emailInput);
    const now = this.now();
    const user = await this.users.findByEmail(email);
    const claimed = user ? await this.identity.claimCodeAttempt(user.id, now, RESET_CODE_MAX_ATTEMPTS) : undefined;
    if (!user || !claimed) {
      if (user && (await this.identity.codeExhausted(user.id, now, RESET_CODE_MAX_ATTEMPTS)))
        throw new AppError(429, 'code_locked', CODE_LOCKED);
      throw new AppError(400, 'code_expired', CODE_EXPIRED);
    }
    if (!resetCodeMatches(code, claimed.codeHash)) {
      const locked = claimed.attempts >= RESET_CODE_MAX_ATTEMPTS;
      await this.identity.recordEvent({
        type: locked ? 'password_reset_locked' : 'password_reset_failed',
        email,
        userId: user.id,
        ipAddress: client.ipAddress,
        detail: `attempt ${claimed.attempts}`,
      });
      if (locked) throw new AppError(429, 'code_locked', CODE_LOCKED);
      throw new AppError(400, 'invalid_code', CODE_WRONG);
    }
    if (!(await this.identity.markCodeUsed(claimed.id, now))) throw new AppError(400, 'code_expired', CODE_EXPIRED);
    await this.users.update(user.id, { passwordHash: await hashPassword(newPassword), mustChangePassword: false });
    await this.identity.clearThrottle(`account:${email}`);
    await this.sessions.signOutEverywhere(user.id);
    await this.identity.recordEvent({
      type: 'password_reset_completed',
      email,
      userId: user.id,
      ipAddress: client.ipAddress,
    });
    return 'Your password has been reset. Sign in with the new password.';
  }

  /** Retention: security events before `before`, and throttles, codes and challenges that are over. */
  pruneBefore(before: Date): Promise<number> {
    return this.identity.prune(before, this.now(), this.options.throttle.windowMs);
  }

  /** Changes the password of a signed-in user; other sessions end, this one stays. */
  async changePassword(
    userId: string,
    oldPassword: string,
    newPassword: string,
    currentIdHash: string,
    client: ClientInfo,
  ): Promise<string> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(401, 'unauthorized', 'User not authenticated');
    const now = this.now();
    const { account, address, accountKey, addressKey } = await this.claimPasswordCheck(user.email, client, now);
    if (!(await verifyPassword(user.passwordHash, oldPassword))) {
      await this.identity.recordEvent({
        type: 'password_change_failed',
        email: user.email,
        userId: user.id,
        ipAddress: client.ipAddress,
        detail: `failure ${account.count}`,
      });
      const lockedNow = Math.max(lockedFor(account.lockedUntil, now), lockedFor(address.lockedUntil, now));
      if (lockedNow > 0) throw new AppError(429, 'sign_in_locked', lockMessage(lockedNow));
      await this.sleep(delayAfter(Math.max(account.count, address.count), this.options.throttle));
      throw new AppError(400, 'wrong_password', 'The current password is not correct.', [
        { path: 'oldPassword', message: 'The current password is not correct.' },
      ]);
    }
    await this.identity.clearThrottle(accountKey);
    await this.identity.releaseAttempt(addressKey);
    this.checkPolicy(newPassword);
    await this.users.update(user.id, { passwordHash: await hashPassword(newPassword), mustChangePassword: false });
    const ended = await this.sessions.endOthers(user.id, currentIdHash);
    await this.identity.recordEvent({
      type: 'password_changed',
      email: user.email,
      userId: user.id,
      ipAddress: client.ipAddress,
    });
    return ended > 0 ? `Password changed. ${ended} other session${ended === 1 ? '' : 's'} ended.` : 'Password changed.';
  }
}
