import { API, SCREENS } from './routes.js';

// What the product knows about each mail provider that both sides need: one row per provider, in the
// order the provider picker lists them. The screens (picker, add-mailbox, email accounts) and the
// contract's schemas read these rows; the server's own half of a provider (how its adapter is built,
// its hosts) is its descriptor under server/mail/ (registry.ts). Adding a provider is one row here and
// one descriptor there (docs/decisions/038-provider-knowledge-in-one-place.md).
//
// This module imports only routes.ts: validation.ts and api.ts read it, so it must not read them.

/** How a mailbox of the provider is connected: an OAuth grant, or an app-specific password (IMAP). */
export type AuthKind = 'oauth' | 'app-password';

/** The provider picker's three uses (the `intent` of GET /auth/{google|outlook} too). */
export type PickerMode = 'signin' | 'signup' | 'add';

/** Where the picker sends the user: a full page load to the server (OAuth) or an SPA screen. */
export type PickerTarget = { kind: 'server'; href: string } | { kind: 'screen'; path: string };

/** The OAuth flows the server runs (GET /auth/{name}); a provider connected by OAuth names one. */
export type OAuthFlow = 'google' | 'outlook';

interface ImapServerFields {
  host: string;
  port: number;
  secure: boolean;
}

interface ProviderRow {
  /** The stored `provider` of a mailbox, and the `?provider=` / `/auth/{id}` of the add-mailbox form. */
  id: string;
  /** The name in the provider picker (its option and its "Sign in with …" button). */
  label: string;
  /** The name the Email Accounts screen shows beside an address. */
  accountLabel: string;
  auth: AuthKind;
  /** OAuth providers: the flow that signs in, signs up and adds the mailbox. */
  oauth?: OAuthFlow;
  /** App-password providers: the add-mailbox screen. */
  addMailbox?: {
    /** The screen's heading; "Add Email Account" when unset. */
    title?: string;
    /** Where the provider explains how to create an app-specific password. */
    help?: { href: string; label: string };
    /**
     * The only address domains the form accepts, and what it says otherwise. They also tell the
     * create-account screen which provider a new user's address belongs to (the whole domain, as here).
     */
    domains?: { list: readonly string[]; message: string };
    /**
     * The form asks where the IMAP server is: `required` (any server), or `optional` (the server's preset
     * is used when the fields keep the values they start with), with what the fields start with.
     */
    server?: { asks: 'required' | 'optional'; defaults: ImapServerFields; note?: string };
  };
}

const ADD_EMAIL_ACCOUNT = 'Add Email Account';

/**
 * The providers. docs/product.md §2 names the picker routes of Yahoo and iCloud only; every password
 * provider follows them (Sign In: /signin/password, Sign Up: /create-account, add:
 * /add-mailbox?provider=<id>), every OAuth provider goes to GET /auth/<flow>?intent=<mode>.
 */
export const PROVIDERS = [
  { id: 'gmail', label: 'Gmail', accountLabel: 'Gmail', auth: 'oauth', oauth: 'google' },
  { id: 'outlook', label: 'Outlook', accountLabel: 'Outlook', auth: 'oauth', oauth: 'outlook' },
  {
    id: 'protonmail',
    label: 'ProtonMail',
    accountLabel: 'Proton Mail',
    auth: 'app-password',
    addMailbox: {
      // Proton Mail Bridge on this computer, speaking STARTTLS; unchanged, the server's preset is used
      // (which an operator may override).
      server: {
        asks: 'optional',
        defaults: { host: '127.0.0.1', port: 1143, secure: false },
        note: 'Proton Mail connects through Proton Mail Bridge; use the host, port and password it shows.',
      },
    },
  },
  {
    id: 'yahoo',
    label: 'Yahoo',
    accountLabel: 'Yahoo',
    auth: 'app-password',
    addMailbox: {
      title: 'Add Yahoo Account',
      help: {
        href: 'https://help.yahoo.com/kb/SLN15241.html',
        label: 'How do I create a Yahoo app password?',
      },
      domains: { list: ['yahoo.com'], message: 'Please enter your Yahoo email address.' },
    },
  },
  { id: 'aol', label: 'AOL', accountLabel: 'AOL', auth: 'app-password', addMailbox: {} },
  {
    id: 'icloud',
    label: 'iCloud',
    accountLabel: 'iCloud',
    auth: 'app-password',
    addMailbox: {
      title: 'Add Icloud Account',
      help: {
        href: 'https://support.apple.com/en-us/102654',
        label: 'How do I create an iCloud app-specific password?',
      },
      domains: {
        list: ['icloud.com', 'me.com', 'mac.com'],
        message: 'Please enter your iCloud email address.',
      },
    },
  },
  {
    // Any IMAP server the user names.
    id: 'imap',
    label: 'Mail',
    accountLabel: 'IMAP',
    auth: 'app-password',
    addMailbox: { server: { asks: 'required', defaults: { host: '', port: 993, secure: true } } },
  },
] as const satisfies readonly ProviderRow[];

export type ProviderDescriptor = (typeof PROVIDERS)[number];
export type MailboxProvider = ProviderDescriptor['id'];
/** The providers connected with an app-specific password: POST /auth/{provider}. */
export type AppPasswordProvider = Extract<ProviderDescriptor, { auth: 'app-password' }>['id'];
/** The providers connected through OAuth; their secret is a refresh token. */
export type OAuthMailboxProvider = Extract<ProviderDescriptor, { auth: 'oauth' }>['id'];

/** Every row read through the one shape, optional fields included (the table's type narrows each row). */
const ROWS: readonly ProviderRow[] = PROVIDERS;

export const MAILBOX_PROVIDERS = PROVIDERS.map((p) => p.id) as [MailboxProvider, ...MailboxProvider[]];
export const APP_PASSWORD_PROVIDERS = PROVIDERS.filter((p) => p.auth === 'app-password').map(
  (p) => p.id,
) as readonly AppPasswordProvider[];

/** The row of a provider id, or undefined for a name the table does not hold. */
export function providerById(id: string): ProviderRow | undefined {
  return ROWS.find((p) => p.id === id);
}

export function isAppPasswordProvider(id: string): id is AppPasswordProvider {
  return providerById(id)?.auth === 'app-password';
}

/** The add-mailbox screen's heading for a provider (or for none chosen). */
export function addMailboxTitle(id: string | null): string {
  return (id && providerById(id)?.addMailbox?.title) || ADD_EMAIL_ACCOUNT;
}

function domainOf(email: string): string {
  return email.trim().toLowerCase().split('@').pop() ?? '';
}

/** The provider's address rule: its message when the address's domain is not one of its own, else null. */
export function providerDomainError(id: string, email: string): string | null {
  const domains = providerById(id)?.addMailbox?.domains;
  if (!domains) return null;
  const domain = domainOf(email);
  return domains.list.includes(domain) ? null : domains.message;
}

/**
 * Which app-password provider an address belongs to, by its whole domain (create-account screen: a new
 * Yahoo or iCloud user adds that mailbox next); null when none claims it. The domain must equal one of
 * the provider's: an ending would take joe@acme.com for iCloud (me.com), and the add-mailbox form
 * (providerDomainError) would then refuse the very address it was sent there with.
 */
export function appPasswordProviderFor(email: string): AppPasswordProvider | null {
  const domain = domainOf(email);
  const row = ROWS.find((p) => p.addMailbox?.domains?.list.includes(domain));
  return row ? (row.id as AppPasswordProvider) : null;
}

/** Whether the add-mailbox form of a provider asks where the IMAP server is, and how. */
export function imapServerRule(id: string): 'required' | 'optional' | null {
  return providerById(id)?.addMailbox?.server?.asks ?? null;
}

function oauthStart(flow: OAuthFlow, mode: PickerMode): string {
  return `${API[flow]}?intent=${mode}`;
}

/** Where choosing a provider in the picker leads, for each of its uses. */
export function pickerTarget(row: ProviderRow, mode: PickerMode): PickerTarget {
  if (row.oauth) return { kind: 'server', href: oauthStart(row.oauth, mode) };
  if (mode === 'signin') return { kind: 'screen', path: SCREENS.signinPassword };
  if (mode === 'signup') return { kind: 'screen', path: SCREENS.createAccount };
  return { kind: 'screen', path: `${SCREENS.addMailbox}?provider=${row.id}` };
}

/**
 * Where the user connects a mailbox again whose password or grant stopped working: OAuth providers
 * through their consent again (as an added mailbox), password providers on the add-mailbox form with
 * the address filled in. A provider the table does not know is treated as any IMAP server.
 */
export function reauthUrl(mailbox: { provider: string; email: string }): string {
  const row = providerById(mailbox.provider);
  if (row?.oauth) return oauthStart(row.oauth, 'add');
  const id = row ? row.id : 'imap';
  return `${SCREENS.addMailbox}?provider=${encodeURIComponent(id)}&email=${encodeURIComponent(mailbox.email)}`;
}
