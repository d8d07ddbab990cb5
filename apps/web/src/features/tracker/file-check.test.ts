import { describe, expect, it } from 'vitest';
import { byEngagement, fileProblem } from './file-check';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('the tracker file check', () => {
  it("says the spec's messages", () => {
    expect(fileProblem(null, '2026-11-23')).toBe('Please select both a file and a date before uploading.');
    expect(fileProblem(file('hours.xlsx'), '')).toBe('Please select both a file and a date before uploading.');
    expect(fileProblem(file('hours.pdf'), '2026-11-23')).toBe(
      'Please select a valid Excel file (.xlsx, .xls) or CSV file.',
    );
    expect(fileProblem(file('hours.csv', 10 * 1024 * 1024), '2026-11-23')).toBe('File size must be less than 10MB.');
    expect(fileProblem(file('Hours.XLS'), '2026-11-23')).toBeNull();
  });

  it('groups rows by engagement with their total hours', () => {
    const rows = [
      { Engagement_ID: 'A', hours_spent: 1.25 },
      { Engagement_ID: 'Unknown', hours_spent: 2 },
      { Engagement_ID: 'A', hours_spent: 0.5 },
    ];
    expect(byEngagement(rows).map((group) => [group.engagement, group.rows.length, group.hours])).toEqual([
      ['A', 2, 1.75],
      ['Unknown', 1, 2],
    ]);
  });
});
