import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyId, RetiredKeyError, TokenVault } from './token-vault.js';

const token = 'sbx-org-admin-acme-d78c7f7fac7216a15d3b755f';

describe('TokenVault', () => {
  it('seals with the current key, naming it, and opens what it sealed', () => {
    const key = randomBytes(32);
    const vault = new TokenVault(key);
    const { keyId: id, sealed } = vault.seal(token);
    expect(id).toBe(keyId(key));
    expect(sealed.startsWith(`v1.${id}.`)).toBe(true);
    expect(sealed).not.toContain(token);
    expect(vault.open(sealed)).toBe(token);
    expect(vault.seal(token).sealed).not.toBe(sealed);
  });

  it('opens older copies after a rotation, and none once their key is retired', () => {
    const old = randomBytes(32);
    const { sealed } = new TokenVault(old).seal(token);
    const rotated = new TokenVault(randomBytes(32), [old]);
    expect(rotated.open(sealed)).toBe(token);
    expect(rotated.seal(token).keyId).not.toBe(keyId(old));
    const retired = new TokenVault(randomBytes(32));
    expect(() => retired.open(sealed)).toThrow(RetiredKeyError);
  });

  it('refuses a copy whose key id or data was altered', () => {
    const vault = new TokenVault(randomBytes(32), [randomBytes(32)]);
    const { sealed } = vault.seal(token);
    const parts = sealed.split('.');
    const otherId = vault.keyIds.find((id) => id !== parts[1]) ?? '';
    expect(() => vault.open([parts[0], otherId, ...parts.slice(2)].join('.'))).toThrow();
    const data = Buffer.from(parts[4] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(() => vault.open([...parts.slice(0, 4), data.toString('base64url')].join('.'))).toThrow();
    expect(() => vault.open('not-sealed')).toThrow('Malformed sealed token');
  });

  it('opens the iv.tag.data copies of earlier versions with any key of the ring', () => {
    const old = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', old, iv);
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const legacy = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join('.');
    expect(new TokenVault(randomBytes(32), [old]).open(legacy)).toBe(token);
    expect(() => new TokenVault(randomBytes(32)).open(legacy)).toThrow(RetiredKeyError);
  });
});
