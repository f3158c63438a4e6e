import { isIP } from 'node:net';
import type { HostLookup } from '../lib/address-policy.js';
import type { SecretBox } from '../lib/crypto.js';
import { createGmailProvider } from './gmail/adapter.js';
import { createGraphProvider } from './graph/adapter.js';
import { microsoftBaseUrls } from './graph/client.js';
import { createImapProvider } from './imap/adapter.js';
import {
  type HostConfig,
  isImapProvider,
  PRESETS,
  parseProviderOverrides,
  resolveHosts,
} from './imap/presets.js';
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
  /** IMAP_ALLOWED_HOSTS: private hosts a user's IMAP server may be on anyway. */
  imapAllowedHosts?: ReadonlySet<string>;
  /** The resolver of every IMAP/SMTP connect (tests play DNS); the system's when unset. */
  lookup?: HostLookup;
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
  imapAllowedHosts = new Set(),
  lookup,
}: ProviderFactoryOptions): ProviderFactory {
  /**
   * What a mailbox's connections may reach. A host the user typed is judged at every connect (unless
   * IMAP_ALLOWED_HOSTS lists it); preset names are judged too. Trusted as configured: the operator's
   * MAIL_PROVIDER_OVERRIDES and the presets' address literals (Proton Mail Bridge on loopback).
   */
  function allowedHosts(provider: string): ReadonlySet<string> {
    if (!Object.hasOwn(PRESETS, provider)) return imapAllowedHosts;
    const preset = PRESETS[provider as keyof typeof PRESETS];
    const override = parseProviderOverrides(overridesJson ?? undefined)[provider as keyof typeof PRESETS];
    const trusted = [override?.imap?.host, override?.smtp?.host];
    for (const host of [preset.imap.host, preset.smtp.host]) if (isIP(host)) trusted.push(host);
    const listed = trusted.filter((h): h is string => h !== undefined).map((h) => h.toLowerCase());
    return new Set([...imapAllowedHosts, ...listed]);
  }

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
      allowedHosts: allowedHosts(mailbox.provider),
      lookup,
    });
  };
}
