/** An OAuth client registered with a provider (Google, Microsoft): the id and secret it issued. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}
