import { createHash, randomBytes } from 'node:crypto';
import type { SessionUser } from '@ce/contract';
import { AppError } from '../../platform/errors.js';
import { decoyPasswordHash, verifyPassword } from '../users/passwords.js';
import type { UsersRepository } from '../users/users.repository.js';
import { normaliseEmail, toSessionUser } from '../users/users.service.js';
import type { SessionsRepository } from './sessions.repository.js';

export interface SessionPolicy {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  demoMode: boolean;
}

export interface ClientInfo {
  userAgent: string | null;
  ipAddress: string | null;
}

/** Sessions are only written back when this much time has passed, so reads don't become writes. */
const TOUCH_INTERVAL_MS = 60_000;

const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

export const SIGN_IN_FAILED = 'Incorrect username or password.';

export class AuthService {
  constructor(
    private readonly usersRepository: UsersRepository,
    private readonly sessionsRepository: SessionsRepository,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Checks the credentials and opens a session; returns the secret for the cookie. */
  async signIn(email: string, password: string, client: ClientInfo): Promise<{ sessionId: string; user: SessionUser }> {
    const user = await this.usersRepository.findByEmail(normaliseEmail(email));
    const passwordHash = user?.passwordHash ?? (await decoyPasswordHash());
    const passwordMatches = await verifyPassword(passwordHash, password);
    if (!user || !passwordMatches) throw new AppError(401, 'sign_in_failed', SIGN_IN_FAILED);
    if (user.disabled)
      throw new AppError(403, 'account_disabled', 'This account is disabled. Ask a Super User to enable it.');
    if (user.isDemo && !this.policy.demoMode) {
      throw new AppError(403, 'demo_disabled', 'Demo accounts are disabled on this installation.');
    }
    const sessionId = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.sessionsRepository.insert({
      idHash: hashSessionId(sessionId),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.policy.absoluteTimeoutMs),
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      ipAddress: client.ipAddress,
    });
    return { sessionId, user: toSessionUser(user) };
  }

  /** The user behind a session cookie, or null when the session is unknown, expired, idle too long or disabled. */
  async resolve(sessionId: string): Promise<SessionUser | null> {
    const idHash = hashSessionId(sessionId);
    const found = await this.sessionsRepository.findWithUser(idHash);
    if (!found) return null;
    const now = this.now();
    const { session, user } = found;
    const idleFor = now.getTime() - session.lastSeenAt.getTime();
    const blocked = user.disabled || (user.isDemo && !this.policy.demoMode);
    if (session.expiresAt <= now || idleFor > this.policy.idleTimeoutMs || blocked) {
      await this.sessionsRepository.delete(idHash);
      return null;
    }
    if (idleFor > TOUCH_INTERVAL_MS) await this.sessionsRepository.touch(idHash, now);
    return toSessionUser(user);
  }

  /** Sign-out is global (spec section 4): every session of the user ends, on every device. */
  async signOutEverywhere(userId: string): Promise<number> {
    return this.sessionsRepository.deleteAllForUser(userId);
  }

  async purgeExpired(): Promise<number> {
    return this.sessionsRepository.purgeExpired(this.now(), this.policy.idleTimeoutMs);
  }
}
