import { describe, expect, it } from 'vitest';
import { resultsCsv } from './change-set-results.js';

describe('a change set results file as CSV', () => {
  it('quotes what needs quoting and disarms text a spreadsheet would run as a formula', () => {
    const csv = resultsCsv([
      {
        accountGroup: 'EMEA, North',
        kind: 'Alert rule',
        name: '=HYPERLINK("https://evil.example")',
        action: 'Create',
        status: 'failed',
        id: null,
        note: null,
        error: 'Line one\nline two',
        dropped: 'Checkout: No http-server test of this name',
      },
    ]).toString('utf8');
    const [header, row] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe('Account group,Item,Name,Action,Status,Id,Note,Error,Dropped references');
    expect(row).toBe(
      `"EMEA, North",Alert rule,"'=HYPERLINK(""https://evil.example"")",Create,failed,,,"Line one\nline two",Checkout: No http-server test of this name`,
    );
  });
});
