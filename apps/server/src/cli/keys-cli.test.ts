import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTokenKeys } from '../core/secrets.js';
import { keyId } from '../core/token-vault.js';
import { runKeysCommand } from './keys-cli.js';

describe('npm run keys', () => {
  const folders: string[] = [];
  const secretsDir = () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'ce-keys-'));
    folders.push(folder);
    return path.join(folder, 'keys');
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const idOf = (base64: string) => keyId(Buffer.from(base64, 'base64'));

  it('rotates to a new current key, keeps the old one until it is retired, in a file only the owner reads', () => {
    const dir = secretsDir();
    const config = { secretsDir: dir, tokenKeys: null };
    expect(runKeysCommand(['list'], config)).toMatch(/current \(seals new tokens\)/);
    const first = readTokenKeys(dir)?.current ?? '';
    expect(runKeysCommand(['rotate'], config)).toContain(`npm run keys -- retire ${idOf(first)}`);
    const rotated = readTokenKeys(dir);
    expect(rotated?.previous).toEqual([first]);
    expect(runKeysCommand(['list'], config)).toContain(`${idOf(first)}  previous`);
    expect(() => runKeysCommand(['retire', idOf(rotated?.current ?? '')], config)).toThrow(/rotate first/);
    expect(runKeysCommand(['retire', idOf(first)], config)).toMatch(/^Retired /);
    // The retired key's id is kept, so the sweep deletes what it sealed (and nothing an unknown key sealed).
    expect(readTokenKeys(dir)).toEqual({ current: rotated?.current, previous: [], retired: [idOf(first)] });
    expect(readFileSync(path.join(dir, 'token-keys.json'), 'utf8')).not.toContain(first);
    expect(statSync(path.join(dir, 'token-keys.json')).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
  });

  it('points to the variables when the keys come from the environment', () => {
    expect(() =>
      runKeysCommand(['rotate'], { secretsDir: secretsDir(), tokenKeys: { current: 'k', previous: [], retired: [] } }),
    ).toThrow(/REPORTS_KEY/);
  });
});
