import { describe, expect, it } from 'vitest';
import type { AlertRule } from '@ce/platform-client';
import { conditionInWords } from './describe.js';

const rule = (expression: string | undefined): AlertRule => ({
  ruleId: '1',
  ruleName: 'Loss',
  expression,
  alertType: 'agent-to-server',
  roundsViolatingOutOf: 3,
  roundsViolatingRequired: 2,
  severity: 'major',
  isDefault: false,
  testIds: [],
  notifications: {},
});

describe('conditionInWords', () => {
  it('keeps the brackets balanced: only a pair around the whole condition goes', () => {
    expect(conditionInWords(rule('((loss >= 10%) || (probDetail != ""))'))).toBe(
      '2 of 3 rounds: (loss >= 10%) || (probDetail != "")',
    );
    // Two groups side by side: the first "(" does not match the last ")", nothing goes.
    expect(conditionInWords(rule('(loss >= 10%) || (probDetail != "")'))).toBe(
      '2 of 3 rounds: (loss >= 10%) || (probDetail != "")',
    );
  });

  it('removes every pair that wraps the whole condition, and no bracket a string holds', () => {
    expect(conditionInWords(rule('((probDetail != ""))'))).toBe('2 of 3 rounds: probDetail != ""');
    expect(conditionInWords(rule(' ((responseTime > 300 ms)) '))).toBe('2 of 3 rounds: responseTime > 300 ms');
    expect(conditionInWords(rule('(probDetail == ")(")'))).toBe('2 of 3 rounds: probDetail == ")("');
  });

  it('leaves an unbalanced condition as the platform wrote it, and says when there is none', () => {
    expect(conditionInWords(rule('((loss >= 10%)'))).toBe('2 of 3 rounds: ((loss >= 10%)');
    expect(conditionInWords(rule('(())'))).toBe('2 of 3 rounds: no condition');
    expect(conditionInWords(rule(undefined))).toBe('2 of 3 rounds: no condition');
  });
});
