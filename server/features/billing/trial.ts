import { BILLING_MESSAGES, FREE_TRIAL } from '#contract/api.js';
import { PlanLimitError } from '#server/lib/errors.js';
import type { BillingRepository } from './repository.js';

// The free trial's limits (FREE_TRIAL: unsubscribes and mailboxes) for users without premium. With billing
// off nothing is limited. What an account used of the trial outlives it under a keyed hash of its
// addresses (docs/decisions/069-free-trial-outlives-the-account.md).

/** A reservation of one free unsubscribe; `release` gives it back when the attempt changed nothing. */
export interface UnsubscribeAllowance {
  release(): Promise<void>;
}

const NO_ALLOWANCE_NEEDED: UnsubscribeAllowance = { release: async () => {} };

export interface TrialDeps {
  repo: BillingRepository;
  /** Billing is on: users without premium are limited. */
  limited: boolean;
  /** The keyed hash the trial's use is kept under after an account is deleted (lib/crypto keyedHasher). */
  trialKey?: (address: string) => string;
  now: () => number;
}

export function createTrial({ repo, limited, trialKey, now }: TrialDeps) {
  const unlimited = async (userId: string) => !limited || (await repo.plan(userId)) === 'premium';

  return {
    /** How many mailboxes the user may have; null: no limit (premium, or billing off). */
    async mailboxLimit(userId: string): Promise<number | null> {
      return (await unlimited(userId)) ? null : FREE_TRIAL.mailboxes;
    },

    /**
     * Takes one of the trial's unsubscribes for a sender before anything is sent; 402 when they are used
     * up. Premium, billing off, and a sender counted before need none.
     */
    async reserveUnsubscribe(userId: string, senderId: string): Promise<UnsubscribeAllowance> {
      if (await unlimited(userId)) return NO_ALLOWANCE_NEEDED;
      const outcome = await repo.reserveUnsubscribe(userId, senderId, FREE_TRIAL.unsubscribes);
      if (outcome === 'exhausted') throw new PlanLimitError(BILLING_MESSAGES.unsubscribeLimit);
      if (outcome === 'already-counted') return NO_ALLOWANCE_NEEDED;
      return { release: () => repo.releaseUnsubscribe(userId, senderId) };
    },

    /**
     * Before an account is deleted: what it used of the free trial is kept under a keyed hash of each of
     * its addresses (the account's and its mailboxes'), so a new account for the same mailbox goes on
     * from there.
     */
    async keepTrialUsage(userId: string): Promise<void> {
      if (!limited || !trialKey) return;
      const { used, addresses } = await repo.trialToKeep(userId);
      if (used > 0) await repo.keepTrialUsage(addresses.map(trialKey), used, now());
    },

    /** A mailbox was connected: a deleted account's use of the trial with that address counts again. */
    async mailboxConnected(userId: string, address: string): Promise<void> {
      if (!limited || !trialKey) return;
      await repo.applyKeptTrialUsage(userId, [trialKey(address)]);
    },
  };
}
