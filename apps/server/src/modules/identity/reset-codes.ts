import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const RESET_CODE_TTL_MS = 15 * 60_000;
export const RESET_CODE_MAX_ATTEMPTS = 5;

/** Crockford's base32: no I, L, O or U, so a code read aloud or retyped is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 12;

/**
 * A reset code: 12 characters of base32 from a cryptographic source (60 bits), shown in groups of
 * four (`7KQM-2XPD-9RTA`). With five attempts per code and a few codes an hour, guessing is hopeless.
 */
export function generateResetCode(): string {
  const characters = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
  return characters.match(/.{4}/g)?.join('-') ?? characters;
}

/** What a person may type for a code: any case, with or without dashes and spaces, O for 0, I or L for 1. */
export function normaliseResetCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replaceAll('O', '0')
    .replace(/[IL]/g, '1');
}

/**
 * Codes are long random secrets, so a plain SHA-256 is enough to keep a database copy from revealing
 * them (a slow hash would only make each attempt cost the server more).
 */
export function hashResetCode(code: string): string {
  return createHash('sha256').update(normaliseResetCode(code)).digest('hex');
}

export function resetCodeMatches(input: string, storedHash: string): boolean {
  const given = Buffer.from(hashResetCode(input), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
