import { sql } from 'kysely';
import type { Plan } from '#contract/api.js';
import type { Db } from '#server/db/index.js';

// SQL of billing: the user's Stripe customer and subscription copy, the webhook's event ids, and the free
// trial's counters (on the user and sender rows they limit).

/** What a sync writes: the subscription Stripe says the customer has (nulls when none). */
export interface StripeSubscriptionCopy {
  subscriptionId: string | null;
  /** Stripe's subscription status (active, trialing, past_due, canceled, …); null: never subscribed. */
  status: string | null;
  priceId: string | null;
  interval: 'month' | 'year' | null;
  /** Milliseconds since the epoch. */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

/** The user's Stripe customer and the copy of its subscription the last sync wrote. */
export interface BillingAccount extends StripeSubscriptionCopy {
  userId: string;
  customerId: string;
}

/** The outcome of asking for one of the trial's unsubscribes for a sender. */
export type Reservation = 'reserved' | 'already-counted' | 'exhausted';

export function createBillingRepository(db: Db) {
  return {
    async accountOfUser(userId: string): Promise<BillingAccount | undefined> {
      const row = await db
        .selectFrom('billing_accounts')
        .select([
          'user_id',
          'customer_id',
          'subscription_id',
          'status',
          'price_id',
          'interval',
          'current_period_end',
          'cancel_at_period_end',
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        userId: row.user_id,
        customerId: row.customer_id,
        subscriptionId: row.subscription_id,
        status: row.status,
        priceId: row.price_id,
        interval: row.interval,
        currentPeriodEnd: row.current_period_end === null ? null : Number(row.current_period_end),
        cancelAtPeriodEnd: row.cancel_at_period_end === 1,
      };
    },

    async userOfCustomer(customerId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('billing_accounts')
        .select('user_id')
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row?.user_id;
    },

    async userEmail(userId: string): Promise<string> {
      const row = await db
        .selectFrom('users')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return row.email;
    },

    async userExists(userId: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    async plan(userId: string): Promise<Plan | undefined> {
      const row = await db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
      return row ? (row.plan === 'premium' ? 'premium' : 'free') : undefined;
    },

    /**
     * Links a customer to a user. Two calls racing with the same customer (Stripe's idempotency answered
     * both with it) both succeed; answers the customer the user is linked to after the call.
     */
    async linkCustomer(userId: string, customerId: string, now: number): Promise<string> {
      await db
        .insertInto('billing_accounts')
        .values({ user_id: userId, customer_id: customerId, created_at: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const row = await db
        .selectFrom('billing_accounts')
        .select('customer_id')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return row.customer_id;
    },

    /** The subscription copy and the user's plan, together (one transaction). */
    async saveSync(userId: string, copy: StripeSubscriptionCopy, plan: Plan, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('billing_accounts')
          .set({
            subscription_id: copy.subscriptionId,
            status: copy.status,
            price_id: copy.priceId,
            interval: copy.interval,
            current_period_end: copy.currentPeriodEnd,
            cancel_at_period_end: copy.cancelAtPeriodEnd ? 1 : 0,
            synced_at: now,
          })
          .where('user_id', '=', userId)
          .execute();
        await trx.updateTable('users').set({ plan }).where('id', '=', userId).execute();
      });
    },

    /** Stores an event id once; false when it was there already (a redelivery). */
    async recordEvent(
      event: { id: string; type: string; customerId: string | null },
      now: number,
    ): Promise<boolean> {
      const inserted = await db
        .insertInto('stripe_events')
        .values({ id: event.id, type: event.type, customer_id: event.customerId, received_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The customer's events received up to `upTo` are handled (a sync read Stripe after them). */
    async markEventsProcessed(customerId: string, upTo: number, now: number): Promise<void> {
      await db
        .updateTable('stripe_events')
        .set({ processed_at: now })
        .where('customer_id', '=', customerId)
        .where('processed_at', 'is', null)
        .where('received_at', '<=', upTo)
        .execute();
    },

    /** Customers with events not handled yet (a process stopped before syncing them). */
    async customersWithUnprocessedEvents(): Promise<string[]> {
      const rows = await db
        .selectFrom('stripe_events')
        .select('customer_id')
        .distinct()
        .where('processed_at', 'is', null)
        .where('customer_id', 'is not', null)
        .execute();
      return rows.map((r) => r.customer_id as string);
    },

    /** Event ids older than `before` are forgotten (Stripe stops retrying an event after three days). */
    async pruneEvents(before: number): Promise<void> {
      await db
        .deleteFrom('stripe_events')
        .where('received_at', '<', before)
        .where('processed_at', 'is not', null)
        .execute();
    },

    async trialUsage(userId: string): Promise<{ unsubscribesUsed: number; mailboxes: number }> {
      const user = await db
        .selectFrom('users')
        .select('trial_unsubscribes_used')
        .where('id', '=', userId)
        .executeTakeFirst();
      const boxes = await db
        .selectFrom('mailboxes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { unsubscribesUsed: Number(user?.trial_unsubscribes_used ?? 0), mailboxes: Number(boxes.n) };
    },

    /**
     * Takes one of the trial's `limit` unsubscribes for a sender, unless the sender was counted before.
     * The conditional UPDATE is the atomic step: on PostgreSQL a second transaction waits for the first's
     * row lock and re-checks `used < limit` against the committed value; SQLite runs one write at a time.
     */
    async reserveUnsubscribe(userId: string, senderId: string, limit: number): Promise<Reservation> {
      return db.transaction().execute(async (trx) => {
        const sender = await trx
          .selectFrom('senders')
          .select('trial_counted')
          .where('id', '=', senderId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (sender?.trial_counted === 1) return 'already-counted';
        const taken = await trx
          .updateTable('users')
          .set({ trial_unsubscribes_used: sql`trial_unsubscribes_used + 1` })
          .where('id', '=', userId)
          .where('trial_unsubscribes_used', '<', limit)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) return 'exhausted';
        await trx.updateTable('senders').set({ trial_counted: 1 }).where('id', '=', senderId).execute();
        return 'reserved';
      });
    },

    /**
     * What the user used of the trial and the addresses it is kept under when the account goes: only proven
     * ones (the account's, once proven, and mailboxes whose login proved theirs). Under an address anyone can
     * type, a stranger could use up its owner's trial before the owner ever arrives.
     */
    async trialToKeep(userId: string): Promise<{ used: number; addresses: string[] }> {
      const user = await db
        .selectFrom('users')
        .select(['email', 'email_verified', 'trial_unsubscribes_used'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) return { used: 0, addresses: [] };
      const boxes = await db
        .selectFrom('mailboxes')
        .select('email')
        .where('user_id', '=', userId)
        .where('address_proven', '=', 1)
        .execute();
      const own = user.email_verified === 1 ? [user.email] : [];
      return {
        used: Number(user.trial_unsubscribes_used),
        addresses: [...new Set([...own, ...boxes.map((b) => b.email)])],
      };
    },

    /** Keeps `used` under each key, never lowering what an earlier account left there. */
    async keepTrialUsage(keys: string[], used: number, at: number): Promise<void> {
      for (const key of keys) {
        await db
          .insertInto('trial_usage')
          .values({ key, unsubscribes_used: used, updated_at: at })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => ({
              unsubscribes_used: sql<number>`case when ${eb.ref('excluded.unsubscribes_used')} > ${eb.ref('trial_usage.unsubscribes_used')} then ${eb.ref('excluded.unsubscribes_used')} else ${eb.ref('trial_usage.unsubscribes_used')} end`,
              updated_at: at,
            })),
          )
          .execute();
      }
    },

    /** Raises the user's used count to the most a deleted account left under any of `keys`. */
    async applyKeptTrialUsage(userId: string, keys: string[]): Promise<void> {
      if (keys.length === 0) return;
      const row = await db
        .selectFrom('trial_usage')
        .select((eb) => eb.fn.max('unsubscribes_used').as('used'))
        .where('key', 'in', keys)
        .executeTakeFirst();
      const kept = Number(row?.used ?? 0);
      if (kept <= 0) return;
      await db
        .updateTable('users')
        .set({ trial_unsubscribes_used: kept })
        .where('id', '=', userId)
        .where('trial_unsubscribes_used', '<', kept)
        .execute();
    },

    /** Gives a reservation back (the attempt changed nothing). */
    async releaseUnsubscribe(userId: string, senderId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const sender = await trx
          .updateTable('senders')
          .set({ trial_counted: 0 })
          .where('id', '=', senderId)
          .where('user_id', '=', userId)
          .where('trial_counted', '=', 1)
          .executeTakeFirst();
        // A sender deleted meanwhile (its mailbox removed) gives nothing back: its row is gone.
        if (Number(sender.numUpdatedRows) !== 1) return;
        await trx
          .updateTable('users')
          .set({ trial_unsubscribes_used: sql`trial_unsubscribes_used - 1` })
          .where('id', '=', userId)
          .where('trial_unsubscribes_used', '>', 0)
          .execute();
      });
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;
