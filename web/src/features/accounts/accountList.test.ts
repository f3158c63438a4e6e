import { describe, expect, it } from 'vitest';
import type { EmailAccount } from '#contract/api.js';
import { filterAccounts, providerName, reconnectUrl, removalText, statusBadge } from './accountList';

const account = (email: string, provider: EmailAccount['provider'] = 'yahoo'): EmailAccount => ({
  email,
  provider,
  status: 'active',
  lastScannedAt: null,
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
});
