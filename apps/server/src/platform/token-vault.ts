import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts customer tokens for the life of a job (AES-256-GCM). The key comes from REPORTS_KEY, or a
 * key file generated under DATA_DIR on the embedded default. Ciphertext: iv.tag.data, base64url.
 */
export class TokenVault {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The token key must be 32 bytes');
  }

  seal(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !data) throw new Error('Malformed sealed token');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
