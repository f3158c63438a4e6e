import { describe, expect, it } from 'vitest';
import type { EmailAccount } from '#contract/api.js';
import {
  filterAccounts,
  providerName,
  reconnectUrl,
  removalText,
  screenerText,
  statusBadge,
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

  it('says what switching the Screener did, and how much mail went back', () => {
    expect(screenerText('me@yahoo.com', true, 0)).toBe('Screener on for me@yahoo.com');
    expect(screenerText('me@yahoo.com', false, 3)).toBe(
      'Screener off for me@yahoo.com: 3 messages went back to the inbox',
    );
    expect(screenerText('me@yahoo.com', false, 1)).toBe(
      'Screener off for me@yahoo.com: 1 message went back to the inbox',
    );
    expect(screenerText('me@yahoo.com', false, 0)).toBe('Screener off for me@yahoo.com');
  });
});
