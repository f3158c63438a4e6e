import type { MailDescriptor } from '../descriptor.js';
import { createGraphProvider } from './adapter.js';
import { microsoftBaseUrls } from './client.js';

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
      // Microsoft answers every refresh with a new refresh token: keep the newest, sealed.
      onRefreshToken: saveSecret ? (token) => saveSecret(mailbox.id, secrets.seal(token)) : undefined,
    });
  },
};
