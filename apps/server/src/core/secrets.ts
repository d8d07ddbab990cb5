import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/config.js';
import { TokenVault } from './token-vault.js';

/**
 * Server secrets of the embedded default live in SECRETS_DIR, never inside DATA_DIR: a backup or a
 * copy of the data folder then holds sealed tokens but not the key that opens them. Folders are 0700,
 * files 0600. With REPORTS_KEY and COOKIE_SECRET set (required on PostgreSQL and in production),
 * nothing is written here.
 */

const TOKEN_KEYS_FILE = 'token-keys.json';

export interface StoredTokenKeys {
  /** Base64 of the key that seals new tokens. */
  current: string;
  /** Older keys, still accepted to open what they sealed until retired. */
  previous: string[];
  /** Ids of retired keys: the tokens they sealed are deleted by the sweep. */
  retired?: string[];
}

export function prepareSecretsDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Writes a secret file atomically with mode 0600. */
function writeSecret(file: string, content: string): void {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

const newKey = () => randomBytes(32).toString('base64');

/**
 * A server secret: from the environment when given (several instances must share it), else a random
 * key generated once and kept in SECRETS_DIR.
 */
export function loadOrCreateSecret(secretsDir: string, name: string, fromEnv: string | null | undefined): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  prepareSecretsDir(secretsDir);
  const file = path.join(secretsDir, `${name}.key`);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  const secret = newKey();
  writeSecret(file, secret);
  return Buffer.from(secret, 'base64');
}

export function readTokenKeys(secretsDir: string): StoredTokenKeys | null {
  const file = path.join(secretsDir, TOKEN_KEYS_FILE);
  if (!existsSync(file)) return null;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredTokenKeys>;
  if (typeof parsed.current !== 'string') throw new Error(`${file} has no current key`);
  return {
    current: parsed.current,
    previous: Array.isArray(parsed.previous) ? parsed.previous.map(String) : [],
    retired: Array.isArray(parsed.retired) ? parsed.retired.map(String) : [],
  };
}

export function writeTokenKeys(secretsDir: string, keys: StoredTokenKeys): void {
  prepareSecretsDir(secretsDir);
  writeSecret(path.join(secretsDir, TOKEN_KEYS_FILE), `${JSON.stringify(keys, null, 2)}\n`);
}

/** The token keys of the embedded default, created on first use. */
export function loadOrCreateTokenKeys(secretsDir: string): StoredTokenKeys {
  const existing = readTokenKeys(secretsDir);
  if (existing) return existing;
  const created = { current: newKey(), previous: [] };
  writeTokenKeys(secretsDir, created);
  return created;
}

/** A new current key; the old one stays accepted (previous) until retired. */
export function rotateTokenKeys(secretsDir: string): StoredTokenKeys {
  const keys = loadOrCreateTokenKeys(secretsDir);
  const rotated = { current: newKey(), previous: [keys.current, ...keys.previous], retired: keys.retired ?? [] };
  writeTokenKeys(secretsDir, rotated);
  return rotated;
}

/**
 * Earlier versions kept their keys in DATA_DIR/secrets. Moves them out: the old token key becomes a
 * previous key (jobs sealed with it still finish) under a fresh current key, and the folder is removed.
 * Returns what was moved, for the start log.
 */
export function moveLegacySecrets(dataDir: string, secretsDir: string): string[] {
  const legacy = path.join(dataDir, 'secrets');
  if (!existsSync(legacy)) return [];
  const moved: string[] = [];
  const reportsKey = path.join(legacy, 'reports.key');
  if (existsSync(reportsKey)) {
    const old = readFileSync(reportsKey, 'utf8').trim();
    const keys = readTokenKeys(secretsDir) ?? { current: newKey(), previous: [] };
    if (keys.current !== old && !keys.previous.includes(old)) keys.previous.push(old);
    writeTokenKeys(secretsDir, keys);
    moved.push('reports.key');
  }
  const cookieKey = path.join(legacy, 'cookie.key');
  if (existsSync(cookieKey) && !existsSync(path.join(secretsDir, 'cookie.key'))) {
    prepareSecretsDir(secretsDir);
    writeSecret(path.join(secretsDir, 'cookie.key'), readFileSync(cookieKey, 'utf8').trim());
    moved.push('cookie.key');
  }
  for (const name of readdirSync(legacy)) rmSync(path.join(legacy, name), { force: true });
  rmSync(legacy, { recursive: true, force: true });
  return moved;
}

/**
 * The key ring for customer tokens: REPORTS_KEY (and REPORTS_KEY_PREVIOUS) when set, else the key file
 * of the embedded default in SECRETS_DIR, outside DATA_DIR. Keys an earlier version kept inside
 * DATA_DIR are moved out first.
 */
export function openTokenVault(
  config: Pick<AppConfig, 'tokenKeys' | 'dataDir' | 'secretsDir'>,
  logger: { warn(object: object, message: string): void },
): TokenVault {
  if (config.tokenKeys)
    return TokenVault.fromBase64(config.tokenKeys.current, config.tokenKeys.previous, config.tokenKeys.retired);
  const moved = moveLegacySecrets(config.dataDir, config.secretsDir);
  if (moved.length > 0)
    logger.warn(
      { moved, secretsDir: config.secretsDir },
      'keys moved out of DATA_DIR; once running jobs finish, retire the old token key with `npm run keys -- retire`',
    );
  const keys = loadOrCreateTokenKeys(config.secretsDir);
  return TokenVault.fromBase64(keys.current, keys.previous, keys.retired);
}
