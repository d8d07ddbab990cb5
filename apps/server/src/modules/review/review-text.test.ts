import { describe, expect, it } from 'vitest';
import { printableText, printableValue } from './review-text.js';

describe("the pack's text", () => {
  it('leaves out what XML forbids and the controls a reader shows as boxes, keeping tabs and line ends', () => {
    expect(printableText('Payroll\u0000\u0001 HTTP\u0008\u000b\u000c\u001f\u007f\u0085\ufffe\uffff')).toBe(
      'Payroll HTTP',
    );
    expect(printableText('a\tb\nc\rd')).toBe('a\tb\nc\rd');
  });

  it('marks a lone surrogate with U+FFFD and keeps a pair whole', () => {
    expect(printableText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(printableText('Zürich 🙂 東京')).toBe('Zürich 🙂 東京');
  });

  it('makes every string of a value printable, keys too, and leaves numbers, nulls and booleans as they are', () => {
    expect(
      printableValue({
        customer: 'Acme\u0001',
        tests: [{ test: 'DNS\u0002', availability: [99.5, null], ok: true }],
        ['key\u0003']: 'v',
      }),
    ).toEqual({ customer: 'Acme', tests: [{ test: 'DNS', availability: [99.5, null], ok: true }], key: 'v' });
  });
});
