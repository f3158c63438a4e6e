// Why a Google or Microsoft sign-in did not finish. The server redirects to the screen the user started
// from with `?error=oauth&reason=<code>&provider=<google|outlook>` and never with free text: the screens
// map the code to a fixed message, so a crafted link cannot make the product say anything else.

export const OAUTH_ERROR_CODES = [
  /** State mismatch, no flow cookie, or the 10-minute window passed. */
  'expired',
  /** The user declined consent (access_denied). */
  'denied',
  /** The provider answered the callback with another error. */
  'refused',
  'no_code',
  /** While adding a mailbox, the browser got signed in as another user. */
  'other_user',
  /** The provider's token or userinfo endpoint could not be reached. */
  'unreachable',
  /** invalid_grant: the code expired or was used. */
  'grant_rejected',
  /** Any other token endpoint failure (our keys, the provider's outage). */
  'token_failed',
  /** The ID token did not verify. */
  'unconfirmed',
  'no_email',
  'no_refresh_token',
  'missing_scopes',
  'invalid_email',
  /** Google has not verified the account's address. */
  'unverified_email',
  /** A Microsoft work or school account whose tenant does not vouch for the address. */
  'unverified_work_account',
  /** An add-mailbox flow without a signed-in user. */
  'signin_required',
  /** Adding another mailbox on the free trial (billing on): a plan is needed first. */
  'subscription_required',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];
