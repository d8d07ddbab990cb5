import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Names a key without revealing it: the first 12 hex digits of its SHA-256. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** The sealed value names a key that is no longer accepted: the token is gone for good. */
export class RetiredKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`The key ${keyId} that sealed this token has been retired`);
    this.name = 'RetiredKeyError';
  }
}

const VERSION = 'v1';
const additionalData = (id: string) => Buffer.from(`ce-toolkit token ${VERSION} ${id}`);

/**
 * Encrypts customer tokens for the life of a job (AES-256-GCM) under a key ring: the current key seals,
 * older keys still open what they sealed until they are retired. A sealed value is
 * `v1.<keyId>.<iv>.<tag>.<data>` (base64url), so retiring a key makes every copy it sealed, wherever
 * it lingers (a database page, the WAL, a backup), unreadable.
 */
export class TokenVault {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;
  /** Ids of keys retired on purpose: what they sealed may be deleted. A key merely unknown here is not. */
  readonly retiredKeyIds: readonly string[];

  constructor(current: Buffer, previous: Buffer[] = [], retired: string[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('A token key must be 32 bytes');
      this.keys.set(keyId(key), key);
    }
    this.currentKeyId = keyId(current);
    this.retiredKeyIds = retired.filter((id) => !this.keys.has(id));
  }

  /** Base64 keys as configuration holds them. */
  static fromBase64(current: string, previous: string[] = [], retired: string[] = []): TokenVault {
    return new TokenVault(
      Buffer.from(current, 'base64'),
      previous.map((key) => Buffer.from(key, 'base64')),
      retired,
    );
  }

  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  seal(token: string): { keyId: string; sealed: string } {
    const id = this.currentKeyId;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(id) as Buffer, iv);
    cipher.setAAD(additionalData(id));
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'));
    return { keyId: id, sealed: [VERSION, id, ...parts].join('.') };
  }

  /** The token; RetiredKeyError when its key is no longer on the ring, an Error when the value was altered. */
  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length === 5 && parts[0] === VERSION) {
      const [, id = '', iv = '', tag = '', data = ''] = parts;
      const key = this.keys.get(id);
      if (!key) throw new RetiredKeyError(id);
      return decrypt(key, iv, tag, data, additionalData(id));
    }
    if (parts.length === 3) {
      // Sealed by an earlier version without a key id: any key of the ring may have sealed it.
      const [iv = '', tag = '', data = ''] = parts;
      for (const key of this.keys.values()) {
        try {
          return decrypt(key, iv, tag, data);
        } catch {
          // not this key
        }
      }
      throw new RetiredKeyError('legacy');
    }
    throw new Error('Malformed sealed token');
  }
}

function decrypt(key: Buffer, iv: string, tag: string, data: string, aad?: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
