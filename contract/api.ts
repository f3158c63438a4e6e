// Request and response shapes of the HTTP API (SPEC §7, GUIDE §5). Both sides import these.

export interface ErrorBody {
  message: string;
}

export interface CsrfTokenResponse {
  csrfToken: string;
}

export interface CredentialsBody {
  email: string;
  password: string;
}

export interface AuthResponse {
  redirectUrl: string;
}

export interface ForgotPasswordBody {
  email: string;
}

export interface ResetPasswordBody {
  token: string;
  password: string;
}

export interface StatusResponse {
  status: boolean;
}

export interface Settings {
  alertManualUnsubscribe: boolean;
  alertAfterUnsubscribe: boolean;
  /** Block senders whose mail still arrives after the grace period (issue 4 verification); default false. */
  autoBlockStillSending: boolean;
}

/** PUT /update-settings: `autoBlockStillSending` may be left out (older clients); it keeps its value. */
export type SettingsUpdate = Omit<Settings, 'autoBlockStillSending'> & { autoBlockStillSending?: boolean };

export interface ContactBody {
  /** "Name <address>" or a bare address. */
  from: string;
  subject: string;
  text: string;
}

export interface MessageResponse {
  message: string;
}

export type SubscriptionCategory = 'uncategorized' | 'kept' | 'unsubscribed';

export interface Subscription {
  id: string;
  address: string;
  senderName: string;
  messageCount: number;
  category: SubscriptionCategory;
  lastMessageAt: string | null;
  account: string;
  /** Unsubscribed list: when the sender was unsubscribed, and how (its last successful receipt). */
  unsubscribedAt?: string | null;
  unsubscribeMethod?: UnsubscribeMethod | null;
  /** Mail still arrived more than 2 days after the unsubscribe: offer Block. */
  stillSending?: boolean;
  /** Answer of POST /keep-subscription: the sender had been blocked and the block was lifted. */
  blockLifted?: boolean;
}

export type MailboxProvider = 'gmail' | 'outlook' | 'yahoo' | 'icloud' | 'aol' | 'protonmail' | 'imap';

/** The IMAP providers connected with an app-specific password: POST /auth/{provider}. */
export const APP_PASSWORD_PROVIDERS = ['yahoo', 'icloud', 'aol', 'protonmail', 'imap'] as const;
export type AppPasswordProvider = (typeof APP_PASSWORD_PROVIDERS)[number];

export interface AddMailboxBody {
  email: string;
  appPassword: string;
  /** Only for provider `imap` (any host): where the IMAP server is. */
  host?: string;
  port?: number;
  /** true: TLS from the start (port 993); false: plain, upgraded with STARTTLS when offered. */
  secure?: boolean;
}

export interface EmailAccount {
  email: string;
  provider: MailboxProvider;
  /** active; scanning; reauth (the password or grant no longer works); error (last check failed) */
  status: 'active' | 'scanning' | 'reauth' | 'error';
  lastScannedAt: string | null;
}

/** GET /get-email-accounts */
export interface EmailAccountsResponse {
  data: EmailAccount[];
}

/** GET /get-unsubscribe-emails?category=… ; 401 carries `redirectUrl` instead. */
export interface SubscriptionsResponse {
  data: Subscription[];
}

export interface SubscriptionMessage {
  id: string;
  subject: string;
  date: string | null;
}

/** GET /get-subscriptions/{id}: the messages of one sender, newest first. */
export interface SubscriptionMessagesResponse {
  data: SubscriptionMessage[];
}

/** What the screens may know about the server's configuration (GET /get-public-config). */
export interface PublicConfig {
  providers: {
    google: { available: boolean; reason?: string };
    outlook: { available: boolean; reason?: string };
  };
  billing: boolean;
  productName: string;
  /** Base URL of the sender-logo service (`<base>/<domain>`); null: always the default image. */
  logoBaseUrl: string | null;
}

/** How an unsubscribe was carried out (issue 4): RFC 8058 POST, a mail from the user's mailbox, the sender's page, or a block. */
export type UnsubscribeMethod = 'one-click' | 'mailto' | 'manual' | 'block';

/**
 * POST /unsubscribe and POST /block-subscription. `confirmBlock`: the user agreed, after a 409
 * `{message, confirmBlock: true, unlistedMessages, messages}`, that a block also trashes the sender's mail
 * that carries no list headers. POST /unsubscribe answers 502 `{message, offerBlock: true}` when the
 * unsubscribe email could not be sent and nothing else can be tried: the screen offers Block.
 */
export interface BlockingBody {
  subscriptionId: string;
  confirmBlock?: boolean;
}

/** 409 of a block that would trash mail without list headers: ask the user, then repeat with confirmBlock. */
export interface ConfirmBlockError {
  message: string;
  confirmBlock: true;
  unlistedMessages: number;
  messages: number;
}

/** POST /unsubscribe {subscriptionId} (SPEC §3 "Unsubscribe result", GUIDE §5). */
export interface UnsubscribeResult {
  subscriptionId: string;
  method: UnsubscribeMethod;
  /** The sender was told (one-click POST answered 2xx, or the mailto request was sent): the item leaves the list. */
  oneClickUnsubscribeSuccess: boolean;
  /** Only web pages remain: open `unsubscribeOptions[0]`, then confirm with POST /manual-unsubscribe. */
  manualUnsubscribe: boolean;
  /** No usable link: future mail goes to trash and existing mail was moved there. */
  blockedAndTrashed: boolean;
  unsubscribeOptions: string[];
  /** Present when the mailbox needs the user to sign in again before anything can be done. */
  authUrl?: string;
}

/**
 * POST /get-message-preview: answers sanitized HTML (text/html). Remote images are replaced by a
 * placeholder unless `loadImages` is true. 404 `{message}` when the message is gone.
 */
export interface MessagePreviewBody {
  subscriptionId: string;
  messageId: string;
  loadImages?: boolean;
}

/** POST /get-messages-by-sender-address {senderAddress} → the messages of that sender, newest first. */
export interface MessagesBySenderBody {
  senderAddress: string;
  messageId?: string;
}
