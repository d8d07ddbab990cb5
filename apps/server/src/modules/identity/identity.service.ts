import { randomBytes } from 'node:crypto';
import { passwordProblems, type PasswordPolicy, type SessionUser } from '@ce/contract';
import { AppError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mailer.js';
import { accountMayHoldSession, hashSecret, type AuthService, type ClientInfo } from '../auth/auth.service.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../users/passwords.js';
import type { UserRow, UsersRepository } from '../users/users.repository.js';
import { normaliseEmail } from '../users/users.service.js';
import type { IdentityRepository } from './identity.repository.js';
import { codeIsUsable, generateResetCode, RESET_CODE_TTL_MS } from './reset-codes.js';
import { afterFailure, delayAfter, lockedFor, lockMessage, type ThrottlePolicy } from './sign-in-throttle.js';

export const SIGN_IN_FAILED = 'Incorrect username or password.';
/** Spec section 9: sign-in state lasts 3 minutes. */
export const CHALLENGE_TTL_MS = 3 * 60_000;
const RESET_ANSWER = 'If an account exists for this username, a confirmation code is on its way by email.';
const ADDRESS_FACTOR = 4;

export type SignInOutcome =
  { kind: 'session'; sessionId: string; user: SessionUser } | { kind: 'challenge'; session: string };

export interface IdentityOptions {
  passwordPolicy: PasswordPolicy;
  throttle: ThrottlePolicy;
  demoMode: boolean;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

/** Credentials: sign-in with throttling, the new-password step, reset by code, change of password. */
export class IdentityService {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => Date;

  constructor(
    private readonly users: UsersRepository,
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

  async signIn(emailInput: string, password: string, client: ClientInfo): Promise<SignInOutcome> {
    const email = normaliseEmail(emailInput);
    const now = this.now();
    const accountKey = `account:${email}`;
    const addressKey = `address:${client.ipAddress ?? 'unknown'}`;
    const [accountState, addressState] = await Promise.all([
      this.identity.throttleState(accountKey),
      this.identity.throttleState(addressKey),
    ]);
    const locked = Math.max(lockedFor(accountState, now), lockedFor(addressState, now));
    if (locked > 0) {
      await this.identity.recordEvent({ type: 'sign_in_refused_locked', email, ipAddress: client.ipAddress });
      throw new AppError(429, 'sign_in_locked', lockMessage(locked));
    }

    const user = await this.users.findByEmail(email);
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !passwordMatches) {
      const nextAccount = afterFailure(accountState, now, this.options.throttle);
      const nextAddress = afterFailure(addressState, now, this.addressPolicy());
      await Promise.all([
        this.identity.saveThrottleState(accountKey, nextAccount),
        this.identity.saveThrottleState(addressKey, nextAddress),
        this.identity.recordEvent({
          type: 'sign_in_failed',
          email,
          userId: user?.id,
          ipAddress: client.ipAddress,
          detail: `failure ${nextAccount.failures}`,
        }),
      ]);
      const lockedNow = Math.max(lockedFor(nextAccount, now), lockedFor(nextAddress, now));
      if (lockedNow > 0) {
        await this.identity.recordEvent({
          type: 'sign_in_locked',
          email,
          userId: user?.id,
          ipAddress: client.ipAddress,
        });
        throw new AppError(429, 'sign_in_locked', lockMessage(lockedNow));
      }
      await this.sleep(delayAfter(Math.max(nextAccount.failures, nextAddress.failures), this.options.throttle));
      throw new AppError(401, 'sign_in_failed', SIGN_IN_FAILED);
    }
    if (user.disabled)
      throw new AppError(403, 'account_disabled', 'This account is disabled. Ask a Super User to enable it.');
    if (user.isDemo && !this.options.demoMode)
      throw new AppError(403, 'demo_disabled', 'Demo accounts are disabled on this installation.');
    await this.identity.clearThrottle(accountKey);

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

  /** Sends a reset code when the account exists; the answer is the same either way. */
  async requestReset(emailInput: string, client: ClientInfo): Promise<string> {
    if (!this.mailer.available)
      throw new AppError(503, 'mail_unavailable', 'Password reset by email is not available on this installation.');
    const email = normaliseEmail(emailInput);
    const user = await this.users.findByEmail(email);
    await this.identity.recordEvent({
      type: 'password_reset_requested',
      email,
      userId: user?.id,
      ipAddress: client.ipAddress,
    });
    if (!user || !accountMayHoldSession(user, this.options.demoMode)) {
      await decoyPasswordHash();
      return RESET_ANSWER;
    }
    const code = generateResetCode();
    await this.identity.insertResetCode(
      user.id,
      await hashPassword(code),
      new Date(this.now().getTime() + RESET_CODE_TTL_MS),
    );
    await this.mailer.send({
      to: user.email,
      subject: 'Your CE Toolkit confirmation code',
      text: [
        `Hello ${user.name ?? user.email},`,
        '',
        `Your confirmation code is ${code}. It works once, for 15 minutes.`,
        'If you did not ask to reset your password, ignore this message: your password stays as it is.',
      ].join('\n'),
    });
    return RESET_ANSWER;
  }

  /** Sets a new password with a valid code; ends every session of the account. */
  async confirmReset(emailInput: string, code: string, newPassword: string, client: ClientInfo): Promise<string> {
    const email = normaliseEmail(emailInput);
    const user = await this.users.findByEmail(email);
    const stored = user ? await this.identity.latestResetCode(user.id) : undefined;
    const invalid = new AppError(
      400,
      'invalid_code',
      'The confirmation code is wrong or has expired. Ask for a new code.',
    );
    if (!user || !codeIsUsable(stored, this.now()) || !stored) {
      await decoyPasswordHash();
      throw invalid;
    }
    if (!(await verifyPassword(stored.codeHash, code.trim()))) {
      await this.identity.countFailedAttempt(stored.id);
      await this.identity.recordEvent({
        type: 'password_reset_failed',
        email,
        userId: user.id,
        ipAddress: client.ipAddress,
      });
      throw invalid;
    }
    this.checkPolicy(newPassword);
    if (!(await this.identity.markCodeUsed(stored.id, this.now()))) throw invalid;
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

  /** Changes the password of a signed-in user; other sessions end, this one stays. */
  async changePassword(
    user: UserRow,
    oldPassword: string,
    newPassword: string,
    currentIdHash: string,
    client: ClientInfo,
  ): Promise<string> {
    if (!(await verifyPassword(user.passwordHash, oldPassword))) {
      throw new AppError(400, 'wrong_password', 'The current password is not correct.', [
        { path: 'oldPassword', message: 'The current password is not correct.' },
      ]);
    }
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
