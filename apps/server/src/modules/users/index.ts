/** The users module: accounts, their roles and states; what other modules may use of it. */
import type { AppModule } from '../../core/modules.js';
import { seedDemoAccounts } from './demo-accounts.js';
import { configureHashing } from './passwords.js';
import { UsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

export type { UserRow } from './users.repository.js';

export { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
export { normaliseEmail, toSessionUser, UsersService } from './users.service.js';

/** The account rows a sign-in method reads and writes (password, SSO): lookups, creation, changes. */
export type UserAccounts = Pick<UsersRepository, 'findByEmail' | 'findById' | 'findBySsoSubject' | 'insert' | 'update'>;

declare module '../../core/modules.js' {
  interface ModuleServices {
    users: UsersService;
    /** The account rows, for the sign-in methods (identity, SSO). */
    accounts: UserAccounts;
  }
}

export const usersModule: AppModule = {
  name: 'users',
  async register({ db, config, services, routes }) {
    configureHashing(config.hashingConcurrency);
    const repository = new UsersRepository(db);
    // Personal API tokens end with what the account lost, and a deactivated owner's watches stop (those modules
    // register after this one).
    const users = new UsersService(repository, services.get('audit'), async (account) => {
      await services.get('apiTokens').accountChanged(account);
      await services.get('watches').accountChanged(account);
    });
    routes.add((app) => app.register(usersRoutes, { users }));
    if (config.demoMode) await seedDemoAccounts(repository, config.demoPassword);
    return { users, accounts: repository };
  },
};
