import type { MailDescriptor } from '../descriptor.js';
import { createGmailProvider } from './adapter.js';

/** Gmail mailboxes, granted through Google's OAuth consent: the Gmail API with the refresh token. */
export const gmailDescriptor: MailDescriptor = {
  kind: 'gmail',
  providers: ['gmail'],
  open(mailbox, openSecret, { google, googleBaseUrl = null }) {
    if (!google) throw new Error('Gmail mailboxes need GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
    return createGmailProvider({
      email: mailbox.email,
      refreshToken: openSecret(),
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      baseUrl: googleBaseUrl,
    });
  },
};
