import type { Subscription, UnsubscribeResult } from '#contract/api.js';
import { createDnsResolver, type DnsResolver } from '#server/lib/dns-resolver.js';
import { ConflictError, NotFoundError, ReauthRequiredError } from '#server/lib/errors.js';
import type { ProviderFactory } from '#server/mail/index.js';
import type { ActivityLog } from '../activity/repository.js';
import type { OrganiseService } from '../organise/service.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionsService } from '../subscriptions/service.js';
import { loadSender, MESSAGES, movedToUnsubscribed, UNDO_MESSAGES, unsubscribeAnswer } from './answers.js';
import type { UnsubscribeContext } from './context.js';
import type { Sender } from './sender.js';
import { createSenderLock, type Operation } from './sender-lock.js';
import { blockSender } from './steps/block.js';
import { recordManualUnsubscribe } from './steps/confirm-manual.js';
import {
  liftAndRestoreBlock,
  liftBlockForKeep,
  restoreTrashedAfterKeep,
  undoBlock,
} from './steps/lift-block.js';
import { trashAfterUnsubscribe } from './steps/trash.js';
import { unsubscribeSender } from './steps/unsubscribe-sender.js';
import { type ReserveUnsubscribe, unlimited, withTrialAllowance } from './trial-allowance.js';
import { STILL_SENDING_GRACE_MS } from './verification.js';

// The unsubscribe engine (docs/decisions/019-the-unsubscribe-engine.md): RFC 8058 one-click → a mailto request
// sent from the user's own mailbox → the sender's page, opened by the user → a block (provider rule or our
// own, and the existing mail moved to trash). Each of these is a step under steps/; this file gives the
// buttons their calls, each run under the sender's lock (sender-lock.ts) and, where it may unsubscribe,
// holding one of the free trial's unsubscribes (trial-allowance.ts). Safety rules (docs/decisions/022-mailto-and-block-safety.md):
// - a mailto goes to exactly one address with a short fixed request (mail/headers/mailto.ts);
// - nothing is trashed unless the user chose it: a mailto that cannot be sent is refused with `offerBlock`
//   and a block that would trash mail without list headers asks first (`confirmBlock`);
// - one run per sender across every instance, and a receipt is written before the sender is contacted,
//   so a crash between request and answer never sends twice.

/** The activity rows a block or a trashing unsubscribe leaves, undone together (one trash to bring back). */
const TRASH_KINDS = ['block', 'unsubscribe'] as const;

export interface UnsubscribeDeps {
  repos: Pick<Repositories, 'unsubscribe' | 'mailboxes' | 'settings'>;
  providers: ProviderFactory;
  subscriptions: SubscriptionsService;
  allowedHosts: ReadonlySet<string>;
  /** DNS for DKIM keys (DNS_SERVERS); the system's resolvers when absent. */
  dnsResolver?: DnsResolver;
  oneClickTimeoutMs?: number;
  /** How long a run holds its sender without renewing (renewed every third of it while alive). */
  flightLeaseMs?: number;
  /** How often a caller waiting on another instance's run looks for its answer. */
  flightPollMs?: number;
  flightMaxWaitMs?: number;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** The free trial's unsubscribes (trial-allowance.ts). Absent: nothing is limited. */
  reserveUnsubscribe?: ReserveUnsubscribe;
  /** The Screener and sender rules, told of each decision (features/organise). */
  organise?: Pick<OrganiseService, 'releaseScreened' | 'senderDecided'>;
  /** The activity history: each block and each unsubscribe that moved mail, and their undos (features/activity). */
  activity?: ActivityLog;
}

export interface BlockOptions {
  /** The user saw how many messages without list headers the block trashes, and agreed. */
  confirmBlock?: boolean;
  /** Run as an item of this bulk: its activity is listed under the bulk's. */
  bulkId?: string;
}

export interface UnsubscribeOptions extends BlockOptions {
  /**
   * true: once the sender is unsubscribed, whichever way, also move its existing mail to the trash.
   * false: never move its existing mail, also when the way out is a block (future mail only).
   * undefined: the spec's default, only a block moves it.
   */
  moveToTrash?: boolean;
}

/** The sender-lock operation of an unsubscribe: runs asked with different options do not share answers. */
function unsubscribeOperation({ confirmBlock, moveToTrash }: UnsubscribeOptions): Operation {
  if (moveToTrash === true) return confirmBlock ? 'unsubscribe-confirmed-trash' : 'unsubscribe-trash';
  if (moveToTrash === false)
    return confirmBlock ? 'unsubscribe-confirmed-keep-mail' : 'unsubscribe-keep-mail';
  return confirmBlock ? 'unsubscribe-confirmed' : 'unsubscribe';
}

export function createUnsubscribeService(deps: UnsubscribeDeps) {
  const { repos, now = Date.now, log } = deps;
  const reserve = deps.reserveUnsubscribe ?? unlimited;
  const ctx: UnsubscribeContext = {
    repo: repos.unsubscribe,
    mailboxes: repos.mailboxes,
    providers: deps.providers,
    subscriptions: deps.subscriptions,
    now,
    log,
    oneClick: {
      allowedHosts: deps.allowedHosts,
      dnsResolver: deps.dnsResolver ?? createDnsResolver(null),
      timeoutMs: deps.oneClickTimeoutMs,
    },
  };
  const { withSenderLock, reconcileAbandoned } = createSenderLock({
    repo: ctx.repo,
    now,
    log,
    leaseMs: deps.flightLeaseMs,
    pollMs: deps.flightPollMs,
    maxWaitMs: deps.flightMaxWaitMs,
  });

  /**
   * An answer that blocked the sender, or moved its mail, goes into the activity history (not one that
   * only told the sender, nor one waiting for the user to sign in again).
   */
  async function recordMoved(senderId: string, answer: UnsubscribeResult, bulkId?: string): Promise<void> {
    if (answer.authUrl) return;
    const moved = answer.movedToTrash ?? 0;
    if (answer.method === 'block' && answer.blockedAndTrashed) {
      await deps.activity?.record({ kind: 'block', senderId, moved, bulkId });
    } else if (moved > 0) {
      await deps.activity?.record({ kind: 'unsubscribe', senderId, moved, bulkId });
    }
  }

  /**
   * Runs `task` on the caller's sender under the sender's lock: another user's id is refused before the
   * lock is touched (the lock is the sender's, whoever asks), and the sender is read again once it is held.
   */
  async function runOnOwnSender<T>(
    op: Operation,
    userId: string,
    subscriptionId: string,
    task: (sender: Sender) => Promise<T>,
  ): Promise<T> {
    await loadSender(ctx, userId, subscriptionId);
    return withSenderLock(op, userId, subscriptionId, async () =>
      task(await loadSender(ctx, userId, subscriptionId)),
    );
  }

  return {
    /** POST /unsubscribe: the ways out in order (steps/unsubscribe-sender.ts). */
    async unsubscribe(
      userId: string,
      subscriptionId: string,
      options: UnsubscribeOptions = {},
    ): Promise<UnsubscribeResult> {
      const result = await runOnOwnSender(
        unsubscribeOperation(options),
        userId,
        subscriptionId,
        async (sender) => {
          const answer = await withTrialAllowance(
            { reserve, userId, sender, moved: movedToUnsubscribed, log },
            () =>
              unsubscribeSender(ctx, {
                userId,
                sender,
                confirmBlock: options.confirmBlock,
                trashOnBlock: options.moveToTrash !== false,
              }),
          );
          const done =
            options.moveToTrash === true ? await trashAfterUnsubscribe(ctx, sender, answer) : answer;
          await recordMoved(sender.id, done, options.bulkId);
          return done;
        },
      );
      await deps.organise?.senderDecided(userId, subscriptionId);
      return result;
    },

    /** POST /block-subscription: blocks the sender and trashes its mail; answers the updated subscription. */
    async block(userId: string, subscriptionId: string, options: BlockOptions = {}): Promise<Subscription> {
      const op = options.confirmBlock ? 'block-confirmed' : 'block';
      const answer = await runOnOwnSender(op, userId, subscriptionId, async (sender) => {
        const rule = await ctx.repo.blockRule(sender.mailbox.id, sender.address);
        // Already blocked (a double click, or a retry after success): nothing to do again.
        if (rule && sender.category === 'unsubscribed') {
          return unsubscribeAnswer(sender, 'block', { blockedAndTrashed: true });
        }
        const blocked = await withTrialAllowance(
          { reserve, userId, sender, moved: movedToUnsubscribed, log },
          () => blockSender(ctx, { userId, sender, confirmBlock: options.confirmBlock }),
        );
        await recordMoved(sender.id, blocked, options.bulkId);
        return blocked;
      });
      if (answer.authUrl) throw new ReauthRequiredError(MESSAGES.reauth, { redirectUrl: answer.authUrl });
      await deps.organise?.senderDecided(userId, subscriptionId);
      const [item] = await ctx.subscriptions.byIds(userId, [subscriptionId]);
      if (!item) throw new NotFoundError(MESSAGES.notFound);
      return { ...item, movedToTrash: answer.movedToTrash ?? 0 };
    },

    /**
     * POST /keep-subscription: the sender moves to Kept, and a block on it is lifted (steps/lift-block.ts);
     * `restoreFromTrash`: with the mail the block trashed moved back, as the undo of Block does.
     */
    async keep(
      userId: string,
      subscriptionId: string,
      { restoreFromTrash = false, bulkId }: { restoreFromTrash?: boolean; bulkId?: string } = {},
    ): Promise<Subscription> {
      const op = restoreFromTrash ? 'keep-restore' : 'keep';
      return runOnOwnSender(op, userId, subscriptionId, async (sender) => {
        // Asked with the Keep (the block still on: lifted and undone at once), or after a Keep that lifted
        // it (the block's moves are still known).
        let restoredFromTrash = restoreFromTrash ? await liftAndRestoreBlock(ctx, { userId, sender }) : null;
        let lifted = restoredFromTrash !== null;
        if (!lifted) {
          lifted = await liftBlockForKeep(ctx, { userId, sender });
          if (restoreFromTrash) restoredFromTrash = await restoreTrashedAfterKeep(ctx, { userId, sender });
        }
        // A screened sender's mail comes back to the inbox (first: a mailbox that refuses leaves the
        // sender as it was, for the user to try again).
        const restored = (await deps.organise?.releaseScreened(userId, sender.id)) ?? 0;
        const item = await ctx.subscriptions.setCategory(userId, sender.id, 'kept');
        if (restoredFromTrash !== null) await deps.activity?.settle(sender.id, TRASH_KINDS);
        if (bulkId) await deps.activity?.record({ kind: 'keep', senderId: sender.id, moved: 0, bulkId });
        return {
          ...item,
          ...(lifted ? { blockLifted: true } : {}),
          ...(restoredFromTrash !== null ? { restoredFromTrash } : {}),
          ...(restored > 0 ? { restoredFromScreener: restored } : {}),
        };
      });
    },

    /**
     * POST /review-subscription, the undo of Keep: a kept sender goes back to the review list. Idempotent
     * (a sender already there stays). A Keep that lifted a block is not undone by it: the block stays
     * lifted (undoing that Keep would trash the sender's mail again; the user can block it again).
     */
    async review(userId: string, subscriptionId: string): Promise<Subscription> {
      return runOnOwnSender('review', userId, subscriptionId, async (sender) => {
        if (sender.category === 'unsubscribed') throw new ConflictError(UNDO_MESSAGES.notKept);
        const item = await ctx.subscriptions.setCategory(userId, sender.id, 'uncategorized');
        await deps.activity?.settle(sender.id, ['keep']);
        return item;
      });
    },

    /**
     * POST /unblock-subscription, the undo of Block: the block lifted, the trashed mail moved back, the
     * sender back to the review list, and an 'unblock' receipt (steps/lift-block.ts).
     */
    async unblock(userId: string, subscriptionId: string): Promise<Subscription> {
      return runOnOwnSender('unblock', userId, subscriptionId, async (sender) => {
        const item = await undoBlock(ctx, { userId, sender });
        await deps.activity?.settle(sender.id, TRASH_KINDS);
        return item;
      });
    },

    /**
     * The activity history's undo of a block or of an unsubscribe that moved mail: a block still on is
     * undone as Block's own Undo does (lifted, mail back, sender back to review); otherwise the mail the
     * product trashed goes back where it was and the sender stays as it is. Answers how many came back.
     */
    async undoTrash(userId: string, subscriptionId: string): Promise<number> {
      return runOnOwnSender('restore-trash', userId, subscriptionId, async (sender) => {
        const blocked = await ctx.repo.blockRule(sender.mailbox.id, sender.address);
        const restored = blocked
          ? ((await undoBlock(ctx, { userId, sender })).restoredFromTrash ?? 0)
          : await restoreTrashedAfterKeep(ctx, { userId, sender });
        await deps.activity?.settle(sender.id, TRASH_KINDS);
        return restored;
      });
    },

    /**
     * After a check of a mailbox: marks unsubscribed senders whose mail still arrived after the
     * grace period, and blocks them when the user asked for it (blocked senders are left alone, and
     * so are senders some of whose mail has no list headers: blocking those needs the user's yes).
     */
    async verify(userId: string, mailboxId: string): Promise<void> {
      await ctx.repo.flagStillSending(mailboxId, STILL_SENDING_GRACE_MS);
      const settings = await repos.settings.find(userId);
      if (!settings?.autoBlockStillSending) return;
      for (const subscriptionId of await ctx.repo.stillSendingListOnly(mailboxId)) {
        try {
          await withSenderLock('block', userId, subscriptionId, async () => {
            const blocked = await blockSender(ctx, {
              userId,
              sender: await loadSender(ctx, userId, subscriptionId),
            });
            await deps.activity?.record({
              kind: 'block',
              senderId: subscriptionId,
              moved: blocked.movedToTrash ?? 0,
              byCheck: true,
            });
          });
        } catch (error) {
          // One sender that cannot be blocked now (mail server down, new unlisted mail) spares the others.
          log?.warn({ senderId: subscriptionId, err: (error as Error).message }, 'automatic block failed');
        }
      }
    },

    /** POST /manual-unsubscribe: the user confirms they unsubscribed on the sender's page. */
    async confirmManual(userId: string, subscriptionId: string): Promise<Subscription> {
      const sender = await loadSender(ctx, userId, subscriptionId);
      if (sender.category === 'unsubscribed') {
        return ctx.subscriptions.setCategory(userId, sender.id, 'unsubscribed');
      }
      return withTrialAllowance({ reserve, userId, sender, moved: () => true, log }, () =>
        recordManualUnsubscribe(ctx, { userId, sender }),
      );
    },

    /** At start: settles the runs a stopped process left behind (sender-lock.ts). */
    reconcileAbandoned,
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
