import { describe, expect, it } from 'vitest';
import { parseReleaseNotes } from './parse-release-notes';
import releaseNotes from './release-notes.md?raw';

describe('parseReleaseNotes', () => {
  it('reads headings and their items, ignoring other lines', () => {
    expect(parseReleaseNotes('intro\n## Q1\n- a\n- b\n\ntext\n## Q2\n- c')).toEqual([
      { heading: 'Q1', items: ['a', 'b'] },
      { heading: 'Q2', items: ['c'] },
    ]);
  });

  it("starts with the original's Q2 2025 and Q1 2025 entries, then this product's own", () => {
    const headings = parseReleaseNotes(releaseNotes).map((entry) => entry.heading);
    expect(headings.slice(0, 2)).toEqual(['Q2 2025', 'Q1 2025']);
    expect(headings.length).toBeGreaterThan(2);
    const q2 = parseReleaseNotes(releaseNotes).find((entry) => entry.heading === 'Q2 2025');
    expect(q2?.items.join(' ')).toMatch(/log handling.*Time Tracker enabled for PS.*DashVote/);
  });
});
