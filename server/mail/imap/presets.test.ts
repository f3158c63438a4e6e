import { describe, expect, it } from 'vitest';
import { isImapProvider, PRESETS, parseProviderOverrides, resolveHosts } from './presets.js';

describe('IMAP host presets', () => {
  it('knows the hosts of every app-password provider', () => {
    expect(resolveHosts('yahoo')).toEqual({
      imap: { host: 'imap.mail.yahoo.com', port: 993, secure: true },
      smtp: { host: 'smtp.mail.yahoo.com', port: 465, secure: true },
    });
    expect(resolveHosts('icloud')).toEqual({
      imap: { host: 'imap.mail.me.com', port: 993, secure: true },
      smtp: { host: 'smtp.mail.me.com', port: 587, secure: false },
    });
    expect(resolveHosts('aol')).toEqual({
      imap: { host: 'imap.aol.com', port: 993, secure: true },
      smtp: { host: 'smtp.aol.com', port: 465, secure: true },
    });
    expect(resolveHosts('protonmail')).toEqual({
      imap: { host: '127.0.0.1', port: 1143, secure: false },
      smtp: { host: '127.0.0.1', port: 1025, secure: false },
    });
  });

  it('replaces a provider’s hosts from MAIL_PROVIDER_OVERRIDES and leaves the others alone', () => {
    const json = JSON.stringify({
      yahoo: {
        imap: { host: '127.0.0.1', port: 10143, secure: false },
        smtp: { host: '127.0.0.1', port: 10025, secure: false },
      },
    });
    expect(resolveHosts('yahoo', undefined, json)).toEqual({
      imap: { host: '127.0.0.1', port: 10143, secure: false },
      smtp: { host: '127.0.0.1', port: 10025, secure: false },
    });
    expect(resolveHosts('aol', undefined, json)).toEqual(PRESETS.aol);
  });

  it('merges a partial override over the preset', () => {
    const json = '{"icloud":{"imap":{"port":1993}}}';
    expect(resolveHosts('icloud', undefined, json)).toEqual({
      imap: { host: 'imap.mail.me.com', port: 1993, secure: true },
      smtp: PRESETS.icloud.smtp,
    });
  });

  it('treats an unset or blank variable as no overrides', () => {
    expect(parseProviderOverrides(undefined)).toEqual({});
    expect(parseProviderOverrides('  ')).toEqual({});
    expect(resolveHosts('yahoo', undefined, '')).toEqual(PRESETS.yahoo);
  });

  it('throws an error naming the variable for malformed JSON', () => {
    expect(() => resolveHosts('yahoo', undefined, '{"yahoo":')).toThrow(
      /MAIL_PROVIDER_OVERRIDES is not valid JSON/,
    );
  });

  it.each([
    ['[]', /must be a JSON object/],
    ['{"yahooo":{}}', /unknown provider "yahooo"/],
    ['{"yahoo":{"pop3":{}}}', /MAIL_PROVIDER_OVERRIDES\.yahoo has an unknown key "pop3"/],
    ['{"yahoo":{"imap":{"port":"993"}}}', /MAIL_PROVIDER_OVERRIDES\.yahoo\.imap\.port must be an integer/],
    ['{"yahoo":{"imap":{"port":70000}}}', /port must be an integer/],
    ['{"yahoo":{"imap":{"host":""}}}', /host must be a non-empty string/],
    ['{"yahoo":{"imap":{"secure":"yes"}}}', /secure must be true or false/],
    ['{"yahoo":{"imap":{"hots":"x"}}}', /unknown key "hots"/],
  ])('rejects %s clearly', (json, message) => {
    expect(() => parseProviderOverrides(json)).toThrow(message);
  });

  it('takes a custom IMAP host exactly as the user gave it, with no SMTP host', () => {
    const custom = { host: 'mail.example.org', port: 143, secure: false };
    expect(resolveHosts('imap', custom)).toEqual({ imap: custom, smtp: null });
    // Overrides are for the presets; the user's own host wins.
    expect(resolveHosts('imap', custom, '{"yahoo":{"imap":{"port":1}}}')).toEqual({
      imap: custom,
      smtp: null,
    });
  });

  it('refuses a custom IMAP mailbox without usable host fields', () => {
    expect(() => resolveHosts('imap')).toThrow(/needs host, port and security/);
    expect(() => resolveHosts('imap', { host: '', port: 993, secure: true })).toThrow(/needs a host/);
    expect(() => resolveHosts('imap', { host: 'h', port: 0, secure: true })).toThrow(/port from 1 to 65535/);
  });

  it('recognises provider names', () => {
    expect(['yahoo', 'icloud', 'aol', 'protonmail', 'imap'].every(isImapProvider)).toBe(true);
    expect(isImapProvider('google')).toBe(false);
    expect(isImapProvider('toString')).toBe(false);
  });
});
