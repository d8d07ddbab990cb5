import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  can,
  userMay,
  grantableFor,
  roleFromLocale,
  type ApiToken,
  type ApiTokenSettings,
  type CreateApiToken,
  type CreatedApiToken,
  type SessionUser,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import type { SecurityEvents } from '../identity/index.js';
import { toSessionUser, type UserRow } from '../users/index.js';
import type { ApiTokenRow, ApiTokensRepository, ApiTokenWithOwner } from './api-tokens.repository.js';

const DAY_MS = 86_400_000;
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
/** Enough to tell tokens apart in a list, never enough to use one. */
const hintOf = (secret: string) => `${secret.slice(0, API_TOKEN_PREFIX.length + 4)}…`;

/** Who a bearer token speaks for (`user.apiToken` holds what it may do). */
export interface TokenCaller {
  user: SessionUser;
}

/** The capabilities a token carries that its owner's role no longer holds. */
const lost = (row: Pick<ApiTokenRow, 'capabilities'>, owner: Pick<UserRow, 'locale'>) =>
  row.capabilities.filter((capability) => !can(roleFromLocale(owner.locale), capability));

function toApiToken(row: ApiTokenWithOwner, now: Date): ApiToken {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    capabilities: row.capabilities,
    owner: { id: row.userId, email: row.ownerEmail },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active',
    revokedReason: row.revokedReason,
  };
}

/**
 * Personal API tokens: made in Settings (shown once, kept as a hash), listed with their last use, revoked by
 * their owner or a Super User, and turned back into their user for each request that carries one. A token
 * ends with its expiry, its revocation, its owner's deactivation, or a role change that takes away a
 * capability it carries; every refusal is a security event that names the token, never its secret.
 */
export class ApiTokensService {
  constructor(
    private readonly deps: {
      repository: ApiTokensRepository;
      audit: AuditLog;
      security: SecurityEvents;
      maxDays: number;
      clock?: () => Date;
    },
  ) {}

  private now() {
    return this.deps.clock?.() ?? new Date();
  }

  settings(user: SessionUser): ApiTokenSettings {
    return { maxDays: this.deps.maxDays, grantable: grantableFor(user.role) };
  }

  async create(user: SessionUser, input: CreateApiToken, ipAddress: string | null): Promise<CreatedApiToken> {
    if (input.expiresInDays > this.deps.maxDays)
      throw new AppError(400, 'token_too_long', `A token lives at most ${this.deps.maxDays} days.`);
    const refused = input.capabilities.filter((capability) => !grantableFor(user.role).includes(capability));
    if (refused.length) throw new AppError(403, 'capability_not_held', API_TOKEN_MESSAGES.notHeld(refused));
    const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.deps.repository.insert({
      userId: user.id,
      name: input.name,
      tokenHash: hashOf(secret),
      hint: hintOf(secret),
      capabilities: [...new Set(input.capabilities)],
      expiresAt: new Date(this.now().getTime() + input.expiresInDays * DAY_MS),
    });
    await this.deps.audit.record(user, 'api-token.created', row.name, {
      token: row.id,
      capabilities: row.capabilities,
      expiresAt: row.expiresAt.toISOString(),
    });
    await this.deps.security.recordEvent({
      type: 'api_token_created',
      email: user.email,
      userId: user.id,
      ipAddress,
      detail: `token "${row.name}" (${row.hint})`,
    });
    return { token: toApiToken({ ...row, ownerEmail: user.email }, this.now()), secret };
  }

  async list(user: SessionUser): Promise<ApiToken[]> {
    return (await this.deps.repository.list(user.id)).map((row) => toApiToken(row, this.now()));
  }

  async listAll(): Promise<ApiToken[]> {
    return (await this.deps.repository.list()).map((row) => toApiToken(row, this.now()));
  }

  /** Revokes one of the user's tokens, or anyone's for a user who manages accounts. */
  async revoke(user: SessionUser, id: string, ipAddress: string | null): Promise<ApiToken> {
    const row = await this.deps.repository.find(id);
    if (!row || (row.userId !== user.id && !userMay(user, 'manageUsers')))
      throw new AppError(404, 'token_not_found', 'No such token');
    const reason = row.userId === user.id ? 'Revoked by its owner' : `Revoked by ${user.email}`;
    if (await this.deps.repository.revoke(id, reason)) {
      await this.deps.audit.record(user, 'api-token.revoked', row.name, { token: row.id, owner: row.ownerEmail });
      await this.deps.security.recordEvent({
        type: 'api_token_revoked',
        email: row.ownerEmail,
        userId: row.userId,
        ipAddress,
        detail: `token "${row.name}" (${row.hint}): ${reason}`,
      });
    }
    return toApiToken((await this.deps.repository.find(id)) ?? row, this.now());
  }

  /**
   * Revokes every live token of the user, as they sign out everywhere and ask for their tokens to end too (each
   * audited and recorded as a revocation by its owner would be); how many were revoked.
   */
  async revokeAllOf(user: SessionUser, ipAddress: string | null): Promise<number> {
    const reason = 'Revoked when its owner signed out everywhere';
    let revoked = 0;
    for (const row of await this.deps.repository.live(user.id)) {
      if (!(await this.deps.repository.revoke(row.id, reason))) continue;
      revoked += 1;
      await this.deps.audit.record(user, 'api-token.revoked', row.name, { token: row.id, owner: user.email });
      await this.deps.security.recordEvent({
        type: 'api_token_revoked',
        email: user.email,
        userId: user.id,
        ipAddress,
        detail: `token "${row.name}" (${row.hint}): ${reason}`,
      });
    }
    return revoked;
  }

  /** Ends the tokens an account change leaves without ground: all of a disabled user's, or those whose capabilities the role lost. */
  async accountChanged(owner: UserRow): Promise<void> {
    for (const row of await this.deps.repository.live(owner.id)) {
      const gone = lost(row, owner);
      if (owner.disabled) await this.deps.repository.revoke(row.id, 'Its owner was disabled');
      else if (gone.length)
        await this.deps.repository.revoke(row.id, `Its owner's role no longer holds ${gone.join(', ')}`);
    }
  }

  /** The user a bearer secret speaks for, or null (a security event says why, naming the token when known). */
  async authenticate(secret: string, ipAddress: string | null): Promise<TokenCaller | null> {
    const found = secret.startsWith(API_TOKEN_PREFIX)
      ? await this.deps.repository.findByHash(hashOf(secret))
      : undefined;
    const refuse = async (detail: string) => {
      await this.deps.security.recordEvent({
        type: 'api_token_refused',
        email: found?.owner.email ?? null,
        userId: found?.owner.id ?? null,
        ipAddress,
        detail,
      });
      return null;
    };
    if (!found) return refuse('an unknown token');
    const { token, owner } = found;
    const named = `token "${token.name}" (${token.hint})`;
    if (token.revokedAt) return refuse(`${named}: revoked`);
    if (token.expiresAt <= this.now()) return refuse(`${named}: expired`);
    if (owner.disabled || lost(token, owner).length) {
      await this.accountChanged(owner);
      return refuse(`${named}: ${owner.disabled ? 'its owner is disabled' : "its owner's role changed"}`);
    }
    await this.deps.repository.touch(token.id, this.now());
    return {
      user: {
        ...toSessionUser(owner),
        apiToken: { id: token.id, name: token.name, capabilities: token.capabilities },
      },
    };
  }
}
