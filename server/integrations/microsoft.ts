import { type OAuthClientConfig, oauthClientIntegration } from './oauth-client.js';

// Microsoft: Outlook mailboxes and sign-in with Microsoft (an Entra app registration, "Web" platform,
// redirect URI <PUBLIC_URL>/auth/outlook/callback). MICROSOFT_BASE_URL moves Graph and the identity
// platform to one origin (a fake in tests); it does not turn Microsoft on by itself.

export type MicrosoftConfig = OAuthClientConfig<'microsoft'>;

export const microsoft = oauthClientIntegration({
  key: 'microsoft',
  prefix: 'MICROSOFT',
  label: 'Microsoft',
  unavailableText: 'Microsoft sign-in is not set up on this server.',
});
