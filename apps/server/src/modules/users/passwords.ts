import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when an account does not exist, so a missing account costs the same time as a wrong password.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hash(randomBytes(16).toString('hex'));
  return decoyHash;
}

const TEMPORARY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/**
 * A temporary password: 14 random characters (about 80 bits) plus a fixed tail that satisfies any
 * policy asking for upper case, lower case, a digit and a symbol.
 */
export function generateTemporaryPassword(): string {
  const bytes = randomBytes(14);
  const core = Array.from(bytes, (byte) => TEMPORARY_ALPHABET[byte % TEMPORARY_ALPHABET.length]).join('');
  return `${core.slice(0, 7)}-${core.slice(7)}-Q7x`;
}
