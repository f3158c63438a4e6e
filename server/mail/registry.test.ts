import { describe, expect, it } from 'vitest';
import { MAILBOX_PROVIDERS } from '#contract/providers.js';
import { SecretBox } from '../lib/crypto.js';
import { createProviderFactory } from './index.js';
import { mailDescriptor } from './registry.js';

describe('mail registry', () => {
  it('has one adapter kind for every provider of the contract table', () => {
    const kinds = Object.fromEntries(MAILBOX_PROVIDERS.map((p) => [p, mailDescriptor(p)?.kind]));
    expect(kinds).toEqual({
      gmail: 'gmail',
      outlook: 'graph',
      yahoo: 'imap',
      icloud: 'imap',
      aol: 'imap',
      protonmail: 'imap',
      imap: 'imap',
    });
    expect(mailDescriptor('toString')).toBeUndefined();
  });

  it('refuses mailboxes it cannot open before unsealing their secret', () => {
    const secrets = new SecretBox('test key of the registry');
    const factory = createProviderFactory({ secrets, overridesJson: null });
    const mailbox = {
      id: 'm1',
      email: 'me@example.com',
      secret: 'not a sealed secret',
      server: null,
    };
    expect(() => factory({ ...mailbox, provider: 'gmail' })).toThrow(/need GOOGLE_CLIENT_ID/);
    expect(() => factory({ ...mailbox, provider: 'outlook' })).toThrow(/need MICROSOFT_CLIENT_ID/);
    expect(() => factory({ ...mailbox, provider: 'fastmail' })).toThrow('No adapter for provider fastmail');
    expect(() => factory({ ...mailbox, provider: 'yahoo', secret: null })).toThrow(/has no stored secret/);
  });
});
