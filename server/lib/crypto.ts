import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** A random token for cookies and links: 32 bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their hash, so a copy of the database cannot be replayed as cookies or links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A keyed hash (HMAC-SHA256 with a key HKDF derives from SECRET_KEY for `purpose`): lets the product
 * recognise a value it saw before without keeping it readable, and without letting anyone who lacks the
 * secret test guesses against the stored hashes (as a plain hash of an address would).
 */
export function keyedHasher(secret: string, purpose: string): (value: string) => string {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `inbox-genie ${purpose}`, 32));
  return (value) => createHmac('sha256', key).update(value).digest('hex');
}

/**
 * AES-256-GCM for secrets we must be able to use again (mailbox app passwords, refresh tokens).
 * The key is derived from SECRET_KEY with HKDF so the raw secret is never used as a cipher key and
 * other purposes can derive their own keys. Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'inbox-genie', 'mailbox-secrets-v1', 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
