// The Email Accounts screen's logic (docs/product.md §2), pure for the tests.
import type { EmailAccount, MailboxProvider } from '../../../../contract/api.js';
import { APP_PASSWORD_PROVIDERS } from '../../../../contract/api.js';
import { API, SCREENS } from '../../../../contract/routes.js';

const PROVIDER_NAMES: Record<MailboxProvider, string> = {
  gmail: 'Gmail',
  outlook: 'Outlook',
  yahoo: 'Yahoo',
  icloud: 'iCloud',
  aol: 'AOL',
  protonmail: 'Proton Mail',
  imap: 'IMAP',
};

export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider as MailboxProvider] ?? provider;
}

/** Accounts whose email contains the query, ignoring case; an empty query keeps everything. */
export function filterAccounts(accounts: readonly EmailAccount[], query: string): EmailAccount[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...accounts];
  return accounts.filter((account) => account.email.toLowerCase().includes(needle));
}

export interface StatusBadge {
  label: string;
  bg: 'info' | 'warning' | 'danger';
}

/** The badge of a mailbox's state; an active mailbox shows none. */
export function statusBadge(status: EmailAccount['status']): StatusBadge | null {
  switch (status) {
    case 'scanning':
      return { label: 'Scanning', bg: 'info' };
    case 'reauth':
      return { label: 'Needs re-authentication', bg: 'warning' };
    case 'error':
      return { label: 'Error', bg: 'danger' };
    default:
      return null;
  }
}

/** Where a mailbox that needs re-authentication is connected again. */
export function reconnectUrl(account: Pick<EmailAccount, 'email' | 'provider'>): string {
  if (account.provider === 'gmail') return `${API.google}?intent=add`;
  if (account.provider === 'outlook') return `${API.outlook}?intent=add`;
  const provider = (APP_PASSWORD_PROVIDERS as readonly string[]).includes(account.provider)
    ? account.provider
    : 'imap';
  return `${SCREENS.addMailbox}?provider=${encodeURIComponent(provider)}&email=${encodeURIComponent(account.email)}`;
}

/** The confirmation text of the Confirm Email Account Deletion dialog. */
export function removalText(email: string): string {
  return `Remove ${email}? Its subscriptions and everything Inbox Genie stored about this mailbox will be deleted.`;
}
