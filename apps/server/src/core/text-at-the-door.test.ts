import { describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGES } from '@ce/contract';
import { findUnstorableText, unstorableProblem, unstorableText } from './text-at-the-door.js';

describe('text the database cannot store', () => {
  it('tells a NUL and a lone surrogate apart from text it can store, a surrogate pair included', () => {
    expect(unstorableProblem('a\u0000b')).toBe('nul');
    expect(unstorableProblem('\ud800a')).toBe('loneSurrogate');
    expect(unstorableProblem('a\udc00')).toBe('loneSurrogate');
    expect(unstorableProblem('pair \ud83d\ude00, tab\t, bell\u0007, \uFFFD')).toBeNull();
  });

  it('finds the first one in a value or a key, by its path, and nothing in a clean body', () => {
    expect(findUnstorableText({ a: [1, 'ok', { b: 'x\u0000' }] })).toEqual({ path: 'a.2.b', problem: 'nul' });
    expect(findUnstorableText({ ok: 1, ['k\ud800']: 2 })).toEqual({ path: 'k\uFFFD', problem: 'loneSurrogate' });
    expect(findUnstorableText({ first: 'a\u0000', second: '\ud800' })?.path).toBe('first');
    expect(findUnstorableText('\u0000')).toEqual({ path: '', problem: 'nul' });
    expect(findUnstorableText({ a: ['b', { c: null, d: true, e: 1.5 }], f: 'g\ud83d\ude00' })).toBeNull();
  });

  it('says it in the contract words, naming a short printable field, the body when none', () => {
    const error = unstorableText(`x${'y'.repeat(100)}\u0000`, 'nul');
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(UNSTORABLE_TEXT_MESSAGES.nul(`x${'y'.repeat(63)}…`));
    expect(error.fields).toEqual([{ path: `x${'y'.repeat(63)}…`, message: error.message }]);
    expect(unstorableText('', 'loneSurrogate').message).toBe(UNSTORABLE_TEXT_MESSAGES.loneSurrogate('body'));
  });
});
