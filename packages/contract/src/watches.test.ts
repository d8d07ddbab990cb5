import { describe, expect, it } from 'vitest';
import { isPersonName } from './watches.js';

describe("a consent's contact name", () => {
  it('takes names as people write them', () => {
    for (const name of [
      'Dana Admin',
      'Jean-Luc Picard',
      "Seán O'Brien",
      'Li Na',
      'J. R. Tolkien',
      'María José García',
      '山田太郎',
    ])
      expect(isPersonName(name), name).toBe(true);
  });

  it('refuses notes, placeholders, initials alone and commands, in one word or two', () => {
    for (const note of [
      'ok',
      'approved',
      'Jane',
      'ok ok',
      'n a',
      'no one',
      'test test',
      'x. y.',
      'A B',
      'DROP TABLE',
      'Jane 123',
      'jane@acme.example',
    ])
      expect(isPersonName(note), note).toBe(false);
  });
});
