import { can, ROLES, roleFromLocale, type Role, type SessionUser, type UserAccount } from '@ce/contract';
import type { AuditEntry } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { Actor, AuditLog } from '../audit/index.js';
import { generateTemporaryPassword, hashPassword } from './passwords.js';
import type { UserRow, UsersRepository } from './users.repository.js';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The locale stored for a role: `User` is the absence of a locale (spec section 6). */
export const localeForRole = (role: Role): string | null => (role === 'User' ? null : role);

export function toSessionUser(row: UserRow): SessionUser {
  return { id: row.id, email: row.email, name: row.name, locale: row.locale, role: roleFromLocale(row.locale) };
}

export function toUserAccount(row: UserRow): UserAccount {
  return { ...toSessionUser(row), disabled: row.disabled, createdAt: row.createdAt.toISOString() };
}

export function parseRole(value: string): Role {
  const role = ROLES.find((candidate) => candidate.toLowerCase() === value.trim().toLowerCase());
  if (!role) throw new AppError(400, 'invalid_role', `Unknown role "${value}". Roles: ${ROLES.join(', ')}`);
  return role;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Account administration, shared by the CLI and Settings; changes made in Settings go to the audit log. */
export class UsersService {
  constructor(
    private readonly repository: UsersRepository,
    private readonly audit: AuditLog,
    /** Told of every change of role or state (personal API tokens end with what the account lost). */
    private readonly onChanged: (account: UserRow) => Promise<void> = async () => undefined,
  ) {}

  /** Invites someone from Settings: an account with a temporary password, audited. */
  async invite(input: { email: string; role: Role; name?: string | null }, by: Actor) {
    const created = await this.add(input);
    await this.audit.record(by, 'user.invited', created.user.email, { role: created.user.role });
    return created;
  }

  /** Changes an account from Settings, audited. */
  async change(id: string, changes: { role?: Role; disabled?: boolean }, by: Actor & { id: string }) {
    const user = await this.update(id, changes, by.id);
    if (changes.role !== undefined)
      await this.audit.record(by, 'user.role_changed', user.email, { role: changes.role });
    if (changes.disabled !== undefined)
      await this.audit.record(by, changes.disabled ? 'user.disabled' : 'user.enabled', user.email);
    return user;
  }

  auditLog(): Promise<AuditEntry[]> {
    return this.audit.list();
  }

  async list(): Promise<UserAccount[]> {
    return (await this.repository.list()).map(toUserAccount);
  }

  /** Creates an account with a temporary password the person must change at first sign-in. */
  async add(input: {
    email: string;
    role: Role;
    name?: string | null;
  }): Promise<{ user: UserAccount; temporaryPassword: string }> {
    const email = normaliseEmail(input.email);
    if (!EMAIL_PATTERN.test(email))
      throw new AppError(400, 'invalid_email', `"${input.email}" is not an email address`);
    if (await this.repository.findByEmail(email)) {
      throw new AppError(409, 'user_exists', `An account for ${email} already exists`);
    }
    const temporaryPassword = generateTemporaryPassword();
    const row = await this.repository.insert({
      email,
      name: input.name?.trim() || null,
      locale: localeForRole(input.role),
      passwordHash: await hashPassword(temporaryPassword),
      mustChangePassword: true,
    });
    return { user: toUserAccount(row), temporaryPassword };
  }

  /** Changes role or disabled state by id; a Super User cannot lock themselves out. */
  async update(id: string, changes: { role?: Role; disabled?: boolean }, actorId: string): Promise<UserAccount> {
    const existing = await this.repository.findById(id);
    if (!existing) throw new AppError(404, 'user_not_found', 'No such account');
    if (
      id === actorId &&
      (changes.disabled === true || (changes.role !== undefined && !can(changes.role, 'manageUsers')))
    ) {
      throw new AppError(400, 'own_account', 'You cannot disable your own account or remove your own Super User role.');
    }
    const updated = await this.repository.update(id, {
      ...(changes.role !== undefined ? { locale: localeForRole(changes.role) } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled } : {}),
    });
    if (!updated) throw new AppError(404, 'user_not_found', 'No such account');
    await this.onChanged(updated);
    return toUserAccount(updated);
  }

  async setRole(email: string, role: Role): Promise<UserAccount> {
    return this.changeByEmail(email, { locale: localeForRole(role) });
  }

  async setDisabled(email: string, disabled: boolean): Promise<UserAccount> {
    return this.changeByEmail(email, { disabled });
  }

  /**
   * Lets the next single sign-on with this (verified) email take over the password account: without
   * this, an SSO identity is never linked to a password account of the same email.
   */
  async allowSso(email: string): Promise<UserAccount> {
    const existing = await this.repository.findByEmail(normaliseEmail(email));
    if (existing?.ssoSubject)
      throw new AppError(409, 'sso_linked', `${existing.email} already signs in with single sign-on`);
    return this.changeByEmail(email, { ssoLinkAllowed: true });
  }

  private async changeByEmail(email: string, changes: Partial<UserRow>): Promise<UserAccount> {
    const existing = await this.repository.findByEmail(normaliseEmail(email));
    if (!existing) throw new AppError(404, 'user_not_found', `No account for ${normaliseEmail(email)}`);
    const updated = await this.repository.update(existing.id, changes);
    if (!updated) throw new AppError(404, 'user_not_found', `No account for ${normaliseEmail(email)}`);
    await this.onChanged(updated);
    return toUserAccount(updated);
  }
}
