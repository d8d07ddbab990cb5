/** What other modules may use of the users module: accounts by identity, passwords, the service. */
import type { UsersRepository } from './users.repository.js';

export type { UserRow } from './users.repository.js';

export { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
export { normaliseEmail, toSessionUser, UsersService } from './users.service.js';

/** The account rows a sign-in method reads and writes (password, SSO): lookups, creation, changes. */
export type UserAccounts = Pick<UsersRepository, 'findByEmail' | 'findById' | 'findBySsoSubject' | 'insert' | 'update'>;
