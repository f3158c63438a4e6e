import { readAhead } from '#server/lib/read-ahead.js';
import type { Live } from '#server/live/index.js';
import type { Sender } from '#server/mail/headers/detect.js';
import type { ProviderFactory } from '#server/mail/index.js';
import { type FoundMessage, isMailError, MailAuthError, type MailProvider } from '#server/mail/provider.js';
import type { OrganiseService } from '../organise/service.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionsService } from '../subscriptions/service.js';
import { commitBatch } from './batch.js';
import { ScanSupersededError } from './repository.js';

/** A mailbox's error when its check failed for a reason of ours, not of the mail server's. */
export const UNEXPECTED_STOP =
  'The check stopped on an unexpected error on our side; it will be tried again.';

// Scanning a mailbox (docs/ARCHITECTURE.md, "A scan"): the adapter pages through headers newest first; each batch
// is tallied by sender and committed with its checkpoint (batch.ts); after each commit the new subscriptions
// are pushed live. The first run is a full scan (resumable); later runs fetch only new mail.

export interface ScansDeps {
  repos: Pick<Repositories, 'scans' | 'mailboxes'>;
  providers: ProviderFactory;
  live: Pick<Live, 'emitToUser'>;
  subscriptions: SubscriptionsService;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** Runs at the end of each check: the unsubscribe verification (senders still sending). */
  afterCheck?: (userId: string, mailboxId: string) => Promise<void>;
  /** Sender rules and the Screener, run by each check (features/organise). */
  organise?: Pick<OrganiseService, 'screenNewSenders' | 'afterCheck'>;
}

export function createScansService({
  repos,
  providers,
  live,
  subscriptions,
  now = Date.now,
  log,
  afterCheck,
  organise,
}: ScansDeps) {
  const { scans: repo, mailboxes } = repos;

  /**
   * The mail of blocked senders this run found goes to the trash, unless the user kept the sender (Keep
   * lifts the block) while the run went on. Only that mail: a block made without moving the sender's
   * existing mail, or mail the user took back out of the trash, stays where it is. Each move is recorded
   * like the block's own, so that undoing the block brings this mail back too.
   */
  async function trashBlocked(
    provider: MailProvider,
    mailboxId: string,
    seen: ReadonlyMap<string, FoundMessage[]>,
  ) {
    const stillBlocked = await repo.ownBlockedAddresses(mailboxId);
    for (const [address, found] of seen) {
      if (!stillBlocked.has(address)) continue;
      await provider.moveMessages(found, { kind: 'trash' }, (items) =>
        mailboxes.recordTrashed(mailboxId, address, items, now()),
      );
    }
  }

  return {
    /** Runs a full scan, a resumed scan or the check for new mail, whichever the mailbox needs. */
    async scanMailbox(mailboxId: string): Promise<void> {
      const mailbox = await mailboxes.byId(mailboxId);
      if (!mailbox || mailbox.status === 'reauth') return;
      const { userId, syncState: state } = mailbox;
      // Writes of this run land only while the mailbox is still this grant's (see ScanHold).
      const hold = await repo.holdOf(mailboxId, mailbox.provider);
      const provider = providers(mailbox);
      await mailboxes.setStatus(mailboxId, 'scanning');
      live.emitToUser(userId, 'loading-new-subscriptions');
      try {
        // A check (not the first scan) is what rules and the Screener act on.
        const isCheck = mailbox.scanComplete && state !== null;
        const batches = isCheck
          ? provider.changesSince(state, { knownMessages: () => repo.knownMessageIds(mailboxId) })
          : provider.scan(state);
        // Raw From values repeat across a mailbox; each is parsed once per scan.
        const fromCache = new Map<string, Sender | null>();
        // Our own block rules (providers without server-side filters): senders blocked in this mailbox.
        const blocked = await repo.ownBlockedAddresses(mailboxId);
        const blockedSeen = new Map<string, FoundMessage[]>();
        // The check's new mail by sender, where it arrived (rules and the Screener act on these senders).
        const newMail = new Map<string, FoundMessage[]>();
        // The adapter fetches the next batch while this one commits (the mail server and the database
        // work at once).
        for await (const batch of readAhead(batches)) {
          const { newSubscriptionIds } = await commitBatch(
            repo,
            { id: mailboxId, userId, hold },
            batch.messages,
            batch.state,
            now(),
            fromCache,
            batch.flags,
          );
          // Marked before they are announced, so the new rows already say they are screened.
          if (isCheck) await organise?.screenNewSenders(mailboxId, newSubscriptionIds);
          for (const item of await subscriptions.byIds(userId, newSubscriptionIds)) {
            live.emitToUser(userId, 'new-subscription', item);
          }
          live.emitToUser(userId, 'scan-progress', batch.progress);
          for (const m of batch.messages) {
            const address = fromCache.get(m.fields.from ?? '')?.address;
            if (address && blocked.has(address)) {
              const found = blockedSeen.get(address) ?? [];
              found.push({ id: m.id, folder: m.folder, date: m.date });
              blockedSeen.set(address, found);
            }
            if (address && isCheck) {
              const found = newMail.get(address) ?? [];
              found.push({ id: m.id, folder: m.folder, date: m.date });
              newMail.set(address, found);
            }
          }
        }
        await trashBlocked(provider, mailboxId, blockedSeen);
        if (isCheck && organise) {
          try {
            await organise.afterCheck(provider, mailboxId, newMail);
          } catch (error) {
            if (error instanceof MailAuthError) throw error;
            // The mail is counted; rules and the Screener try again at the next check.
            log?.warn(
              { mailboxId, err: error instanceof Error ? error.message : String(error) },
              'organising failed',
            );
          }
        }
        // Read rates from the flags this run brought, and the 90-day window moved on to now.
        await repo.refreshSenderStats(mailboxId, now());
        await repo.markScanComplete(mailboxId, now(), hold);
        try {
          await afterCheck?.(userId, mailboxId);
        } catch (error) {
          log?.warn(
            { mailboxId, err: error instanceof Error ? error.message : String(error) },
            'verification failed',
          );
        }
      } catch (error) {
        // Connected again through another provider (or removed) while this ran: the mailbox is the new
        // grant's, whose own scan is queued behind this one. Nothing of this run was kept; no error.
        if (error instanceof ScanSupersededError) {
          log?.warn({ mailboxId }, 'scan superseded: the mailbox was connected again');
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        const status = error instanceof MailAuthError ? 'reauth' : 'error';
        // What the user reads on the mailbox (Email Accounts, the list's banner): the mail errors' own
        // words (they name the server and what it did); anything else is our fault, told without internals.
        await mailboxes.setStatus(mailboxId, status, isMailError(error) ? message : UNEXPECTED_STOP);
        log?.warn({ mailboxId, status, err: message }, 'scan stopped');
        // A refused password will not get better by retrying; the user has to act.
        if (!(error instanceof MailAuthError)) throw error;
      } finally {
        live.emitToUser(userId, 'all-subscriptions-sent');
        await provider.close();
      }
    },

    /** Mailboxes whose last check is older than the interval (or that never finished a scan). */
    async dueMailboxes(intervalMs: number): Promise<string[]> {
      return repo.dueMailboxes(now() - intervalMs);
    },

    /**
     * Mailboxes left mid-scan or mid-check (status 'scanning') by a process that stopped without
     * finishing, whenever they were last checked: a check killed the day after the first scan would
     * otherwise wait a whole SCAN_INTERVAL, the mailbox showing "scanning" all along. Enqueuing one that
     * a live instance is scanning right now is harmless: jobs are keyed by mailbox (one runs at a time,
     * in process and in pg-boss's stately queue), so it only gets one more check after the running one,
     * and nothing of the row is touched here.
     */
    async interruptedMailboxes(): Promise<string[]> {
      return repo.scanningMailboxes();
    },
  };
}

export type ScansService = ReturnType<typeof createScansService>;
