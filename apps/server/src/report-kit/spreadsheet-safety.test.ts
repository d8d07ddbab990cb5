import { describe, expect, it } from 'vitest';
import { neutralize } from './spreadsheet-safety.js';

describe('neutralize', () => {
  it('disarms text that starts like a formula and leaves everything else alone', () => {
    expect(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=x'].map(neutralize)).toEqual([
      "'=1+1",
      "'+SUM(A1)",
      "'-2+3",
      "'@cmd",
      "'\t=x",
    ]);
    expect(['Payroll', 'a=b', '', 42, -3, null].map(neutralize)).toEqual(['Payroll', 'a=b', '', 42, -3, null]);
  });
});
