import type { SecretBox } from '../lib/crypto.js';
import { createImapProvider } from './imap/adapter.js';
import { type HostConfig, isImapProvider, resolveHosts } from './imap/presets.js';
import type { MailProvider } from './provider.js';

// Builds the adapter for a stored mailbox. The only place that opens a stored secret.

export interface MailboxCredentials {
  provider: string;
  email: string;
  secret: string | null;
  imap_host: string | null;
  imap_port: number | null;
  imap_secure: number | null;
}

export interface ProviderFactoryOptions {
  secrets: SecretBox;
  overridesJson: string | null;
  /** Messages per scan batch (and checkpoint); the adapter's default when unset. */
  batchSize?: number;
}

export type ProviderFactory = (mailbox: MailboxCredentials) => MailProvider;

export function customHost(mailbox: MailboxCredentials): HostConfig | undefined {
  if (!mailbox.imap_host || mailbox.imap_port === null) return undefined;
  return { host: mailbox.imap_host, port: mailbox.imap_port, secure: mailbox.imap_secure === 1 };
}

export function createProviderFactory({
  secrets,
  overridesJson,
  batchSize,
}: ProviderFactoryOptions): ProviderFactory {
  return (mailbox) => {
    if (!isImapProvider(mailbox.provider)) {
      throw new Error(`No adapter for provider ${mailbox.provider} yet`);
    }
    if (!mailbox.secret) throw new Error(`Mailbox ${mailbox.email} has no stored password`);
    const hosts = resolveHosts(mailbox.provider, customHost(mailbox), overridesJson ?? undefined);
    return createImapProvider({
      ...hosts.imap,
      user: mailbox.email,
      password: secrets.open(mailbox.secret),
      batchSize,
    });
  };
}
