import { DEMO_ACCOUNTS } from '@ce/contract';
import { hashPassword, verifyPassword } from './passwords.js';
import type { UsersRepository } from './users.repository.js';
import { localeForRole } from './users.service.js';

/** Creates the demo accounts, or brings their role and password back to the configured ones. */
export async function seedDemoAccounts(repository: UsersRepository, password: string): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    const existing = await repository.findByEmail(account.email);
    if (!existing) {
      await repository.insert({
        email: account.email,
        name: account.name,
        locale: localeForRole(account.role),
        passwordHash: await hashPassword(password),
        isDemo: true,
      });
      continue;
    }
    const passwordMatches = await verifyPassword(existing.passwordHash, password);
    if (!passwordMatches || existing.locale !== localeForRole(account.role) || existing.disabled || !existing.isDemo) {
      await repository.update(existing.id, {
        locale: localeForRole(account.role),
        passwordHash: passwordMatches ? existing.passwordHash : await hashPassword(password),
        disabled: false,
        mustChangePassword: false,
        isDemo: true,
      });
    }
  }
}
