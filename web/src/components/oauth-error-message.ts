import type { OAuthErrorCode } from '#contract/oauth-errors.js';

// The fixed texts of a failed Google or Microsoft sign-in, by the code the server put in the address.
// Nothing from the address is shown: an unknown code or provider gets the generic text.

export const GENERIC_OAUTH_ERROR = 'Signing in with your provider did not complete. Please try again.';

const LABELS: Record<string, string> = { google: 'Google', outlook: 'Microsoft' };

/** By code; `{provider}` is replaced by the provider's name ("Google", "Microsoft"). */
const MESSAGES: Record<OAuthErrorCode, string> = {
  expired:
    'This {provider} sign-in was started in another window or took longer than 10 minutes. Please try again.',
  denied: 'You did not allow Inbox Genie to read this mailbox, so nothing was connected.',
  refused: '{provider} refused the sign-in. Please try again.',
  no_code: '{provider} sent no authorization code. Please try again.',
  other_user: 'You signed in as someone else meanwhile. Please add the mailbox again.',
  unreachable: '{provider} could not be reached to finish the sign-in. Please try again in a moment.',
  grant_rejected: '{provider} did not accept the sign-in (it may have expired). Please try again.',
  token_failed: '{provider} sign-in failed on our side. Please try again later.',
  unconfirmed: '{provider} sign-in could not be confirmed. Please try again.',
  no_email: '{provider} did not tell us the email address of this account, so it cannot be connected.',
  no_refresh_token:
    '{provider} did not give Inbox Genie lasting access to this mailbox (no refresh token), so it was not connected. Please try again and allow offline access.',
  missing_scopes:
    'Inbox Genie needs every permission it asks for to read and tidy your mailbox. Please try again and allow all of them.',
  invalid_email: '{provider} named an address that is not a valid email address.',
  unverified_email:
    '{provider} has not verified the address of this account yet. Verify it with {provider}, then try again.',
  unverified_work_account:
    '{provider} does not confirm that the address of this work or school account belongs to it, so it cannot be used to sign in. Sign in another way, then add the mailbox under Email Accounts.',
  signin_required: 'Please sign in before adding a mailbox.',
  subscription_required:
    'Subscription required: your free trial includes one mailbox. Choose a plan to add more.',
};

/** Whether the failure asks for a plan: the banner then links to /pricing. */
export function oauthNeedsPlan(params: URLSearchParams): boolean {
  return params.get('error') === 'oauth' && params.get('reason') === 'subscription_required';
}

/** The banner of a page reached from a failed sign-in (`?error=oauth&reason=…&provider=…`), else null. */
export function oauthErrorMessage(params: URLSearchParams): string | null {
  if (params.get('error') !== 'oauth') return null;
  const reason = params.get('reason') ?? '';
  const provider = params.get('provider') ?? '';
  if (!Object.hasOwn(MESSAGES, reason)) return GENERIC_OAUTH_ERROR;
  const text = MESSAGES[reason as OAuthErrorCode];
  if (!text.includes('{provider}')) return text;
  // A text that names the provider needs one we know.
  return Object.hasOwn(LABELS, provider)
    ? text.replaceAll('{provider}', LABELS[provider]!)
    : GENERIC_OAUTH_ERROR;
}
