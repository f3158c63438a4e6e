import { randomBytes } from 'node:crypto';
import { createImapProvider, type ImapProviderOptions } from '#server/mail/imap/adapter.js';
import type { MailProvider } from '#server/mail/provider.js';
import { type Dovecot, encodeMailboxName } from './dovecot.js';

// A fresh Dovecot user per test (no shared mailbox state) and the IMAP adapter logged in as it, with
// short timeouts so a failing test fails fast. Providers are collected in `opened` for closing.

export interface ImapTestUser {
  user: string;
  password: string;
  provider(overrides?: Partial<ImapProviderOptions>): MailProvider;
  /** Delivers into a folder given by its display name (encoded to Dovecot's on-disk form). */
  deliver(folder: string, raw: string): Promise<void>;
}

export async function newImapUser(
  dovecot: Dovecot,
  label: string,
  opened: MailProvider[],
): Promise<ImapTestUser> {
  const user = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  await dovecot.addUser({ user, password });
  return {
    user,
    password,
    provider(overrides = {}) {
      const p = createImapProvider({
        host: dovecot.host,
        port: dovecot.port,
        secure: false,
        user,
        password,
        timeouts: { connect: 2000, greeting: 2000, socket: 5000 },
        // The test servers are on loopback, which the address policy refuses unless allowed.
        allowedHosts: new Set([dovecot.host]),
        ...overrides,
      });
      opened.push(p);
      return p;
    },
    deliver: (folder, raw) => dovecot.deliver(user, encodeMailboxName(folder), raw),
  };
}
