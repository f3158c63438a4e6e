import { randomUUID } from 'node:crypto';
import type {
  BulkAction,
  BulkItemResult,
  BulkOutcome,
  BulkStatus,
  BulkSummary,
  UnsubscribeResult,
} from '#contract/api.js';
import { ConflictError, DomainError, NotFoundError } from '#server/lib/errors.js';
import type { Live } from '#server/live/index.js';
import { parseMailto } from '#server/mail/headers/mailto.js';
import type { ActivityLog } from '../activity/repository.js';
import type { Repositories } from '../repositories.js';
import type { UnsubscribeService } from '../unsubscribe/service.js';
import type { BulkSender } from './bulk.js';
import { type HostLimits, runWithHostLimits } from './limiter.js';

// Many senders at once (docs/decisions/047-bulk-actions-run-as-jobs.md). POST /bulk-action stores the bulk and
// one item per sender, then a job runs the items: each through the very call the single buttons make
// (features/unsubscribe/service.ts), so one run per sender, receipts written before a sender is
// contacted, the free trial's reservation and the mailto/one-click safety rules are those of the single
// action. An item's outcome is written once; a restarted process resumes the items without one and never
// runs a finished one again (one cut off mid-request is settled by the sender lock's reconciliation and then
// answers from its receipts, without a second request).

export const BULK_MESSAGES = {
  running: 'A bulk action is still running. Wait for it to finish before starting another.',
  notFound: 'Bulk action not found.',
  itemNotFound: 'Subscription not found.',
  failed: 'Something went wrong on our side. Please try again.',
} as const;

/** Everything at once overall, and per host (a newsletter platform's endpoint, a mail domain, a mailbox). */
export const DEFAULT_BULK_LIMITS: HostLimits = { total: 4, perHost: 2 };
/** Finished bulks are kept this long for the screen to read, then dropped when the user starts another. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;

export interface BulkDeps {
  repos: Pick<Repositories, 'bulk'>;
  unsubscribe: Pick<UnsubscribeService, 'unsubscribe' | 'keep' | 'block'>;
  live: Pick<Live, 'emitToUser'>;
  /** Queues the job that runs a bulk (keyed by the bulk: one runner at a time). */
  enqueue: (bulkId: string) => Promise<void>;
  limits?: HostLimits;
  /** How long a runner holds its bulk without renewing (renewed every third of it while alive). */
  leaseMs?: number;
  /** How often a runner finding its bulk held by another looks again. */
  pollMs?: number;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** The activity history: one row per bulk, its items' rows under it (features/activity). */
  activity?: Pick<ActivityLog, 'record'>;
}

/**
 * The host an item's requests go to, for the per-host limit: the one-click endpoint's host, else the
 * domain the unsubscribe mail goes to, else the mailbox (a block, a keep, a manual-only sender).
 */
export function hostOf(action: BulkAction, sender: BulkSender | undefined): string {
  if (!sender) return 'none';
  const mailbox = `mailbox:${sender.mailboxId}`;
  if (action !== 'unsubscribe') return mailbox;
  if (sender.oneClick) {
    const https = sender.unsubscribeHttp.find((u) => /^https:/i.test(u));
    if (https) {
      try {
        return `https:${new URL(https).hostname.toLowerCase()}`;
      } catch {
        // Not a URL: the single action will not use it either.
      }
    }
  }
  for (const uri of sender.unsubscribeMailto) {
    const parsed = parseMailto(uri);
    if (parsed.ok)
      return `mail:${parsed.request.to.slice(parsed.request.to.lastIndexOf('@') + 1).toLowerCase()}`;
  }
  return mailbox;
}

/** What a single unsubscribe's answer means for the bulk. */
export function outcomeOf(answer: UnsubscribeResult): BulkOutcome {
  if (answer.authUrl) return 'reauth';
  if (answer.blockedAndTrashed || answer.method === 'block') return 'blocked';
  if (answer.manualUnsubscribe || answer.method === 'manual') return 'manual';
  if (!answer.oneClickUnsubscribeSuccess) return 'failed';
  return answer.method === 'one-click' ? 'one-click' : 'mailto';
}

/** A refusal of the single action, as the bulk records it. */
export function failureOf(error: unknown): { outcome: BulkOutcome; error: string } {
  if (!(error instanceof DomainError)) return { outcome: 'failed', error: BULK_MESSAGES.failed };
  if (error.kind === 'plan-limit') return { outcome: 'limit', error: error.message };
  if (error.kind === 'reauth-required' || error.kind === 'not-authenticated') {
    return { outcome: 'reauth', error: error.message };
  }
  if (error.kind === 'not-found') return { outcome: 'not-found', error: error.message };
  // 409 confirmBlock included: a bulk never confirms a block that would trash mail without list headers;
  // the item fails with the reason, and the single Block button asks the user.
  return { outcome: 'failed', error: error.message };
}

export function createBulkService(deps: BulkDeps) {
  const { unsubscribe, live, enqueue, now = Date.now, log } = deps;
  const repo = deps.repos.bulk;
  const limits = deps.limits ?? DEFAULT_BULK_LIMITS;
  const leaseMs = deps.leaseMs ?? 30_000;
  const pollMs = deps.pollMs ?? 1000;
  /** Set when the process is closing: runners start no new item, so the rest waits for the next start. */
  let stopping = false;

  /** One item, through the very call the single button makes. */
  async function runItem(item: {
    bulkId: string;
    userId: string;
    action: BulkAction;
    /** Unsubscribe only: as POST /unsubscribe's moveToTrash (bulk.ts). */
    moveToTrash?: boolean;
    subscriptionId: string;
    /** The sender is the user's subscription (else the item is not found, and nothing is called). */
    owned: boolean;
  }): Promise<BulkItemResult> {
    const { userId, action, subscriptionId, bulkId } = item;
    if (!item.owned) return { subscriptionId, outcome: 'not-found', error: BULK_MESSAGES.itemNotFound };
    try {
      if (action === 'keep') {
        await unsubscribe.keep(userId, subscriptionId, { bulkId });
        return { subscriptionId, outcome: 'kept' };
      }
      if (action === 'block') {
        const blocked = await unsubscribe.block(userId, subscriptionId, { bulkId });
        return { subscriptionId, outcome: 'blocked', movedToTrash: blocked.movedToTrash ?? 0 };
      }
      const answer = await unsubscribe.unsubscribe(userId, subscriptionId, {
        moveToTrash: item.moveToTrash,
        bulkId,
      });
      const result: BulkItemResult = { subscriptionId, outcome: outcomeOf(answer), result: answer };
      if (answer.movedToTrash !== undefined) result.movedToTrash = answer.movedToTrash;
      return result;
    } catch (error) {
      if (!(error instanceof DomainError)) {
        log?.warn({ subscriptionId, err: (error as Error).message }, 'bulk item failed');
      }
      return { subscriptionId, ...failureOf(error) };
    }
  }

  async function summary(bulkId: string): Promise<BulkSummary> {
    const out: BulkSummary = {};
    for (const { outcome, n } of await repo.outcomeCounts(bulkId)) out[outcome] = n;
    return out;
  }

  return {
    /** POST /bulk-action: stores the bulk (ids deduplicated, in order) and queues its run. */
    async start(
      userId: string,
      body: { action: BulkAction; subscriptionIds: string[]; moveToTrash?: boolean },
    ): Promise<{ bulkId: string }> {
      const ids = [...new Set(body.subscriptionIds)];
      const bulkId = randomUUID();
      await repo.pruneFinished(userId, now() - KEEP_FINISHED_MS);
      const created = await repo.create(
        {
          id: bulkId,
          userId,
          action: body.action,
          // Only an unsubscribe takes the choice; a block always moves the mail.
          moveToTrash: body.action === 'unsubscribe' ? body.moveToTrash : undefined,
          ids,
        },
        now(),
      );
      if (!created.created) {
        // The running one is queued again: a runner lost with its process is picked up now at the latest.
        if (created.running) await enqueue(created.running);
        throw new ConflictError(BULK_MESSAGES.running, created.running ? { bulkId: created.running } : {});
      }
      await deps.activity?.record({
        kind: 'bulk',
        id: bulkId,
        userId,
        action: body.action,
        total: ids.length,
      });
      await enqueue(bulkId);
      return { bulkId };
    },

    /** GET /bulk-action/:bulkId: the caller's own bulk, as far as it has come. */
    async status(userId: string, bulkId: string): Promise<BulkStatus> {
      const bulk = await repo.findOwn(userId, bulkId);
      if (!bulk) throw new NotFoundError(BULK_MESSAGES.notFound);
      const results: BulkItemResult[] = [];
      for (const item of await repo.items(bulkId)) if (item.result) results.push(item.result);
      return { bulkId: bulk.id, action: bulk.action, done: results.length, total: bulk.total, results };
    },

    /**
     * The 'bulk-action' job: runs the items still without an outcome, then closes the bulk. One runner per
     * bulk across instances: a second one (a resume while the first still lives elsewhere) waits for the
     * first's lease to end — it finishes the bulk, or its process died and this one takes over.
     */
    async run(bulkId: string): Promise<void> {
      for (;;) {
        const bulk = await repo.find(bulkId);
        if (!bulk || bulk.finishedAt !== null || stopping) return;
        if (await repo.claimRunner(bulkId, now(), leaseMs)) break;
        await new Promise((r) => setTimeout(r, pollMs));
      }
      const renew = setInterval(
        () => {
          repo.renewRunner(bulkId, now() + leaseMs).catch((error: unknown) => {
            log?.warn({ bulkId, err: String(error) }, 'could not renew the bulk lease');
          });
        },
        Math.max(10, Math.floor(leaseMs / 3)),
      );
      renew.unref();
      try {
        await runHolding(bulkId);
      } finally {
        clearInterval(renew);
        await repo.releaseRunner(bulkId);
      }
    },

    /**
     * At start: queues every bulk a stopped process left unfinished. `all`: no other process can be running
     * one (SQLite), so their runners' leases are dropped at once.
     */
    async resumeUnfinished(options: { all: boolean }): Promise<number> {
      if (options.all) await repo.releaseAllRunners();
      const ids = await repo.unfinished();
      for (const id of ids) await enqueue(id);
      return ids.length;
    },

    /** The process is closing: items already running finish, no new one starts. */
    stop(): void {
      stopping = true;
    },
  };

  async function runHolding(bulkId: string): Promise<void> {
    const bulk = await repo.find(bulkId);
    if (!bulk || bulk.finishedAt !== null) return;
    const { userId, total } = bulk;
    const pending = await repo.pendingItems(bulkId);
    const senders = new Map(
      (
        await repo.senders(
          userId,
          pending.map((p) => p.subscriptionId),
        )
      ).map((s) => [s.id, s]),
    );
    let done = await repo.doneCount(bulkId);
    await runWithHostLimits(
      pending,
      (item) => hostOf(bulk.action, senders.get(item.subscriptionId)),
      limits,
      async (item) => {
        if (stopping) return;
        const result = await runItem({
          bulkId,
          userId,
          action: bulk.action,
          moveToTrash: bulk.moveToTrash,
          subscriptionId: item.subscriptionId,
          owned: senders.has(item.subscriptionId),
        });
        if (!(await repo.finishItem(bulkId, { position: item.position, result }, now()))) return;
        done += 1;
        live.emitToUser(userId, 'bulk-progress', { bulkId, done: Math.min(done, total), total, result });
      },
    );
    if (stopping) return;
    const left = await repo.pendingItems(bulkId);
    // An item whose outcome could not be written (the database failed): the job is retried.
    if (left.length > 0) throw new Error(`${left.length} items of bulk ${bulkId} are not done`);
    await repo.finish(bulkId, now());
    live.emitToUser(userId, 'bulk-done', { bulkId, summary: await summary(bulkId) });
  }
}

export type BulkService = ReturnType<typeof createBulkService>;
