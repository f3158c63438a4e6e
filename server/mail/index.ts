import type { SecretBox } from '../lib/crypto.js';
import { createGmailProvider } from './gmail/adapter.js';
import { createGraphProvider } from './graph/adapter.js';
import { microsoftBaseUrls } from './graph/client.js';
import { createImapProvider } from './imap/adapter.js';
import { type HostConfig, isImapProvider, resolveHosts } from './imap/presets.js';
import type { MailProvider } from './provider.js';

// Builds the adapter for a stored mailbox. The only place that opens a stored secret.

export interface MailboxCredentials {
  /** The mailbox row (a rotated refresh token is saved on it). */
  id: string;
  provider: string;
  email: string;
  secret: string | null;
  imap_host: string | null;
  imap_port: number | null;
  imap_secure: number | null;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface ProviderFactoryOptions {
  secrets: SecretBox;
  overridesJson: string | null;
  /** Messages per scan batch (and checkpoint); the adapter's default when unset. */
  batchSize?: number;
  /** GOOGLE_CLIENT_ID/SECRET; Gmail mailboxes cannot be opened without them. */
  google?: OAuthClient | null;
  /** GOOGLE_BASE_URL (the emulator in tests); Google itself when unset. */
  googleBaseUrl?: string | null;
  /** MICROSOFT_CLIENT_ID/SECRET; Outlook mailboxes cannot be opened without them. */
  microsoft?: OAuthClient | null;
  /** MICROSOFT_BASE_URL (the Graph fake in tests); Microsoft itself when unset. */
  microsoftBaseUrl?: string | null;
  /** Stores a new sealed secret on a mailbox row (Microsoft rotates refresh tokens on every use). */
  saveSecret?: (mailboxId: string, sealed: string) => Promise<void>;
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
  google = null,
  googleBaseUrl = null,
  microsoft = null,
  microsoftBaseUrl = null,
  saveSecret,
}: ProviderFactoryOptions): ProviderFactory {
  return (mailbox) => {
    if (!mailbox.secret) throw new Error(`Mailbox ${mailbox.email} has no stored secret`);
    if (mailbox.provider === 'gmail') {
      if (!google) throw new Error('Gmail mailboxes need GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
      return createGmailProvider({
        email: mailbox.email,
        refreshToken: secrets.open(mailbox.secret),
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        baseUrl: googleBaseUrl,
      });
    }
    if (mailbox.provider === 'outlook') {
      if (!microsoft) {
        throw new Error('Outlook mailboxes need MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET');
      }
      return createGraphProvider({
        email: mailbox.email,
        refreshToken: secrets.open(mailbox.secret),
        clientId: microsoft.clientId,
        clientSecret: microsoft.clientSecret,
        ...microsoftBaseUrls(microsoftBaseUrl),
        // Microsoft answers every refresh with a new refresh token: keep the newest, sealed.
        onRefreshToken: saveSecret ? (token) => saveSecret(mailbox.id, secrets.seal(token)) : undefined,
      });
    }
    if (!isImapProvider(mailbox.provider)) {
      throw new Error(`No adapter for provider ${mailbox.provider}`);
    }
    const hosts = resolveHosts(mailbox.provider, customHost(mailbox), overridesJson ?? undefined);
    return createImapProvider({
      ...hosts.imap,
      smtp: hosts.smtp,
      user: mailbox.email,
      password: secrets.open(mailbox.secret),
      batchSize,
    });
  };
}
