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

  it("holds the spec's release notes in full, and nothing else", () => {
    expect(parseReleaseNotes(releaseNotes)).toEqual([
      {
        heading: 'Q2 2025',
        items: ['Better log handling', 'Time Tracker enabled for PS', 'DashVote API dashboard voting'],
      },
      {
        heading: 'Q1 2025',
        items: [
          'AS-Built Reports renamed Configuration Reports',
          'PS-Closure Documents tool added',
          'TAM Activity Report introduced',
          'Time Tracker for TAMs',
        ],
      },
    ]);
  });
});
