import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveLegacySecrets, readTokenKeys } from './secrets.js';

describe('keys an earlier version kept inside DATA_DIR', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('move out of it: the old token key stays accepted under a fresh current key, and the folder goes', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ce-legacy-'));
    folders.push(root);
    const dataDir = path.join(root, 'data');
    const secretsDir = path.join(root, 'data.keys');
    mkdirSync(path.join(dataDir, 'secrets'), { recursive: true });
    const oldKey = randomBytes(32).toString('base64');
    const cookieKey = randomBytes(32).toString('base64');
    writeFileSync(path.join(dataDir, 'secrets', 'reports.key'), oldKey);
    writeFileSync(path.join(dataDir, 'secrets', 'cookie.key'), cookieKey);

    expect(moveLegacySecrets(dataDir, secretsDir)).toEqual(['reports.key', 'cookie.key']);
    expect(existsSync(path.join(dataDir, 'secrets'))).toBe(false);
    const keys = readTokenKeys(secretsDir);
    expect(keys?.previous).toEqual([oldKey]);
    expect(keys?.current).not.toBe(oldKey);
    expect(readFileSync(path.join(secretsDir, 'cookie.key'), 'utf8')).toBe(cookieKey);
    expect(moveLegacySecrets(dataDir, secretsDir)).toEqual([]);
  });
});
