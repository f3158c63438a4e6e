import { describe, expect, it } from 'vitest';
import {
  APP_PASSWORD_PROVIDERS,
  addMailboxTitle,
  appPasswordProviderFor,
  MAILBOX_PROVIDERS,
  PROVIDERS,
  pickerTarget,
  providerDomainError,
  reauthUrl,
} from './providers.js';

const row = (id: string) => PROVIDERS.find((p) => p.id === id)!;

describe('provider table', () => {
  it('lists the providers in the picker order, with the app-password ones apart', () => {
    expect(PROVIDERS.map((p) => p.label)).toEqual([
      'Gmail',
      'Outlook',
      'ProtonMail',
      'Yahoo',
      'AOL',
      'iCloud',
      'Mail',
    ]);
    expect([...MAILBOX_PROVIDERS].sort()).toEqual(
      ['aol', 'gmail', 'icloud', 'imap', 'outlook', 'protonmail', 'yahoo'].sort(),
    );
    expect([...APP_PASSWORD_PROVIDERS].sort()).toEqual(['aol', 'icloud', 'imap', 'protonmail', 'yahoo']);
  });

  it('opens OAuth providers on the server and password providers on their screens', () => {
    expect(pickerTarget(row('gmail'), 'signup')).toEqual({
      kind: 'server',
      href: '/auth/google?intent=signup',
    });
    expect(pickerTarget(row('outlook'), 'add')).toEqual({ kind: 'server', href: '/auth/outlook?intent=add' });
    expect(pickerTarget(row('yahoo'), 'signin')).toEqual({ kind: 'screen', path: '/signin/password' });
    expect(pickerTarget(row('icloud'), 'signup')).toEqual({ kind: 'screen', path: '/create-account' });
    expect(pickerTarget(row('imap'), 'add')).toEqual({ kind: 'screen', path: '/add-mailbox?provider=imap' });
  });

  it('titles the add-mailbox screen and applies the domain rules', () => {
    expect(addMailboxTitle('yahoo')).toBe('Add Yahoo Account');
    expect(addMailboxTitle('icloud')).toBe('Add Icloud Account');
    expect(addMailboxTitle('aol')).toBe('Add Email Account');
    expect(addMailboxTitle(null)).toBe('Add Email Account');
    expect(providerDomainError('yahoo', 'me@gmail.com')).toBe('Please enter your Yahoo email address.');
    expect(providerDomainError('yahoo', ' Me@Yahoo.com ')).toBeNull();
    expect(providerDomainError('icloud', 'me@mac.com')).toBeNull();
    expect(providerDomainError('icloud', 'me@sub.me.com')).toBe('Please enter your iCloud email address.');
    expect(providerDomainError('aol', 'me@anything.org')).toBeNull();
  });

  it('finds the provider of a new address by its domain', () => {
    expect(appPasswordProviderFor('me@yahoo.com')).toBe('yahoo');
    expect(appPasswordProviderFor('me@me.com')).toBe('icloud');
    expect(appPasswordProviderFor('Me@ICloud.com ')).toBe('icloud');
    expect(appPasswordProviderFor('me@gmail.com')).toBeNull();
  });

  it('routes by the exact domain, never by its ending', () => {
    // acme.com ends with me.com, notyahoo.com with yahoo.com: neither is iCloud or Yahoo.
    expect(appPasswordProviderFor('joe@acme.com')).toBeNull();
    expect(appPasswordProviderFor('joe@notyahoo.com')).toBeNull();
    expect(appPasswordProviderFor('joe@ymail.yahoo.com')).toBeNull();
    expect(appPasswordProviderFor('joe@mac.com.evil.example')).toBeNull();
  });

  it('sends a mailbox to re-authenticate where it was connected', () => {
    expect(reauthUrl({ provider: 'gmail', email: 'x@gmail.com' })).toBe('/auth/google?intent=add');
    expect(reauthUrl({ provider: 'outlook', email: 'x@outlook.com' })).toBe('/auth/outlook?intent=add');
    expect(reauthUrl({ provider: 'aol', email: 'a+b@aol.com' })).toBe(
      '/add-mailbox?provider=aol&email=a%2Bb%40aol.com',
    );
    expect(reauthUrl({ provider: 'unknown', email: 'x@y.z' })).toBe(
      '/add-mailbox?provider=imap&email=x%40y.z',
    );
  });
});
