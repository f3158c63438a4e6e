// The address typed at sign-up, kept for the Add Mailbox form that follows (docs/decisions/102-settings-
// that-say-what-they-do.md). In this tab's sessionStorage, not in the URL: addresses in URLs end up in
// access logs and browser history. It goes when a mailbox is added, and with the tab.

const KEY = 'ig.signup-address';

/** Remembers the address just typed at sign-up. Storage refused (private modes): nothing is prefilled. */
export function rememberSignupAddress(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Prefilling is a convenience only.
  }
}

/** The address typed at sign-up in this tab, if any. */
export function signupAddress(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function forgetSignupAddress(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
