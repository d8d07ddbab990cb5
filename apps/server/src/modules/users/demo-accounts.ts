import type { Role } from '@ce/contract';
import { hashPassword, verifyPassword } from './passwords.js';
import type { UsersRepository } from './users.repository.js';
import { localeForRole } from './users.service.js';

/** The demo accounts of the embedded default, one per role. */
export const DEMO_ACCOUNTS: { email: string; name: string; role: Role }[] = [
  { email: 'superuser@demo.local', name: 'Sam Super', role: 'Super User' },
  { email: 'proserv@demo.local', name: 'Priya ProServ', role: 'ProServ' },
  { email: 'tam@demo.local', name: 'Taylor TAM', role: 'TAM' },
  { email: 'adoption@demo.local', name: 'Alex Adoption', role: 'Adoption' },
  { email: 'pmo@demo.local', name: 'Pat PMO', role: 'PMO' },
  { email: 'engineering@demo.local', name: 'Erin Engineering', role: 'Engineering' },
  { email: 'support@demo.local', name: 'Sasha Support', role: 'Support' },
  { email: 't3@demo.local', name: 'Toni T3', role: 'T3' },
  { email: 'user@demo.local', name: 'Uma User', role: 'User' },
];

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
