import type { MailboxProvider } from '#contract/providers.js';
import type { HostLookup } from '../lib/address-policy.js';
import type { SecretBox } from '../lib/crypto.js';
import type { MailProvider } from './provider.js';
import type { OAuthClient } from './shared/oauth-client.js';

export type { OAuthClient };

// The server's half of a provider (the other half, what the screens show, is its row in
// contract/providers.ts): which stored providers a kind of adapter serves and how it is built for a
// mailbox. One descriptor per adapter kind, in its folder (gmail/, graph/, imap/), listed in registry.ts.

/**
 * Where the user said their mailbox is served (providers whose form asks for it), by the protocol spoken
 * there: one variant per kind of endpoint, told apart by `kind`. Each adapter reads only its own kind. A
 * protocol that is not host and port (JMAP: a session URL) is another variant, with its own storage.
 */
export type MailServer = ImapServer;

/** An IMAP server the user typed: host, port and TLS. */
export interface ImapServer {
  kind: 'imap';
  host: string;
  port: number;
  /** TLS from the first byte (false: the connection starts in plain text). */
  secure: boolean;
}

/** What the factory knows of a stored mailbox. */
export interface MailboxCredentials {
  /** The stored mailbox (a rotated refresh token is saved on it). */
  id: string;
  provider: string;
  email: string;
  secret: string | null;
  /** The endpoint the user named; null: the provider's own (presets, OAuth). */
  server: MailServer | null;
}

/** Everything an adapter may need from the server's configuration; each kind reads its own part. */
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
  /**
   * Stores a new sealed secret on a mailbox row in place of `replacing` only (Microsoft rotates refresh tokens
   * on every use); false when the row holds another secret by now (a new grant), which is then kept.
   */
  saveSecret?: (mailboxId: string, sealed: string, replacing: string | null) => Promise<boolean>;
  /** IMAP_ALLOWED_HOSTS: private hosts a user's IMAP server may be on anyway. */
  imapAllowedHosts?: ReadonlySet<string>;
  /** The resolver of every IMAP/SMTP connect (tests play DNS); the system's when unset. */
  lookup?: HostLookup;
}

export interface MailDescriptor {
  /** The adapter kind, for messages (`gmail`, `graph`, `imap`). */
  kind: string;
  /** The stored providers (ids of contract/providers.ts) whose mailboxes this kind opens. */
  providers: readonly MailboxProvider[];
  /**
   * The adapter of one mailbox. `openSecret` unseals its stored secret (a refresh token or an app
   * password); called only once the configuration the kind needs is known to be there.
   */
  open(mailbox: MailboxCredentials, openSecret: () => string, options: ProviderFactoryOptions): MailProvider;
}
