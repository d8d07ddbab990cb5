import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../core/errors.js';
import { Semaphore } from '../../core/semaphore.js';

/**
 * argon2id costs 19 MiB and tens of milliseconds per call: a burst of sign-ins could exhaust memory
 * and CPU. At most `HASHING_CONCURRENCY` run at once; a long line is refused with 503.
 */
const hashing = new Semaphore(
  4,
  128,
  () => new AppError(503, 'server_busy', 'The server is busy. Try again in a moment.'),
);

export function configureHashing(concurrency: number): void {
  hashing.resize(concurrency, concurrency * 32);
}

/** argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return hashing.run(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

// Verified against when an account does not exist, so a missing account costs the same time as a wrong password.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
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
