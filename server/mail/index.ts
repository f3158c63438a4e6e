import type { MailboxCredentials, ProviderFactoryOptions } from './descriptor.js';
import type { MailProvider } from './provider.js';
import { mailDescriptor } from './registry.js';

// Builds the adapter for a stored mailbox, with the descriptor of its provider's kind (registry.ts).
// The only place that opens a stored secret.

export type {
  ImapServer,
  MailboxCredentials,
  MailServer,
  OAuthClient,
  ProviderFactoryOptions,
} from './descriptor.js';

export type ProviderFactory = (mailbox: MailboxCredentials) => MailProvider;

export function createProviderFactory(options: ProviderFactoryOptions): ProviderFactory {
  const { secrets } = options;
  return (mailbox) => {
    const sealed = mailbox.secret;
    if (!sealed) throw new Error(`Mailbox ${mailbox.email} has no stored secret`);
    const descriptor = mailDescriptor(mailbox.provider);
    if (!descriptor) throw new Error(`No adapter for provider ${mailbox.provider}`);
    return descriptor.open(mailbox, () => secrets.open(sealed), options);
  };
}
