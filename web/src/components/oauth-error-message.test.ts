import { describe, expect, it } from 'vitest';
import { OAUTH_ERROR_CODES } from '#contract/oauth-errors.js';
import { GENERIC_OAUTH_ERROR, oauthErrorMessage, oauthNeedsPlan } from './oauth-error-message';

describe('oauthErrorMessage', () => {
  it('has a fixed message for every code the server sends, naming the provider', () => {
    for (const code of OAUTH_ERROR_CODES) {
      const google = oauthErrorMessage(
        new URLSearchParams({ error: 'oauth', reason: code, provider: 'google' }),
      );
      const outlook = oauthErrorMessage(
        new URLSearchParams({ error: 'oauth', reason: code, provider: 'outlook' }),
      );
      expect(google, code).toMatch(/\.$/);
      expect(google, code).not.toBe(GENERIC_OAUTH_ERROR);
      expect(outlook, code).not.toBe(GENERIC_OAUTH_ERROR);
    }
    expect(oauthErrorMessage(new URLSearchParams('error=oauth&reason=refused&provider=outlook'))).toBe(
      'Microsoft refused the sign-in. Please try again.',
    );
    expect(oauthErrorMessage(new URLSearchParams('error=oauth&reason=denied&provider=google'))).toBe(
      'You did not allow Inbox Genie to read this mailbox, so nothing was connected.',
    );
  });

  it('asks for a plan when the free trial has its one mailbox', () => {
    const params = new URLSearchParams('error=oauth&reason=subscription_required&provider=google');
    expect(oauthErrorMessage(params)).toBe(
      'Subscription required: your free trial includes one mailbox. Choose a plan to add more.',
    );
    expect(oauthNeedsPlan(params)).toBe(true);
    expect(oauthNeedsPlan(new URLSearchParams('error=oauth&reason=denied&provider=google'))).toBe(false);
    expect(oauthNeedsPlan(new URLSearchParams('reason=subscription_required'))).toBe(false);
  });

  it('never shows text from the address', () => {
    const crafted = 'Your account is locked. Call +1 555 0100 to unlock it.';
    for (const query of [
      `error=oauth&message=${encodeURIComponent(crafted)}`,
      `error=oauth&reason=${encodeURIComponent(crafted)}&provider=google`,
      `error=oauth&reason=refused&provider=${encodeURIComponent(crafted)}`,
      'error=oauth&reason=toString&provider=google',
      'error=oauth&reason=__proto__&provider=constructor',
    ]) {
      const shown = oauthErrorMessage(new URLSearchParams(query));
      expect(shown, query).toBe(GENERIC_OAUTH_ERROR);
    }
  });

  it('shows nothing when the page was not reached from a failed sign-in', () => {
    expect(oauthErrorMessage(new URLSearchParams(''))).toBeNull();
    expect(oauthErrorMessage(new URLSearchParams('reason=denied&provider=google'))).toBeNull();
  });
});
