import { describe, expect, it } from 'vitest';
import type { AlertRule, PlatformTest } from '@ce/platform-client';
import { sheetName } from './render.js';
import { analyseGroup } from './rules.js';

const rule = (changes: Partial<AlertRule>): AlertRule => ({ ruleId: '1', ruleName: 'Rule', testIds: [], ...changes });
const tests: PlatformTest[] = [
  { testId: '10', testName: 'Shop front', type: 'http-server' },
  { testId: '11', testName: 'Checkout', type: 'page-load' },
];

describe('analyseGroup', () => {
  it('lists each rule with its tests by name and its notifications, and finds what needs a look', () => {
    const findings = analyseGroup(
      'Production',
      [
        rule({
          ruleId: '1',
          ruleName: 'Slow shop',
          alertType: 'http-server',
          expression: '((responseTime >= 500 ms))',
          severity: 'major',
          roundsViolatingRequired: 2,
          roundsViolatingOutOf: 3,
          testIds: ['10', '99'],
          notifications: { email: { recipients: ['noc@example.com'] }, webhook: [{ integrationName: 'PagerDuty' }] },
        }),
        rule({ ruleId: '2', ruleName: 'Unused', alertType: 'http-server', expression: '((responseTime>=500 ms))' }),
        rule({ ruleId: '3', ruleName: 'Quiet', alertType: 'page-load', testIds: ['11'] }),
      ],
      tests,
    );
    expect(findings.rows[0]).toEqual({
      ruleName: 'Slow shop',
      alertType: 'http-server',
      expression: '((responseTime >= 500 ms))',
      severity: 'major',
      direction: '',
      rounds: '2 of 3',
      isDefault: false,
      tests: ['Shop front', 'test 99'],
      notifications: ['email: noc@example.com', 'webhook: PagerDuty'],
    });
    expect(findings.rows[2]?.tests).toEqual(['Checkout']);
    expect(findings.unassigned).toEqual(['Unused']);
    expect(findings.withoutNotification).toEqual(['Unused', 'Quiet']);
    // The same expression once spaces are ignored, for the same alert type.
    expect(findings.sameExpression).toEqual([['Slow shop', 'Unused']]);
  });
});

describe('sheetName', () => {
  it('fits Excel: 31 characters, none of []:*?/\\, unique whatever the case', () => {
    const taken = new Set<string>(['summary']);
    expect(sheetName('Prod [EU]: web/api', taken)).toBe('Prod  EU   web api');
    expect(sheetName('A'.repeat(40), taken)).toHaveLength(31);
    expect(sheetName('SUMMARY', taken)).toBe('SUMMARY (2)');
    expect(sheetName('Summary', taken)).toBe('Summary (3)');
    expect(sheetName('   ', taken)).toBe('Account group');
  });
});
