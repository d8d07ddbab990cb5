import { describe, expect, it } from 'vitest';
import { errorForLog, LOGGED_MESSAGE_CHARS } from './logging.js';

describe('what a log says of an error', () => {
  it("keeps a database error's class, code and message, not the row it quotes nor the answer it was storing", () => {
    const refused = Object.assign(new Error('invalid input syntax for type json'), {
      code: '22P02',
      detail: 'Unicode low surrogate must follow a high surrogate.',
      where: 'JSON data, line 1: {"email":"ana@globex.example"',
    });
    const query = Object.assign(
      new Error(`Failed query: insert into "report_reads" values ($1)\nparams: {"email":"ana@globex.example"}`),
      { query: 'insert into "report_reads" values ($1)', params: ['{"email":"ana@globex.example"}'], cause: refused },
    );
    const logged = errorForLog(query);
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Failed query: insert into "report_reads" values ($1)',
      cause: { type: 'Error', errorCode: '22P02', message: 'invalid input syntax for type json' },
    });
    expect(JSON.stringify(logged)).not.toContain('ana@globex.example');
    expect(JSON.stringify(logged)).toContain('logging.test.ts');
  });

  it('cuts a long message, and a thrown string, to a few hundred characters', () => {
    const long = 'x'.repeat(37_000);
    expect(errorForLog(new Error(long))).toMatchObject({ message: `${'x'.repeat(LOGGED_MESSAGE_CHARS)}…` });
    expect(errorForLog(long)).toBe(`${'x'.repeat(LOGGED_MESSAGE_CHARS)}…`);
    expect(errorForLog({ email: 'ana@globex.example' })).toBe('[object]');
  });

  it('follows causes a few levels only', () => {
    let error = new Error('bottom');
    for (let level = 0; level < 10; level += 1) error = new Error(`level ${level}`, { cause: error });
    expect(JSON.stringify(errorForLog(error)).match(/"message"/g)).toHaveLength(4);
  });
});
