import { randomInt } from 'node:crypto';

export const RESET_CODE_TTL_MS = 15 * 60_000;
export const RESET_CODE_MAX_ATTEMPTS = 5;

/** Six digits, from a cryptographic source. */
export function generateResetCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export interface StoredCode {
  expiresAt: Date;
  usedAt: Date | null;
  attempts: number;
}

/** Whether a stored code may still be tried: not used, not expired, attempts left. */
export function codeIsUsable(code: StoredCode | undefined, now: Date): code is StoredCode {
  return code !== undefined && code.usedAt === null && code.expiresAt > now && code.attempts < RESET_CODE_MAX_ATTEMPTS;
}
