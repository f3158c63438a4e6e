import { getDomain } from 'tldts';
import { presetImapForDomain } from '#server/mail/imap/presets.js';
import type { ImapSettings } from './settings.js';

// The built-in table, the last resort of a suggestion when neither the domain's SRV records nor its
// autoconfig file name a server. First the product's own presets (Yahoo, iCloud, AOL: mail/imap/presets.ts,
// by the address domains they host); then a few large hosts the presets do not hold because the product
// connects them otherwise (Gmail by OAuth) or does not list them, whose IMAP servers take app passwords.
// Outlook.com and Microsoft 365 are left out on purpose: they refuse password logins over IMAP.

const GMAIL: ImapSettings = { host: 'imap.gmail.com', port: 993, secure: true };
const FASTMAIL: ImapSettings = { host: 'imap.fastmail.com', port: 993, secure: true };
const ZOHO: ImapSettings = { host: 'imap.zoho.com', port: 993, secure: true };
const GMX: ImapSettings = { host: 'imap.gmx.net', port: 993, secure: true };

const BY_DOMAIN: Readonly<Record<string, ImapSettings>> = {
  'gmail.com': GMAIL,
  'googlemail.com': GMAIL,
  'fastmail.com': FASTMAIL,
  'zohomail.com': ZOHO,
  'zoho.com': ZOHO,
  'gmx.com': GMX,
  'gmx.net': GMX,
  'gmx.de': GMX,
};

/**
 * A domain's own mail exchangers tell which of these hosts keeps its mail (a company's domain at Google
 * Workspace has MX hosts under google.com). Only the exchanger's registrable domain chooses a row; the
 * host suggested is always the table's, never a name derived from the MX record, which names a server
 * for delivery and says nothing about where IMAP is.
 */
const BY_MX_DOMAIN: Readonly<Record<string, ImapSettings>> = {
  'google.com': GMAIL,
  'googlemail.com': GMAIL,
  'messagingengine.com': FASTMAIL,
  'zoho.com': ZOHO,
  'zohomail.com': ZOHO,
};

/** The table's server for addresses at `domain`, or null. */
export function tableSettings(domain: string): ImapSettings | null {
  const preset = presetImapForDomain(domain);
  if (preset) return preset;
  const row = Object.hasOwn(BY_DOMAIN, domain) ? BY_DOMAIN[domain] : undefined;
  return row ? { ...row } : null;
}

/** The table's server for a domain whose mail exchangers are `exchanges` (lowest preference first). */
export function tableSettingsByMx(exchanges: readonly string[]): ImapSettings | null {
  for (const exchange of exchanges) {
    const registrable = getDomain(exchange.toLowerCase()) ?? '';
    const row = Object.hasOwn(BY_MX_DOMAIN, registrable) ? BY_MX_DOMAIN[registrable] : undefined;
    if (row) return { ...row };
  }
  return null;
}
