import { describe, expect, it } from 'vitest';
import { escapeMarkdown, mdLines, mdSafe } from './markdown.js';

describe('escapeMarkdown', () => {
  it('makes names inert: no emphasis, links, headings, HTML or extra lines', () => {
    expect(escapeMarkdown('**Acme** [click](https://evil.example)')).toBe(
      '\\*\\*Acme\\*\\* \\[click\\]\\(https://evil\\.example\\)',
    );
    expect(escapeMarkdown('<img src=x onerror=alert(1)> & co')).toBe('&lt;img src=x onerror=alert\\(1\\)&gt; &amp; co');
    expect(escapeMarkdown('line one\n# line two')).toBe('line one \\# line two');
    expect(escapeMarkdown('Plain name 42')).toBe('Plain name 42');
  });

  it('escapes every value inserted in a message template, and keeps markdown the product wrote', () => {
    const name = '[Reset your password](https://evil.example)';
    const line = mdSafe`- TLS server names: ${name}`;
    expect(line.text).toBe('- TLS server names: \\[Reset your password\\]\\(https://evil\\.example\\)');
    expect(mdSafe`**Case ${'42'}** ${line}`.text).toBe(`**Case 42** ${line.text}`);
    expect(mdLines([mdSafe`one`, null, mdSafe``, mdSafe`two ${'*'}`]).text).toBe('one\ntwo \\*');
  });
});
