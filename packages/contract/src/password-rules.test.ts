import { describe, expect, it } from 'vitest';
import { passwordProblems, passwordRules } from './password-rules.js';

const strict = { minLength: 10, lowercase: true, uppercase: true, number: true, symbol: true };

describe('password policy', () => {
  it('lists every rule before the user fails one', () => {
    expect(passwordRules(strict).map((rule) => rule.label)).toEqual([
      'At least 10 characters',
      'A lowercase letter',
      'An uppercase letter',
      'A number',
      'A symbol',
    ]);
  });

  it('says which rules a password breaks', () => {
    expect(passwordProblems(strict, 'short')).toEqual([
      'At least 10 characters',
      'An uppercase letter',
      'A number',
      'A symbol',
    ]);
    expect(passwordProblems(strict, 'Long-enough-1')).toEqual([]);
    expect(passwordProblems(strict, 'NOLOWERCASE-1')).toEqual(['A lowercase letter']);
    expect(passwordProblems(strict, 'Ünïcödé-pass9')).toEqual([]);
  });

  it('imposes only what the configuration asks', () => {
    const lenient = { minLength: 6, lowercase: false, uppercase: false, number: false, symbol: false };
    expect(passwordRules(lenient)).toHaveLength(1);
    expect(passwordProblems(lenient, 'abcdef')).toEqual([]);
    expect(passwordProblems(lenient, 'abcde')).toEqual(['At least 6 characters']);
  });
});
