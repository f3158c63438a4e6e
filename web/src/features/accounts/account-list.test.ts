import { describe, expect, it } from 'vitest';
import type { EmailAccount } from '#contract/api.js';
import {
  filterAccounts,
  lastCheckText,
  problemText,
  providerName,
  reconnectUrl,
  removalText,
  SCREENER_HINT,
  screenerText,
  statusBadge,
  troubledAccounts,
} from './account-list';

const account = (email: string, provider: EmailAccount['provider'] = 'yahoo'): EmailAccount => ({
  email,
  provider,
  status: 'active',
  lastScannedAt: null,
  error: null,
  lastCheckedAt: null,
  screener: false,
});

describe('email accounts', () => {
  const list = [
    account('Me@Yahoo.com'),
    account('work@icloud.com', 'icloud'),
    account('x@gmail.com', 'gmail'),
  ];

  it('filters by a case-insensitive substring of the email', () => {
    expect(filterAccounts(list, 'yahoo').map((a) => a.email)).toEqual(['Me@Yahoo.com']);
    expect(filterAccounts(list, ' ME@ ').map((a) => a.email)).toEqual(['Me@Yahoo.com']);
    expect(filterAccounts(list, '')).toEqual(list);
    expect(filterAccounts(list, 'nobody')).toEqual([]);
  });

  it('names providers and badges states', () => {
    expect(providerName('icloud')).toBe('iCloud');
    expect(providerName('protonmail')).toBe('Proton Mail');
    expect(statusBadge('active')).toBeNull();
    expect(statusBadge('scanning')?.label).toBe('Scanning');
    expect(statusBadge('reauth')?.label).toBe('Needs re-authentication');
    expect(statusBadge('error')?.label).toBe('Error');
  });

  it('reconnects app-password mailboxes on the add-mailbox screen and OAuth ones through the provider', () => {
    expect(reconnectUrl(account('a+b@yahoo.com'))).toBe(
      '/add-mailbox?provider=yahoo&email=a%2Bb%40yahoo.com',
    );
    expect(reconnectUrl(account('x@gmail.com', 'gmail'))).toBe('/auth/google?intent=add');
    expect(reconnectUrl(account('x@outlook.com', 'outlook'))).toBe('/auth/outlook?intent=add');
  });

  it('words the deletion question', () => {
    expect(removalText('me@yahoo.com')).toBe(
      'Remove me@yahoo.com? Its subscriptions and everything Inbox Genie stored about this mailbox will be deleted.',
    );
  });

  it('says what switching the new-sender hold did, and how much mail went back', () => {
    expect(screenerText('me@yahoo.com', true, 0)).toBe('Holding new senders for me@yahoo.com');
    expect(screenerText('me@yahoo.com', false, 3)).toBe(
      'No longer holding new senders for me@yahoo.com: 3 messages went back to the inbox',
    );
    expect(screenerText('me@yahoo.com', false, 1)).toBe(
      'No longer holding new senders for me@yahoo.com: 1 message went back to the inbox',
    );
    expect(screenerText('me@yahoo.com', false, 0)).toBe('No longer holding new senders for me@yahoo.com');
    // Not to be confused with the kept list, "Screened Subscriptions".
    expect(SCREENER_HINT).not.toMatch(/Screened/);
  });
});

describe('a mailbox in trouble', () => {
  const failed: EmailAccount = {
    ...account('me@yahoo.com'),
    status: 'error',
    error: 'Could not reach the mail server at imap.mail.yahoo.com:993.',
    lastCheckedAt: '2026-11-27T09:30:00.000Z',
  };

  it('is one whose check failed or whose password was refused', () => {
    const refused: EmailAccount = { ...account('b@yahoo.com'), status: 'reauth' };
    expect(troubledAccounts([account('a@yahoo.com'), failed, refused]).map((a) => a.email)).toEqual([
      'me@yahoo.com',
      'b@yahoo.com',
    ]);
    expect(troubledAccounts(null)).toEqual([]);
  });

  it("says why in the server's words, and when it last worked", () => {
    expect(problemText(failed)).toBe(
      'me@yahoo.com could not be checked: Could not reach the mail server at imap.mail.yahoo.com:993.',
    );
    expect(problemText({ ...failed, status: 'reauth', error: null })).toBe(
      'me@yahoo.com needs you to sign in again.',
    );
    expect(lastCheckText(failed.lastCheckedAt, 'en-GB')).toMatch(/^Last good check: 27 Nov 2026, \d\d:30\.$/);
    expect(lastCheckText(null)).toBe('Never checked successfully yet.');
  });
});
