// The Email Accounts screen's logic (docs/product.md §2), pure for the tests.
import type { EmailAccount } from '#contract/api.js';
import { providerById, reauthUrl } from '#contract/providers.js';

/** The name shown beside an address: the provider table's, or the stored name for one it lacks. */
export function providerName(provider: string): string {
  return providerById(provider)?.accountLabel ?? provider;
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

/**
 * Where a mailbox that needs re-authentication is connected again: the provider table's re-auth URL,
 * the same the server answers in a 401's redirectUrl.
 */
export function reconnectUrl(account: Pick<EmailAccount, 'email' | 'provider'>): string {
  return reauthUrl(account);
}

/** The confirmation text of the Confirm Email Account Deletion dialog. */
export function removalText(email: string): string {
  return `Remove ${email}? Its subscriptions and everything Inbox Genie stored about this mailbox will be deleted.`;
}

/**
 * What the "Hold new senders" switch does, in one line under it. The feature is named apart from the list
 * "Screened Subscriptions" (the spec's name for the kept senders); the folder keeps its name "Screener", as
 * mail already waits in it (docs/decisions/105-words-that-cannot-be-misread.md).
 */
export const SCREENER_HINT =
  'Mail from senders you have not seen before is held out of your inbox, in a folder named “Screener”, until you Keep them.';

/** The note after the hold was switched (`restored`: messages that went back to the inbox). */
export function screenerText(email: string, enabled: boolean, restored: number): string {
  if (enabled) return `Holding new senders for ${email}`;
  if (restored <= 0) return `No longer holding new senders for ${email}`;
  return `No longer holding new senders for ${email}: ${restored} ${restored === 1 ? 'message' : 'messages'} went back to the inbox`;
}

/** Whether a mailbox needs the user: a check that failed (Retry) or a password refused (Reconnect). */
export function isTroubled(account: Pick<EmailAccount, 'status'>): boolean {
  return account.status === 'error' || account.status === 'reauth';
}

/** The mailboxes that need the user. */
export function troubledAccounts(accounts: readonly EmailAccount[] | null): EmailAccount[] {
  return (accounts ?? []).filter(isTroubled);
}

/** Why a mailbox needs the user, in words: the server's reason when there is one. */
export function problemText(account: Pick<EmailAccount, 'email' | 'status' | 'error'>): string {
  const lead =
    account.status === 'reauth'
      ? `${account.email} needs you to sign in again`
      : `${account.email} could not be checked`;
  return account.error ? `${lead}: ${account.error}` : `${lead}.`;
}

/** "Last good check: 28 Nov 2026, 10:40" in the reader's zone; "Never checked successfully yet." */
export function lastCheckText(lastCheckedAt: string | null, locale?: string): string {
  if (!lastCheckedAt) return 'Never checked successfully yet.';
  const when = new Date(lastCheckedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return `Last good check: ${when}.`;
}
