import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../users/users.repository.js';
import { AuthService } from './auth.service.js';
import type { SessionRow, SessionsRepository } from './auth.repository.js';
import { hashPassword } from '../users/passwords.js';

/** In-memory stand-ins for the two repositories: the service's rules are tested without a database. */
function fakes(user: UserRow) {
  const sessions = new Map<string, SessionRow>();
  const sessionsRepository = {
    insert: async (row: SessionRow) => void sessions.set(row.idHash, row),
    findWithUser: async (idHash: string) => {
      const session = sessions.get(idHash);
      return session ? { session, user } : undefined;
    },
    touch: async (idHash: string, at: Date) => {
      const session = sessions.get(idHash);
      if (session) session.lastSeenAt = at;
    },
    delete: async (idHash: string) => void sessions.delete(idHash),
    deleteAllForUser: async () => {
      const count = sessions.size;
      sessions.clear();
      return count;
    },
  } as unknown as SessionsRepository;
  return { sessionsRepository, sessions };
}

describe('AuthService session lifetime', () => {
  const minute = 60_000;
  let now: Date;
  let user: UserRow;

  beforeEach(async () => {
    now = new Date('2026-01-01T09:00:00Z');
    user = {
      id: 'u1',
      email: 'tam@example.com',
      name: 'T',
      locale: 'TAM',
      passwordHash: await hashPassword('Correct-horse-1'),
      mustChangePassword: false,
      disabled: false,
      isDemo: false,
      ssoSubject: null,
      ssoLinkAllowed: false,
      createdAt: now,
      updatedAt: now,
    };
  });

  const service = (repos: ReturnType<typeof fakes>, demoMode = false) =>
    new AuthService(
      repos.sessionsRepository,
      { idleTimeoutMs: 30 * minute, absoluteTimeoutMs: 120 * minute, demoMode },
      () => now,
    );

  it('keeps a session alive while it is used, and ends it after the idle timeout', async () => {
    const repos = fakes(user);
    const auth = service(repos);
    const { sessionId } = await auth.open(user, { userAgent: null, ipAddress: null });
    now = new Date(now.getTime() + 29 * minute);
    expect((await auth.resolve(sessionId))?.user).toMatchObject({ email: 'tam@example.com', role: 'TAM' });
    now = new Date(now.getTime() + 29 * minute);
    expect(await auth.resolve(sessionId)).not.toBeNull();
    now = new Date(now.getTime() + 31 * minute);
    expect(await auth.resolve(sessionId)).toBeNull();
    expect(repos.sessions.size).toBe(0);
  });

  it('ends a session at its absolute lifetime even when it is used', async () => {
    const auth = service(fakes(user));
    const { sessionId } = await auth.open(user, { userAgent: null, ipAddress: null });
    for (let elapsed = 20; elapsed <= 100; elapsed += 20) {
      now = new Date(now.getTime() + 20 * minute);
      expect(await auth.resolve(sessionId)).not.toBeNull();
    }
    now = new Date(now.getTime() + 20 * minute);
    expect(await auth.resolve(sessionId)).toBeNull();
  });

  it('ends the session of an account disabled meanwhile, and of a demo account when demo mode is off', async () => {
    const repos = fakes(user);
    const { sessionId } = await service(repos).open(user, { userAgent: null, ipAddress: null });
    user.isDemo = true;
    expect(await service(repos, false).resolve(sessionId)).toBeNull();
    const second = await service(repos, true).open(user, { userAgent: null, ipAddress: null });
    user.disabled = true;
    expect(await service(repos, true).resolve(second.sessionId)).toBeNull();
  });

  it('never returns an unknown session id as valid', async () => {
    expect(await service(fakes(user)).resolve('made-up')).toBeNull();
  });
});
