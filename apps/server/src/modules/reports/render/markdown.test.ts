import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './markdown.js';

describe('escapeMarkdown', () => {
  it('makes names inert: no emphasis, links, headings, HTML or extra lines', () => {
    expect(escapeMarkdown('**Acme** [click](https://evil.example)')).toBe(
      '\\*\\*Acme\\*\\* \\[click\\]\\(https://evil\\.example\\)',
    );
    expect(escapeMarkdown('<img src=x onerror=alert(1)> & co')).toBe('&lt;img src=x onerror=alert\\(1\\)&gt; &amp; co');
    expect(escapeMarkdown('line one\n# line two')).toBe('line one \\# line two');
    expect(escapeMarkdown('Plain name 42')).toBe('Plain name 42');
  });
});
