import { describe, expect, it } from 'vitest';
import { generateResetCode, hashResetCode, normaliseResetCode, resetCodeMatches } from './reset-codes.js';

describe('reset codes', () => {
  it('are 12 base32 characters in groups of four, from a cryptographic source', () => {
    const codes = Array.from({ length: 500 }, generateResetCode);
    expect(
      codes.every((code) => /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/.test(code)),
    ).toBe(true);
    expect(new Set(codes).size).toBe(500);
  });

  it('match however they are typed, and only themselves', () => {
    const code = '7KQM-2XPD-01TA';
    const stored = hashResetCode(code);
    expect(resetCodeMatches('7kqm 2xpd o1ta', stored)).toBe(true);
    expect(resetCodeMatches('7KQM2XPDOITA', stored)).toBe(true);
    expect(resetCodeMatches('7KQM-2XPD-01TB', stored)).toBe(false);
    expect(resetCodeMatches('', stored)).toBe(false);
    expect(normaliseResetCode(' ab-cd ')).toBe('ABCD');
  });
});
