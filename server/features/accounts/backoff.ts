import { TooManyAttemptsError } from '#server/lib/errors.js';
import type { AccountsRepository } from './repository.js';

// The backoff of guessed secrets (docs/decisions/058-per-address-sign-in-backoff.md): a password per
// address, a second factor's code per account. Each attempt is reserved before the secret is checked, in
// one write, so concurrent guesses cannot all pass a check made before any of them was counted.

/** Failed attempts before each further one waits. */
export const FREE_FAILURES = 5;
/** The first wait; it doubles with each further failure, up to MAX_LOCK_MS. */
export const FIRST_LOCK_MS = 30 * 1000;
export const MAX_LOCK_MS = 15 * 60 * 1000;
/** Failures older than this are forgotten. */
export const FAILURE_WINDOW_MS = 3600 * 1000;

/** How long a key waits after at least `failures` failures, most failures first (the repository's CASE). */
const WAITS: readonly { failures: number; ms: number }[] = (() => {
  const waits: { failures: number; ms: number }[] = [];
  for (let over = 0; ; over++) {
    const ms = Math.min(FIRST_LOCK_MS * 2 ** over, MAX_LOCK_MS);
    waits.push({ failures: FREE_FAILURES + over, ms });
    if (ms === MAX_LOCK_MS) break;
  }
  return waits.reverse();
})();

export function createBackoff(repo: AccountsRepository, now: () => number, message: string) {
  return {
    /**
     * Runs `check` (true: the secret was right) under the key's backoff: 429 with `message` while the
     * key waits; a wrong secret stays counted, a right one clears the key.
     */
    async attempt(key: string, check: () => Promise<boolean>): Promise<boolean> {
      if (!(await repo.reserveSigninAttempt(key, now(), FAILURE_WINDOW_MS, WAITS))) {
        throw new TooManyAttemptsError(message);
      }
      const ok = await check();
      if (ok) await repo.clearSigninFailures(key);
      return ok;
    },
    clear: (key: string) => repo.clearSigninFailures(key),
  };
}
