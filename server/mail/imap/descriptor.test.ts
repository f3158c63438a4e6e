import { describe, expect, it } from 'vitest';
import { SecretBox } from '#server/lib/crypto.js';
import type { ProviderFactoryOptions } from '../descriptor.js';
import { imapDescriptor } from './descriptor.js';
import { loginProvesAddress } from './presets.js';

// What a preset trusts is trusted as written: Proton Mail Bridge's 127.0.0.1 must not let a host the user
// typed reach loopback by resolving to it (DNS rebinding).

const options = (lookup: (host: string) => Promise<string[]>): ProviderFactoryOptions => ({
  secrets: new SecretBox('a test secret key of enough length for hkdf'),
  overridesJson: null,
  lookup,
});

function protonMailbox(host: string) {
  return imapDescriptor.open(
    {
      id: 'm1',
      provider: 'protonmail',
      email: 'someone@proton.me',
      secret: 'sealed',
      server: { kind: 'imap', host, port: 1, secure: false },
    },
    () => 'bridge password',
    options(async () => ['127.0.0.1']),
  );
}

describe('the Proton Mail preset and loopback', () => {
  it('refuses a typed host that resolves to the preset loopback address', async () => {
    const mail = protonMailbox('bridge.rebind.example');
    await expect(mail.verify()).rejects.toThrow(/private network that Inbox Genie may not connect to/);
    await mail.close();
  });

  it('lets the preset address itself through (nothing listens on port 1: it is refused, not forbidden)', async () => {
    const mail = protonMailbox('127.0.0.1');
    const failure = await mail.verify().catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toMatch(/private network/);
    await mail.close();
  });
});

describe('loginProvesAddress', () => {
  it.each([
    ['yahoo', 'someone@yahoo.com', true],
    ['icloud', 'someone@me.com', true],
    ['aol', 'someone@aol.com', true],
    ['aol', 'victim@gmail.com', false],
    ['yahoo', 'victim@gmail.com', false],
    ['protonmail', 'someone@proton.me', false],
    ['protonmail', 'victim@gmail.com', false],
    ['imap', 'someone@example.com', false],
    ['gmail', 'someone@gmail.com', false],
  ])('%s login with %s proves it: %s', (provider, email, proves) => {
    expect(loginProvesAddress(provider, email)).toBe(proves);
  });
});
