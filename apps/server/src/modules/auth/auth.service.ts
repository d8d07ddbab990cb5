import { createHash, randomBytes } from 'node:crypto';
import type { AccountSession, SessionUser } from '@ce/contract';
import type { ResolvedSession, SessionResolver } from '../../core/access.js';
import type { UserRow } from '../../db/schema.js';
import { toSessionUser } from '../users/users.service.js';
import type { SessionsRepository } from './auth.repository.js';

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

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Whether an account may hold a session at all. */
export function accountMayHoldSession(user: UserRow, demoMode: boolean): boolean {
  return !user.disabled && !(user.isDemo && !demoMode);
}

/** A short description of the device from its user agent, for the sessions list. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[ /]/)[0] || 'Browser';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'unknown system';
  return `${browser} on ${system}`;
}

/** The life of server-side sessions: open, resolve, list, end. */
export class AuthService implements SessionResolver {
  constructor(
    private readonly sessionsRepository: SessionsRepository,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Opens a session for an account whose credentials were checked; returns the secret for the cookie. */
  async open(
    user: UserRow,
    client: ClientInfo,
    method: 'password' | 'sso' = 'password',
  ): Promise<{ sessionId: string; user: SessionUser }> {
    const sessionId = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.sessionsRepository.insert({
      idHash: hashSecret(sessionId),
      userId: user.id,
      method,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.policy.absoluteTimeoutMs),
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      ipAddress: client.ipAddress,
    });
    return { sessionId, user: toSessionUser(user) };
  }

  /** The session behind a cookie, or null when it is unknown, expired, idle too long or its account is blocked. */
  async resolve(sessionId: string): Promise<ResolvedSession | null> {
    const idHash = hashSecret(sessionId);
    const found = await this.sessionsRepository.findWithUser(idHash);
    if (!found) return null;
    const now = this.now();
    const { session, user } = found;
    const idleFor = now.getTime() - session.lastSeenAt.getTime();
    if (
      session.expiresAt <= now ||
      idleFor > this.policy.idleTimeoutMs ||
      !accountMayHoldSession(user, this.policy.demoMode)
    ) {
      await this.sessionsRepository.delete(idHash);
      return null;
    }
    if (idleFor > TOUCH_INTERVAL_MS) await this.sessionsRepository.touch(idHash, now);
    return { user: toSessionUser(user), idHash, method: session.method, startedAt: session.createdAt };
  }

  /** Sign-out is global (spec section 4): every session of the user ends, on every device. */
  async signOutEverywhere(userId: string): Promise<number> {
    return this.sessionsRepository.deleteAllForUser(userId);
  }

  async endOthers(userId: string, keepIdHash: string): Promise<number> {
    return this.sessionsRepository.deleteAllForUserExcept(userId, keepIdHash);
  }

  async list(userId: string, currentIdHash: string): Promise<AccountSession[]> {
    const rows = await this.sessionsRepository.listForUser(userId);
    return rows.map((row) => ({
      id: row.publicId,
      device: describeDevice(row.userAgent),
      ipAddress: row.ipAddress,
      method: row.method,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      current: row.idHash === currentIdHash,
    }));
  }

  async end(userId: string, publicId: string): Promise<boolean> {
    return this.sessionsRepository.deleteByPublicId(userId, publicId);
  }

  async purgeExpired(): Promise<number> {
    return this.sessionsRepository.purgeExpired(this.now(), this.policy.idleTimeoutMs);
  }
}
