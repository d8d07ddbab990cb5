import { describe, expect, it } from 'vitest';
import { codeIsUsable, generateResetCode, RESET_CODE_MAX_ATTEMPTS, RESET_CODE_TTL_MS } from './reset-codes.js';

describe('reset codes', () => {
  it('are six digits', () => {
    const codes = Array.from({ length: 200 }, generateResetCode);
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it('last 15 minutes, work once, and allow a few attempts', () => {
    const issued = new Date('2026-01-01T09:00:00Z');
    const code = { expiresAt: new Date(issued.getTime() + RESET_CODE_TTL_MS), usedAt: null, attempts: 0 };
    expect(codeIsUsable(code, new Date(issued.getTime() + 14 * 60_000))).toBe(true);
    expect(codeIsUsable(code, new Date(issued.getTime() + 15 * 60_000))).toBe(false);
    expect(codeIsUsable({ ...code, usedAt: issued }, issued)).toBe(false);
    expect(codeIsUsable({ ...code, attempts: RESET_CODE_MAX_ATTEMPTS }, issued)).toBe(false);
    expect(codeIsUsable(undefined, issued)).toBe(false);
  });
});
