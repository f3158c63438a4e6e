import { describe, expect, it } from 'vitest';
import { hashToken, randomToken, SecretBox } from './crypto.js';

describe('SecretBox', () => {
  const box = new SecretBox('a'.repeat(43));

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('app-password 123');
    const b = box.seal('app-password 123');
    expect(a).not.toBe(b);
    expect(a).not.toContain('app-password');
    expect(box.open(a)).toBe('app-password 123');
    expect(box.open(b)).toBe('app-password 123');
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
  });

  it('refuses a ciphertext sealed under another key', () => {
    const other = new SecretBox('b'.repeat(43));
    expect(() => other.open(box.seal('secret'))).toThrow();
  });

  it('refuses garbage with a clear error', () => {
    expect(() => box.open('not-a-secret')).toThrow('Unreadable sealed secret');
  });
});

describe('tokens', () => {
  it('are random, URL-safe and hashed deterministically', () => {
    const t = randomToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(t);
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
  });
});
