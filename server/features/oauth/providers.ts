import { OAUTH_INTENTS } from '#contract/api.js';
import type { Config } from '#server/config.js';
import { google, type Integration, microsoft } from '#server/integrations/index.js';
import { googleEndpoints } from '#server/mail/gmail/google-oauth.js';
import { microsoftBaseUrls, OUTLOOK_SCOPES } from '#server/mail/graph/client.js';
import type { OAuthMailboxProvider } from '../mailboxes/service.js';

// The two OAuth providers: where their endpoints are, what is asked of them, and how to recognise their
// id_tokens. GOOGLE_BASE_URL / MICROSOFT_BASE_URL move every endpoint to one origin (emulator, fake).

export const OAUTH_PROVIDERS = ['google', 'outlook'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/**
 * signup and signin find or create the user; add connects one more mailbox to the signed-in user. The
 * list is the contract's (the query schema of GET /auth/{provider} reads it too).
 */
export { OAUTH_INTENTS };
export type OAuthIntent = (typeof OAUTH_INTENTS)[number];

/** Gmail scopes: read and label mail, create filters; openid email for the account. */
export const GOOGLE_SCOPES = [
  'openid',
  'email',
  'https://www.googleapis.com/auth/gmail.modify',
  'https://www.googleapis.com/auth/gmail.settings.basic',
];

/** The tenant of personal Microsoft accounts (Outlook.com, Hotmail, Live): their addresses are verified. */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export type OAuthConfig = Pick<
  Config,
  'publicUrl' | 'google' | 'microsoft' | 'googleBaseUrl' | 'microsoftBaseUrl'
>;

export interface OAuthProviderSpec {
  name: OAuthProviderName;
  /** The company, as the user knows it. */
  label: 'Google' | 'Microsoft';
  mailboxProvider: OAuthMailboxProvider;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** OpenID userinfo: the email when the token answer carries no id_token with one. */
  userinfoUrl: string;
  scopes: string[];
  /** Mail scopes the product cannot work without; compared after `normalizeScope`. */
  requiredScopes: string[];
  /** Added to the authorization request. */
  authorizeParams: Record<string, string>;
  /** Whether the token request repeats the scopes (the identity platform v2 takes them there). */
  scopeInTokenRequest: boolean;
  normalizeScope(scope: string): string;
  /** Whether an id_token's `iss` is this provider's. */
  issuerOk(claims: Record<string, unknown>): boolean;
  redirectUri: string;
}

/** The integration whose keys turn each provider on (server/integrations/). */
export const OAUTH_INTEGRATIONS = { google, outlook: microsoft } as const satisfies Record<
  OAuthProviderName,
  Integration
>;

/**
 * Why a provider cannot be used on this server, in the user's words (the public config and the 404 of its
 * routes); null when it can. The variables that would turn it on are logged, never shown.
 */
export function unavailableReason(name: OAuthProviderName, config: OAuthConfig): string | null {
  const integration = OAUTH_INTEGRATIONS[name];
  return integration.enabled(config) ? null : integration.unavailableText;
}

export function oauthProvider(name: OAuthProviderName, config: OAuthConfig): OAuthProviderSpec | null {
  const redirectUri = `${config.publicUrl}/auth/${name}/callback`;
  if (name === 'google') {
    if (!config.google) return null;
    const endpoints = googleEndpoints(config.googleBaseUrl);
    const issuers = config.googleBaseUrl
      ? [config.googleBaseUrl]
      : ['https://accounts.google.com', 'accounts.google.com'];
    return {
      name,
      label: 'Google',
      mailboxProvider: 'gmail',
      ...config.google,
      authorizeUrl: endpoints.authorize,
      tokenUrl: endpoints.token,
      userinfoUrl: endpoints.userinfo,
      scopes: GOOGLE_SCOPES,
      requiredScopes: GOOGLE_SCOPES.filter((s) => s.startsWith('https://')),
      // A refresh token comes only with offline access, and Google sends it again only on a consent screen.
      authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
      scopeInTokenRequest: false,
      normalizeScope: (scope) => scope,
      issuerOk: (claims) => typeof claims.iss === 'string' && issuers.includes(claims.iss),
      redirectUri,
    };
  }
  if (!config.microsoft) return null;
  const { baseUrl, loginBaseUrl } = microsoftBaseUrls(config.microsoftBaseUrl);
  const loginOrigin = new URL(loginBaseUrl).origin;
  const graphOrigin = new URL(baseUrl).origin;
  return {
    name,
    label: 'Microsoft',
    mailboxProvider: 'outlook',
    ...config.microsoft,
    authorizeUrl: `${loginBaseUrl}/authorize`,
    tokenUrl: `${loginBaseUrl}/token`,
    userinfoUrl: `${graphOrigin}/oidc/userinfo`,
    scopes: OUTLOOK_SCOPES,
    requiredScopes: ['mail.readwrite', 'mail.send', 'mailboxsettings.readwrite'],
    // The account picker, so that adding a second Outlook mailbox does not silently reuse the first.
    authorizeParams: { response_mode: 'query', prompt: 'select_account' },
    scopeInTokenRequest: true,
    // Granted Graph scopes may come back as full URIs (https://graph.microsoft.com/Mail.Send).
    normalizeScope: (scope) => scope.replace(/^https:\/\/graph\.microsoft\.com\//i, '').toLowerCase(),
    // Multi-tenant (/common): the issuer names the tenant the account belongs to.
    issuerOk: (claims) =>
      typeof claims.tid === 'string' &&
      /^[0-9a-f-]{36}$/i.test(claims.tid) &&
      claims.iss === `${loginOrigin}/${claims.tid}/v2.0`,
    redirectUri,
  };
}
