import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a presented secret is the expected one, in a time that tells neither its length nor where it
 * differs: both are hashed to 32 bytes and those are compared in constant time.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
