import { isIP } from 'node:net';
import { exactHost } from '#server/lib/address-policy.js';
import type { MailboxCredentials, MailDescriptor, ProviderFactoryOptions } from '../descriptor.js';
import { createImapProvider } from './adapter.js';
import {
  type HostConfig,
  isImapProvider,
  PRESET_PROVIDERS,
  PRESETS,
  type PresetProvider,
  parseProviderOverrides,
  resolveHosts,
} from './presets.js';

/** The IMAP server a user typed for the mailbox (providers whose form asks for it), if any. */
export function customHost(mailbox: MailboxCredentials): HostConfig | undefined {
  const server = mailbox.server;
  return server?.kind === 'imap'
    ? { host: server.host, port: server.port, secure: server.secure }
    : undefined;
}

/**
 * What a mailbox's connections may reach. A host the user typed is judged at every connect (unless
 * IMAP_ALLOWED_HOSTS lists it); preset names are judged too. Trusted exactly as configured (exactHost): the
 * operator's MAIL_PROVIDER_OVERRIDES and the presets' address literals (Proton Mail Bridge on loopback).
 */
function allowedHosts(
  provider: string,
  { overridesJson, imapAllowedHosts = new Set() }: ProviderFactoryOptions,
): ReadonlySet<string> {
  if (!Object.hasOwn(PRESETS, provider)) return imapAllowedHosts;
  const preset = PRESETS[provider as PresetProvider];
  const override = parseProviderOverrides(overridesJson ?? undefined)[provider as PresetProvider];
  const trusted = [override?.imap?.host, override?.smtp?.host];
  for (const host of [preset.imap.host, preset.smtp.host]) if (isIP(host)) trusted.push(host);
  // As written only: a name the user typed that resolves to one of these is judged like any other.
  const listed = trusted.filter((h): h is string => h !== undefined).map(exactHost);
  return new Set([...imapAllowedHosts, ...listed]);
}

/**
 * Mailboxes reached over IMAP (and SMTP to send) with an app-specific password: the presets' providers
 * (hosts in presets.ts, which MAIL_PROVIDER_OVERRIDES may change) and `imap`, any server the user names.
 */
export const imapDescriptor: MailDescriptor = {
  kind: 'imap',
  providers: [...PRESET_PROVIDERS, 'imap'],
  open(mailbox, openSecret, options) {
    if (!isImapProvider(mailbox.provider)) throw new Error(`No adapter for provider ${mailbox.provider}`);
    const hosts = resolveHosts(mailbox.provider, customHost(mailbox), options.overridesJson ?? undefined);
    return createImapProvider({
      ...hosts.imap,
      smtp: hosts.smtp,
      user: mailbox.email,
      password: openSecret(),
      batchSize: options.batchSize,
      allowedHosts: allowedHosts(mailbox.provider, options),
      lookup: options.lookup,
    });
  },
};
