import type { Subscription, UnsubscribeMethod, UnsubscribeResult } from '#contract/api.js';
import { createDnsResolver, type DnsResolver } from '#server/lib/dns-resolver.js';
import { HttpError, notFound } from '#server/lib/errors.js';
import { MAX_URIS } from '#server/mail/headers/list-unsubscribe.js';
import { type MailtoRequest, parseMailto } from '#server/mail/headers/mailto.js';
import type { ProviderFactory } from '#server/mail/index.js';
import { MailAuthError, type MailProvider, MailSendUnavailableError } from '#server/mail/provider.js';
import { mailboxCredentials } from '../mailboxes/repository.js';
import { reauthUrl } from '../mailboxes/service.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionsService } from '../subscriptions/service.js';
import { verifyOneClickSignature } from './dkim.js';
import { createFlights } from './flights.js';
import { oneClickUnsubscribe } from './one-click.js';

// The unsubscribe engine (docs/decisions.md, the unsubscribe engine): RFC 8058 one-click → a mailto request sent from the user's own
// mailbox → the sender's page, opened by the user → a block (provider rule or our own, and the
// existing mail moved to trash). Safety rules (docs/decisions.md "mailto and block safety"):
// - a mailto goes to exactly one address with a short fixed request (mail/headers/mailto.ts);
// - nothing is trashed unless the user chose it: a mailto that cannot be sent answers 502 and offers
//   Block; a block that would trash mail without list headers asks first (409);
// - one run per sender across every instance (a flight row with a lease), and a receipt is written
//   before the sender is contacted, so a crash between request and answer never sends twice.

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
  /**
   * Takes one of the free trial's unsubscribes for a sender before anything is sent (402 when none is
   * left); `release` gives it back when the attempt did not unsubscribe. Absent: nothing is limited.
   */
  reserveUnsubscribe?: (userId: string, senderId: string) => Promise<{ release(): Promise<void> }>;
}

export const MESSAGES = {
  mailtoFailed:
    'The unsubscribe email could not be sent. Please try again, or block the sender to move its mail to the trash.',
  mailtoUnavailable:
    'Inbox Genie cannot send email from this mailbox, so the unsubscribe email was not sent. You can block the sender instead.',
  reauth: 'Please sign in to your mailbox again.',
} as const;

/** Why a block must be confirmed: mail from the sender that carries no list headers would be trashed too. */
export function unlistedBlockMessage(address: string, unlisted: number, total: number): string {
  const some = total === 1 ? 'The only message' : `${unlisted} of the ${total} messages`;
  return `${some} from ${address} ${unlisted === 1 ? 'carries' : 'carry'} no newsletter headers and may be personal mail. Blocking moves ${unlisted === 1 ? 'it' : 'them'} to the trash too, and future mail from this address goes to the trash.`;
}

/** A stored URI list; rows written before the parser's caps are cut to them here. */
const parseList = (json: string): string[] => (JSON.parse(json) as string[]).slice(0, MAX_URIS);

/** The grace period the big mailbox providers give a sender to honour an unsubscribe. */
export const STILL_SENDING_GRACE_MS = 2 * 24 * 60 * 60 * 1000;

/** Verification: mail dated more than the grace period after the unsubscribe means the sender ignored it. */
export function isStillSending(lastMessageAt: number | null, unsubscribedAt: number | null): boolean {
  return (
    lastMessageAt !== null &&
    unsubscribedAt !== null &&
    lastMessageAt > unsubscribedAt + STILL_SENDING_GRACE_MS
  );
}

export interface BlockOptions {
  /** The user saw how many messages without list headers the block trashes, and agreed. */
  confirmBlock?: boolean;
}

export interface UnsubscribeOptions extends BlockOptions {
  /** Once the sender is unsubscribed (one-click or mailto), also move its existing mail to the trash. */
  moveToTrash?: boolean;
}

export const UNDO_MESSAGES = {
  notKept: 'Only a kept sender goes back to the review list.',
  notBlocked: 'This sender is not blocked.',
} as const;

/** The sender's newest messages read for a DKIM signature that vouches for its one-click link. */
const DKIM_MESSAGES_TRIED = 3;

export function createUnsubscribeService(deps: UnsubscribeDeps) {
  const { repos, providers, subscriptions, allowedHosts, now = Date.now, log } = deps;
  const reserve = deps.reserveUnsubscribe ?? (async () => ({ release: async () => {} }));
  const { unsubscribe: repo, mailboxes, settings: settingsRepo } = repos;
  const dnsResolver = deps.dnsResolver ?? createDnsResolver(null);
  const { single, reconcileAbandoned } = createFlights({
    repo,
    now,
    log,
    leaseMs: deps.flightLeaseMs,
    pollMs: deps.flightPollMs,
    maxWaitMs: deps.flightMaxWaitMs,
  });

  async function load(userId: string, senderId: string) {
    const row = await repo.sender(userId, senderId);
    if (!row) throw notFound('Subscription not found.');
    return row;
  }
  type Row = Awaited<ReturnType<typeof load>>;

  const result = (
    row: Row,
    method: UnsubscribeMethod,
    extra: Partial<UnsubscribeResult> = {},
  ): UnsubscribeResult => ({
    subscriptionId: row.id,
    method,
    oneClickUnsubscribeSuccess: false,
    manualUnsubscribe: false,
    blockedAndTrashed: false,
    unsubscribeOptions: [],
    ...extra,
  });

  const manual = (row: Row, http: string[]) =>
    result(row, 'manual', { manualUnsubscribe: true, unsubscribeOptions: http });

  /** The answer for a sender already unsubscribed: what its last successful attempt did. */
  async function previous(row: Row): Promise<UnsubscribeResult | null> {
    if (row.category !== 'unsubscribed') return null;
    const last = await repo.lastSuccess(row.id);
    const method: UnsubscribeMethod = last && last !== 'unblock' ? last : 'manual';
    return method === 'block'
      ? result(row, method, { blockedAndTrashed: true })
      : result(row, method, { oneClickUnsubscribeSuccess: true });
  }

  /** Whether an answer moved the sender to unsubscribed (what uses one of the trial's unsubscribes). */
  const unsubscribed = (answer: UnsubscribeResult) =>
    !answer.authUrl && (answer.oneClickUnsubscribeSuccess || answer.blockedAndTrashed);

  /**
   * Runs `task`, which may move the sender to unsubscribed, holding one of the trial's unsubscribes: taken
   * before the task contacts anyone, given back when it fails or leaves the sender where it was. A sender
   * already unsubscribed needs none (the task only answers what was done).
   */
  async function counted<T>(
    userId: string,
    row: Row,
    task: () => Promise<T>,
    moved: (answer: T) => boolean,
  ): Promise<T> {
    if (row.category === 'unsubscribed') return task();
    const allowance = await reserve(userId, row.id);
    const giveBack = async () => {
      try {
        await allowance.release();
      } catch (error) {
        log?.warn({ senderId: row.id, err: (error as Error).message }, 'trial unsubscribe not given back');
      }
    };
    let answer: T;
    try {
      answer = await task();
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (!moved(answer)) await giveBack();
    return answer;
  }

  /**
   * Moves the sender's existing mail to the trash (the block, and an unsubscribe asked to), recording
   * where each message went so that undoing a block can move it back.
   */
  async function trash(row: Row, provider: MailProvider): Promise<number> {
    const moved = await provider.moveToTrash({ from: row.address }, (items) =>
      mailboxes.recordTrashed(row.mailbox_id, row.address, items, now()),
    );
    return moved.moved;
  }

  async function needsReauth(row: Row, method: UnsubscribeMethod): Promise<UnsubscribeResult> {
    await mailboxes.markReauth(row.mailbox_id);
    return result(row, method, { authUrl: reauthUrl(row) });
  }

  // ---- the steps ----------------------------------------------------------------------------------------

  /**
   * Whether one of the sender's newest messages, read from the mailbox now and not kept, vouches for the
   * one-click POST to `uri` with a DKIM signature over its List-Unsubscribe fields (RFC 8058 §3.1). When
   * none does, a receipt says why and the POST is not made: the next steps (mailto, the link for the user
   * to open) follow, as Gmail shows no one-click button for such mail.
   */
  async function vouched(userId: string, row: Row, uri: string): Promise<string | null> {
    let last = 'no message of the sender to check';
    const provider = providers(mailboxCredentials(row));
    try {
      for (const id of await repo.newestMessageIds(row.id, DKIM_MESSAGES_TRIED)) {
        const raw = await provider.fetchMessage(id);
        if (!raw) continue;
        const verdict = await verifyOneClickSignature(raw, row.address, uri, dnsResolver);
        const said = `DKIM ${verdict.result}${verdict.domain ? ` (d=${verdict.domain})` : ''}`;
        if (verdict.ok) return said;
        last = said;
      }
    } catch (error) {
      last = `the message could not be read: ${(error as Error).message}`;
    } finally {
      await provider.close();
    }
    await repo.receipt(
      userId,
      row.id,
      { method: 'one-click', target: uri, ok: false, detail: `not sent: ${last}` },
      now(),
    );
    return null;
  }

  /** Step 1, RFC 8058: only when the sender asked for it, an https URI exists and its DKIM vouches for it. */
  async function oneClick(userId: string, row: Row, uri: string): Promise<boolean> {
    const signed = await vouched(userId, row, uri);
    if (!signed) return false;
    const receipt = await repo.startReceipt(userId, row.id, { method: 'one-click', target: uri }, now());
    const r = await oneClickUnsubscribe(uri, { allowedHosts, timeoutMs: deps.oneClickTimeoutMs });
    await repo.settle(
      receipt,
      r.ok,
      `${r.ok ? `HTTP ${r.httpStatus}` : (r.error ?? `HTTP ${r.httpStatus}`)}; ${signed}`,
    );
    if (r.ok) await repo.markUnsubscribed(row.id, now());
    return r.ok;
  }

  /** Step 2: one request mailed from the user's own mailbox; `failed` carries the message for the user. */
  async function mailto(
    userId: string,
    row: Row,
    uri: string,
    request: MailtoRequest,
  ): Promise<{ done: UnsubscribeResult } | { failed: string }> {
    const provider = providers(mailboxCredentials(row));
    try {
      const receipt = await repo.startReceipt(
        userId,
        row.id,
        { method: 'mailto', target: uri, recipient: request.to },
        now(),
      );
      try {
        const sent = await provider.send({ to: request.to, subject: request.subject, text: request.body });
        await repo.settle(receipt, sent.accepted, sent.response);
        if (!sent.accepted) return { failed: MESSAGES.mailtoFailed };
        await repo.markUnsubscribed(row.id, now());
        return { done: result(row, 'mailto', { oneClickUnsubscribeSuccess: true }) };
      } catch (error) {
        await repo.settle(receipt, false, (error as Error).message);
        if (error instanceof MailAuthError) return { done: await needsReauth(row, 'mailto') };
        log?.warn({ senderId: row.id, err: (error as Error).message }, 'unsubscribe mail not sent');
        if (error instanceof MailSendUnavailableError) return { failed: MESSAGES.mailtoUnavailable };
        return { failed: MESSAGES.mailtoFailed };
      }
    } finally {
      await provider.close();
    }
  }

  /**
   * Step 4 and the Block button: a rule sending future mail to trash (the provider's, or ours at every
   * check) and the existing mail moved there. Asks first (409) when some of the sender's mail carries no
   * list headers, since that mail would be trashed too.
   */
  async function block(userId: string, row: Row, options: BlockOptions): Promise<UnsubscribeResult> {
    const total = Number(row.message_count);
    const unlisted = Math.max(0, total - Number(row.list_message_count));
    if (unlisted > 0 && !options.confirmBlock) {
      throw new HttpError(409, unlistedBlockMessage(row.address, unlisted, total), {
        confirmBlock: true,
        unlistedMessages: unlisted,
        messages: total,
      });
    }
    if (row.status === 'reauth') return result(row, 'block', { authUrl: reauthUrl(row) });
    const provider: MailProvider = providers(mailboxCredentials(row));
    try {
      const receipt = await repo.startReceipt(
        userId,
        row.id,
        { method: 'block', target: row.address },
        now(),
      );
      try {
        const rule = await provider.createBlockRule(row.address);
        // Recorded before the move, so Keep can lift the rule even if moving the mail fails.
        await repo.addBlockRule(row.mailbox_id, row.address, rule?.ref ?? null, now());
        const moved = await trash(row, provider);
        await repo.settle(
          receipt,
          true,
          `${moved} moved to trash; ${rule ? `provider rule ${rule.ref}` : 'rule applied at every check'}`,
        );
        await repo.markUnsubscribed(row.id, now());
        return result(row, 'block', { blockedAndTrashed: true, movedToTrash: moved });
      } catch (error) {
        await repo.settle(receipt, false, (error as Error).message);
        if (error instanceof MailAuthError) return needsReauth(row, 'block');
        throw error;
      }
    } finally {
      await provider.close();
    }
  }

  async function run(userId: string, row: Row, options: BlockOptions): Promise<UnsubscribeResult> {
    const done = await previous(row);
    if (done) return done;
    if (row.status === 'reauth') return result(row, 'mailto', { authUrl: reauthUrl(row) });
    const http = parseList(row.unsubscribe_http);

    const https = http.find((u) => /^https:/i.test(u));
    if (row.one_click === 1 && https && (await oneClick(userId, row, https))) {
      return result(row, 'one-click', { oneClickUnsubscribeSuccess: true });
    }

    // The first mailto that is safe to send (links stored by older versions are checked again here).
    for (const uri of parseList(row.unsubscribe_mailto)) {
      const parsed = parseMailto(uri);
      if (!parsed.ok) continue;
      const sent = await mailto(userId, row, uri, parsed.request);
      if ('done' in sent) return sent.done;
      // Not sent: the sender's pages are still a way out; with none, the user decides (never a silent block).
      if (http.length > 0) return manual(row, http);
      throw new HttpError(502, sent.failed, { offerBlock: true });
    }

    // Step 3: only web pages left; the user opens one, the server never requests them.
    if (http.length > 0) return manual(row, http);
    // Step 4: no usable link at all.
    return block(userId, row, options);
  }

  /** The block answer as the Block button's call returns it: the updated subscription. */
  async function blockAnswer(
    userId: string,
    senderId: string,
    answer: UnsubscribeResult,
  ): Promise<Subscription> {
    if (answer.authUrl) throw new HttpError(401, MESSAGES.reauth, { redirectUrl: answer.authUrl });
    const [item] = await subscriptions.byIds(userId, [senderId]);
    if (!item) throw notFound('Subscription not found.');
    return { ...item, movedToTrash: answer.movedToTrash ?? 0 };
  }

  /**
   * moveToTrash on an unsubscribe: once the sender was told (one-click or mailto, now or before), its
   * existing mail goes to the trash through the block's own move. The unsubscribe stands whatever the
   * move does: a failure is logged and the answer carries no count.
   */
  async function trashAfter(row: Row, answer: UnsubscribeResult): Promise<UnsubscribeResult> {
    if (answer.authUrl || !answer.oneClickUnsubscribeSuccess) return answer;
    if (answer.method !== 'one-click' && answer.method !== 'mailto') return answer;
    const provider = providers(mailboxCredentials(row));
    try {
      return { ...answer, movedToTrash: await trash(row, provider) };
    } catch (error) {
      if (error instanceof MailAuthError) await mailboxes.markReauth(row.mailbox_id);
      log?.warn({ senderId: row.id, err: (error as Error).message }, 'mail not moved to the trash');
      return answer;
    } finally {
      await provider.close();
    }
  }

  /** Undo of a block: the rule lifted, the mail the block trashed moved back, the sender back to review. */
  async function unblock(userId: string, row: Row): Promise<Subscription> {
    const rule = await repo.blockRule(row.mailbox_id, row.address);
    if (!rule) {
      // Already undone (a second click after the first finished): the same answer, nothing moved.
      if (row.category === 'uncategorized') {
        const item = await subscriptions.setCategory(userId, row.id, 'uncategorized');
        return { ...item, restoredFromTrash: 0 };
      }
      throw new HttpError(409, UNDO_MESSAGES.notBlocked);
    }
    const restored = await unblocking(userId, row, async (provider) => {
      if (rule.provider_ref) await provider.removeBlockRule(rule.provider_ref);
      await repo.removeBlockRule(row.mailbox_id, row.address);
      const messages = await repo.trashedOf(row.mailbox_id, row.address);
      // A provider-side rule (Gmail filter, Outlook Inbox rule) trashed what arrived since it was made:
      // the provider brings that back too. Our own rule's moves (IMAP) are among `messages`.
      const ruleSince = rule.provider_ref ? Number(rule.created_at) : undefined;
      const back =
        messages.length > 0 || ruleSince !== undefined
          ? await provider.restoreFromTrash({ from: row.address, messages, ruleSince })
          : { restored: 0, missing: 0 };
      await repo.forgetTrashed(row.mailbox_id, row.address);
      return {
        detail: `block undone: ${rule.provider_ref ? `provider rule ${rule.provider_ref} removed` : 'own rule removed'}; ${back.restored} moved back from the trash${back.missing > 0 ? `, ${back.missing} no longer there` : ''}`,
        value: back.restored,
      };
    });
    const item = await subscriptions.setCategory(userId, row.id, 'uncategorized');
    return { ...item, restoredFromTrash: restored };
  }

  /**
   * Work on the sender's mailbox that lifts a block (Keep, the undo of Block), under an 'unblock'
   * receipt settled with the work's detail or its error. A mailbox that needs signing in again answers
   * 401 with where to do it, before anything is tried or when the provider refuses.
   */
  async function unblocking<T>(
    userId: string,
    row: Row,
    work: (provider: MailProvider) => Promise<{ detail: string; value: T }>,
  ): Promise<T> {
    if (row.status === 'reauth') throw new HttpError(401, MESSAGES.reauth, { redirectUrl: reauthUrl(row) });
    const provider = providers(mailboxCredentials(row));
    const receipt = await repo.startReceipt(
      userId,
      row.id,
      { method: 'unblock', target: row.address },
      now(),
    );
    try {
      const { detail, value } = await work(provider);
      await repo.settle(receipt, true, detail);
      return value;
    } catch (error) {
      await repo.settle(receipt, false, (error as Error).message);
      if (error instanceof MailAuthError) {
        await mailboxes.markReauth(row.mailbox_id);
        throw new HttpError(401, MESSAGES.reauth, { redirectUrl: reauthUrl(row) });
      }
      throw error;
    } finally {
      await provider.close();
    }
  }

  /** The user's "Yes, unsubscribed": a receipt, and the sender moves to unsubscribed. */
  async function confirmed(userId: string, row: Row): Promise<Subscription> {
    await repo.receipt(
      userId,
      row.id,
      {
        method: 'manual',
        target: parseList(row.unsubscribe_http)[0] ?? row.address,
        ok: true,
        detail: 'confirmed by the user',
      },
      now(),
    );
    return subscriptions.setCategory(userId, row.id, 'unsubscribed');
  }

  return {
    /** POST /unsubscribe. */
    async unsubscribe(
      userId: string,
      senderId: string,
      options: UnsubscribeOptions = {},
    ): Promise<UnsubscribeResult> {
      // Not the caller's sender: refused before its flight is touched (the flight is the sender's, whoever asks).
      await load(userId, senderId);
      const op = options.confirmBlock
        ? options.moveToTrash
          ? 'unsubscribe-confirmed-trash'
          : 'unsubscribe-confirmed'
        : options.moveToTrash
          ? 'unsubscribe-trash'
          : 'unsubscribe';
      return single(op, userId, senderId, async () => {
        const row = await load(userId, senderId);
        const answer = await counted(userId, row, () => run(userId, row, options), unsubscribed);
        return options.moveToTrash ? trashAfter(row, answer) : answer;
      });
    },

    /** POST /block-subscription: blocks the sender and trashes its mail; answers the updated subscription. */
    async block(userId: string, senderId: string, options: BlockOptions = {}): Promise<Subscription> {
      await load(userId, senderId);
      const op = options.confirmBlock ? 'block-confirmed' : 'block';
      const answer = await single(op, userId, senderId, async () => {
        const row = await load(userId, senderId);
        const rule = await repo.blockRule(row.mailbox_id, row.address);
        // Already blocked (a double click, or a retry after success): nothing to do again.
        if (rule && row.category === 'unsubscribed') return result(row, 'block', { blockedAndTrashed: true });
        return counted(userId, row, () => block(userId, row, options), unsubscribed);
      });
      return blockAnswer(userId, senderId, answer);
    },

    /**
     * POST /keep-subscription: the sender moves to Kept, and a block on it is lifted (the provider's rule
     * deleted, or our own rule dropped), with a receipt saying so.
     */
    async keep(userId: string, senderId: string): Promise<Subscription> {
      await load(userId, senderId);
      return single('keep', userId, senderId, async () => {
        const row = await load(userId, senderId);
        const rule = await repo.blockRule(row.mailbox_id, row.address);
        if (rule?.provider_ref) {
          const ref = rule.provider_ref;
          await unblocking(userId, row, async (provider) => {
            await provider.removeBlockRule(ref);
            return { detail: `block lifted: provider rule ${ref} removed`, value: undefined };
          });
        } else if (rule) {
          await repo.receipt(
            userId,
            row.id,
            {
              method: 'unblock',
              target: row.address,
              ok: true,
              detail: 'block lifted: its mail is no longer moved to the trash at each check',
            },
            now(),
          );
        }
        if (rule) await repo.removeBlockRule(row.mailbox_id, row.address);
        const item = await subscriptions.setCategory(userId, senderId, 'kept');
        return rule ? { ...item, blockLifted: true } : item;
      });
    },

    /**
     * POST /review-subscription, the undo of Keep: a kept sender goes back to the review list. Idempotent
     * (a sender already there stays). A Keep that lifted a block is not undone by it: the block stays
     * lifted (undoing that Keep would trash the sender's mail again; the user can block it again).
     */
    async review(userId: string, senderId: string): Promise<Subscription> {
      await load(userId, senderId);
      return single('review', userId, senderId, async () => {
        const row = await load(userId, senderId);
        if (row.category === 'unsubscribed') throw new HttpError(409, UNDO_MESSAGES.notKept);
        return subscriptions.setCategory(userId, senderId, 'uncategorized');
      });
    },

    /**
     * POST /unblock-subscription, the undo of Block: the provider's rule (or ours) removed, the mail the
     * block moved to the trash moved back where it was (what the user deleted from the trash meanwhile is
     * skipped), the sender back to the review list, and an 'unblock' receipt.
     */
    async unblock(userId: string, senderId: string): Promise<Subscription> {
      await load(userId, senderId);
      return single('unblock', userId, senderId, async () => unblock(userId, await load(userId, senderId)));
    },

    /**
     * After a check of a mailbox: marks unsubscribed senders whose mail still arrived after the
     * grace period, and blocks them when the user asked for it (blocked senders are left alone, and
     * so are senders some of whose mail has no list headers: blocking those needs the user's yes).
     */
    async verify(userId: string, mailboxId: string): Promise<void> {
      await repo.flagStillSending(mailboxId, STILL_SENDING_GRACE_MS);
      const settings = await settingsRepo.find(userId);
      if (!settings?.autoBlockStillSending) return;
      const senders = await repo.stillSendingListOnly(mailboxId);
      for (const id of senders) {
        try {
          await single('block', userId, id, async () => block(userId, await load(userId, id), {}));
        } catch (error) {
          // One sender that cannot be blocked now (mail server down, new unlisted mail) spares the others.
          log?.warn({ senderId: id, err: (error as Error).message }, 'automatic block failed');
        }
      }
    },

    /** The user confirms they unsubscribed on the sender's page (POST /manual-unsubscribe). */
    async confirmManual(userId: string, senderId: string): Promise<Subscription> {
      const row = await load(userId, senderId);
      if (row.category === 'unsubscribed') return subscriptions.setCategory(userId, senderId, 'unsubscribed');
      return counted(
        userId,
        row,
        () => confirmed(userId, row),
        () => true,
      );
    },

    /** At start: settles the runs a stopped process left behind (flights.ts). */
    reconcileAbandoned,
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
