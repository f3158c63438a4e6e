import type { MailDescriptor, ProviderFactoryOptions } from '../descriptor.js';
import { createGraphProvider } from './adapter.js';
import { microsoftBaseUrls } from './client.js';

/** Saves each rotated refresh token over the one before it (compare and swap), from the secret opened. */
function rotate(
  mailboxId: string,
  opened: string | null,
  saveSecret: NonNullable<ProviderFactoryOptions['saveSecret']>,
  secrets: ProviderFactoryOptions['secrets'],
): (token: string) => Promise<void> {
  let current = opened;
  return async (token) => {
    const sealed = secrets.seal(token);
    if (await saveSecret(mailboxId, sealed, current)) current = sealed;
  };
}

/** Outlook mailboxes, granted through Microsoft's OAuth consent: Microsoft Graph with the refresh token. */
export const graphDescriptor: MailDescriptor = {
  kind: 'graph',
  providers: ['outlook'],
  open(mailbox, openSecret, { microsoft, microsoftBaseUrl = null, saveSecret, secrets }) {
    if (!microsoft) {
      throw new Error('Outlook mailboxes need MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET');
    }
    return createGraphProvider({
      email: mailbox.email,
      refreshToken: openSecret(),
      clientId: microsoft.clientId,
      clientSecret: microsoft.clientSecret,
      ...microsoftBaseUrls(microsoftBaseUrl),
      // Microsoft answers every refresh with a new refresh token: keep the newest, sealed, in place of the
      // one this adapter holds only. A new grant stored meanwhile (the user connected the address again, or
      // through Google) must not be replaced by a token of the grant it ended.
      onRefreshToken: saveSecret ? rotate(mailbox.id, mailbox.secret, saveSecret, secrets) : undefined,
    });
  },
};
