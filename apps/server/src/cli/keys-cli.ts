import path from 'node:path';
import { loadConfig, type AppConfig } from '../config/config.js';
import { restrictNewFiles } from '../core/data-dir.js';
import { loadOrCreateTokenKeys, rotateTokenKeys, writeTokenKeys } from '../core/secrets.js';
import { keyId } from '../core/token-vault.js';

const USAGE = `Usage: npm run keys -- <command>

The keys that seal customer tokens while jobs run, on the embedded default (SECRETS_DIR).

Commands:
  list          the current key and the older ones still accepted
  rotate        a new current key; the old one stays accepted until retired
  retire ID     stop accepting an older key: every token it sealed, wherever a copy lingers, is unreadable

Restart the server after a change. With REPORTS_KEY set, rotate by setting a new REPORTS_KEY and moving
the old one to REPORTS_KEY_PREVIOUS; retire it by removing it from there.`;

class UsageError extends Error {}

const idOf = (base64: string) => keyId(Buffer.from(base64, 'base64'));

/** Runs one command on the key file; returns the text to print. */
export function runKeysCommand(argv: string[], config: Pick<AppConfig, 'secretsDir' | 'tokenKeys'>): string {
  const [command, argument] = argv;
  if (command === undefined || command === 'help' || command === '--help') return USAGE;
  if (config.tokenKeys)
    throw new UsageError('The token keys come from REPORTS_KEY and REPORTS_KEY_PREVIOUS here: change them there.');
  switch (command) {
    case 'list': {
      const keys = loadOrCreateTokenKeys(config.secretsDir);
      return [
        `Key file: ${path.join(config.secretsDir, 'token-keys.json')}`,
        `${idOf(keys.current)}  current (seals new tokens)`,
        ...keys.previous.map((key) => `${idOf(key)}  previous (opens what it sealed until retired)`),
      ].join('\n');
    }
    case 'rotate': {
      const before = idOf(loadOrCreateTokenKeys(config.secretsDir).current);
      const after = idOf(rotateTokenKeys(config.secretsDir).current);
      return `New current key ${after}. Restart the server; once running jobs have finished, retire the old key with: npm run keys -- retire ${before}`;
    }
    case 'retire': {
      if (!argument) throw new UsageError(`retire needs the ID of a key\n\n${USAGE}`);
      const keys = loadOrCreateTokenKeys(config.secretsDir);
      if (idOf(keys.current) === argument)
        throw new UsageError(`${argument} is the current key: rotate first, then retire it.`);
      const previous = keys.previous.filter((key) => idOf(key) !== argument);
      if (previous.length === keys.previous.length) throw new UsageError(`No previous key ${argument}.`);
      // Its id is kept as retired: the sweep deletes what it sealed (never what an unknown, newer key sealed).
      writeTokenKeys(config.secretsDir, {
        current: keys.current,
        previous,
        retired: [...new Set([...(keys.retired ?? []), argument])],
      });
      return `Retired ${argument}: the tokens it sealed can no longer be opened. Restart the server; jobs still holding such a token end as failed.`;
    }
    default:
      throw new UsageError(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  restrictNewFiles();
  try {
    console.log(runKeysCommand(process.argv.slice(2), loadConfig()));
  } catch (error) {
    process.exitCode = error instanceof UsageError ? 2 : 1;
    console.error(error instanceof Error ? error.message : String(error));
  }
}
