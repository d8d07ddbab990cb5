import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A server secret: from the environment when given (several instances must share it), else a random
 * key generated once and kept under DATA_DIR/secrets (the embedded default).
 */
export function loadOrCreateSecret(dataDir: string, name: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const folder = path.join(dataDir, 'secrets');
  const file = path.join(folder, `${name}.key`);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('base64'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
