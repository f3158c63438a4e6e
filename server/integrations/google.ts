import { type OAuthClientConfig, oauthClientIntegration } from './oauth-client.js';

// Google: Gmail mailboxes and sign-in with Google (one OAuth client, "Web application", redirect URI
// <PUBLIC_URL>/auth/google/callback). GOOGLE_BASE_URL moves every Google call to one origin (the emulator
// in tests); it does not turn Google on by itself.

export type GoogleConfig = OAuthClientConfig<'google'>;

export const google = oauthClientIntegration({
  key: 'google',
  prefix: 'GOOGLE',
  label: 'Google',
  unavailableText: 'Google sign-in is not set up on this server.',
});
