import { parseArgs } from 'node:util';
import { ROLES } from '@ce/contract';
import { loadConfig } from '../config/config.js';
import { restrictNewFiles } from '../core/data-dir.js';
import { openDatabase } from '../core/database.js';
import { AppError } from '../core/errors.js';
import { AuditRepository } from '../modules/audit/audit.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { parseRole, UsersService } from '../modules/users/users.service.js';
import path from 'node:path';

const USAGE = `Usage: npm run user -- <command> [arguments]

Commands:
  add EMAIL --role ROLE [--name "Full Name"]   create an account; prints a temporary password
  list                                         list every account
  set-role EMAIL ROLE                          change an account's role
  disable EMAIL                                stop an account from signing in
  enable EMAIL                                 allow a disabled account to sign in again
  allow-sso EMAIL                              let the next single sign-on with this email take over the account

Roles: ${ROLES.join(', ')}`;

/** Runs one CLI command against the users service; returns the text to print. Throws AppError on bad input. */
export async function runUserCommand(argv: string[], users: UsersService): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, email, extra] = positionals;
  const needEmail = () => {
    if (!email) throw new AppError(400, 'usage', `${command} needs an EMAIL\n\n${USAGE}`);
    return email;
  };
  switch (command) {
    case 'add': {
      if (!values.role) throw new AppError(400, 'usage', `add needs --role\n\n${USAGE}`);
      const { user, temporaryPassword } = await users.add({
        email: needEmail(),
        role: parseRole(values.role),
        name: values.name ?? null,
      });
      return [
        `Created ${user.email} (${user.role}).`,
        `Temporary password (shown once): ${temporaryPassword}`,
        'They will be asked to choose a new password at first sign-in.',
      ].join('\n');
    }
    case 'list': {
      const rows = await users.list();
      if (rows.length === 0) return 'No accounts.';
      return rows
        .map((user) =>
          [user.email.padEnd(36), user.role.padEnd(12), user.disabled ? 'disabled' : 'active  ', user.name ?? ''].join(
            ' ',
          ),
        )
        .join('\n');
    }
    case 'set-role': {
      if (!extra) throw new AppError(400, 'usage', `set-role needs EMAIL and ROLE\n\n${USAGE}`);
      const user = await users.setRole(needEmail(), parseRole(extra));
      return `${user.email} is now ${user.role}.`;
    }
    case 'disable':
      return `${(await users.setDisabled(needEmail(), true)).email} is disabled.`;
    case 'enable':
      return `${(await users.setDisabled(needEmail(), false)).email} is enabled.`;
    case 'allow-sso':
      return `${(await users.allowSso(needEmail())).email} will be linked to the single sign-on identity that next signs in with this email.`;
    case undefined:
    case 'help':
      return USAGE;
    default:
      throw new AppError(400, 'usage', `Unknown command "${command}"\n\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  restrictNewFiles();
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  try {
    console.log(
      await runUserCommand(
        process.argv.slice(2),
        new UsersService(new UsersRepository(database.db), new AuditRepository(database.db)),
      ),
    );
  } catch (error) {
    process.exitCode = error instanceof AppError && error.code === 'usage' ? 2 : 1;
    console.error(error instanceof Error ? error.message : String(error));
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  await main();
}
