import { describe, expect, it } from 'vitest';
import { readBody, wellFormed, wellFormedJson, wellFormedText } from './well-formed.js';

describe('well-formed text for the database', () => {
  it('replaces lone surrogates and U+0000 with U+FFFD and keeps surrogate pairs', () => {
    expect(wellFormedText('\ud800a\udc00b\u0000c\ud83d\ude00')).toBe('\uFFFDa\uFFFDb\uFFFDc\ud83d\ude00');
  });

  it('mends strings and keys at any depth, and gives back the very value when nothing needs it', () => {
    const sound = { tests: [{ testName: 'Intranet', tags: ['a'] }], when: new Date(0) };
    expect(wellFormed(sound)).toBe(sound);
    const odd = { tests: [{ testName: '\ud800x', ['k\u0000']: ['\udfff'] }], n: 1 };
    expect(wellFormed(odd)).toEqual({ tests: [{ testName: '\uFFFDx', 'k\uFFFD': ['\uFFFD'] }], n: 1 });
    expect(odd.tests[0]?.testName).toBe('\ud800x');
  });

  it('writes JSON that holds no escape PostgreSQL refuses, and the same JSON as JSON.stringify otherwise', () => {
    const sound = { name: 'back\\ud800slash', pair: '\ud83d\ude00' };
    expect(wellFormedJson(sound)).toBe(JSON.stringify(sound));
    const written = wellFormedJson({ name: '\ud800x', nul: 'a\u0000b' });
    expect(written).not.toMatch(/\\u(d[89a-f]|0000)/i);
    expect(JSON.parse(written)).toEqual({ name: '\uFFFDx', nul: 'a\uFFFDb' });
  });

  it('reads a platform answer escaping a lone surrogate or U+0000 as well-formed JSON', async () => {
    const answer = new Response(String.raw`{"tests":[{"testName":"\ud800Intranet","x":"a\u0000b"}]}`);
    expect(await readBody(answer)).toEqual({ tests: [{ testName: '\uFFFDIntranet', x: 'a\uFFFDb' }] });
    expect(await readBody(new Response('not json\u0000'))).toBe('not json\uFFFD');
    expect(await readBody(new Response(null, { status: 204 }))).toBeUndefined();
  });
});
