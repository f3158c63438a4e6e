import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Subscription, UnsubscribeMethod, UnsubscribeResult } from '../../../contract/api.js';
import type { Db } from '../../db/index.js';
import { HttpError, notFound } from '../../lib/errors.js';
import type { ProviderFactory } from '../../mail/index.js';
import { MailAuthError, type MailProvider } from '../../mail/provider.js';
import { reauthUrl } from '../mailboxes/service.js';
import { parseMailto } from '../scans/list-unsubscribe.js';
import type { SubscriptionsService } from '../subscriptions/service.js';
import { oneClickUnsubscribe } from './one-click.js';

// The unsubscribe engine (GUIDE §6): RFC 8058 one-click → a mailto request sent from the user's own
// mailbox → the sender's page, opened by the user → a block (provider rule or our own, and the
// existing mail moved to trash). Every attempt is stored as a receipt. A sender already handled is
// answered from its receipts, and concurrent calls for one sender share one run, so a double click
// or a retry never sends twice.

export interface UnsubscribeDeps {
  db: Db;
  providers: ProviderFactory;
  subscriptions: SubscriptionsService;
  allowedHosts: ReadonlySet<string>;
  oneClickTimeoutMs?: number;
  now?: () => number;
}

const parseList = (json: string): string[] => JSON.parse(json) as string[];

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

export function createUnsubscribeService(deps: UnsubscribeDeps) {
  const { db, providers, subscriptions, allowedHosts, now = Date.now } = deps;
  const running = new Map<string, Promise<UnsubscribeResult>>();

  async function load(userId: string, senderId: string) {
    const row = await db
      .selectFrom('senders')
      .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
      .select([
        'senders.id',
        'senders.address',
        'senders.category',
        'senders.one_click',
        'senders.unsubscribe_http',
        'senders.unsubscribe_mailto',
        'mailboxes.id as mailbox_id',
        'mailboxes.provider',
        'mailboxes.email',
        'mailboxes.secret',
        'mailboxes.imap_host',
        'mailboxes.imap_port',
        'mailboxes.imap_secure',
        'mailboxes.status',
      ])
      .where('senders.id', '=', senderId)
      .where('senders.user_id', '=', userId)
      .where('senders.is_subscription', '=', 1)
      .executeTakeFirst();
    if (!row) throw notFound('Subscription not found.');
    return row;
  }
  type Row = Awaited<ReturnType<typeof load>>;

  async function receipt(
    userId: string,
    senderId: string,
    r: { method: UnsubscribeMethod; target: string; ok: boolean; detail: string },
  ) {
    await db
      .insertInto('unsubscribe_receipts')
      .values({
        id: randomUUID(),
        user_id: userId,
        sender_id: senderId,
        method: r.method,
        target: r.target,
        ok: r.ok ? 1 : 0,
        detail: r.detail.slice(0, 1000),
        created_at: now(),
      })
      .execute();
  }

  async function markUnsubscribed(senderId: string): Promise<void> {
    await db
      .updateTable('senders')
      .set({ category: 'unsubscribed', updated_at: now(), unsubscribed_at: now(), still_sending: 0 })
      .where('id', '=', senderId)
      .execute();
  }

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

  /** The answer for a sender already unsubscribed: what its last successful attempt did. */
  async function previous(row: Row): Promise<UnsubscribeResult | null> {
    if (row.category !== 'unsubscribed') return null;
    const last = await db
      .selectFrom('unsubscribe_receipts')
      .select('method')
      .where('sender_id', '=', row.id)
      .where('ok', '=', 1)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    const method = (last?.method ?? 'manual') as UnsubscribeMethod;
    return method === 'block'
      ? result(row, method, { blockedAndTrashed: true })
      : result(row, method, { oneClickUnsubscribeSuccess: true });
  }

  async function needsReauth(row: Row): Promise<UnsubscribeResult> {
    await db.updateTable('mailboxes').set({ status: 'reauth' }).where('id', '=', row.mailbox_id).execute();
    return result(row, 'mailto', { authUrl: reauthUrl(row) });
  }

  /** Step 4: a rule sending future mail to trash (the provider's, or ours at every check), existing mail moved there. */
  async function blockWith(userId: string, row: Row, provider: MailProvider): Promise<UnsubscribeResult> {
    try {
      const rule = await provider.createBlockRule(row.address);
      const moved = await provider.moveToTrash({ from: row.address });
      await db
        .insertInto('block_rules')
        .values({
          mailbox_id: row.mailbox_id,
          address: row.address,
          provider_ref: rule?.ref ?? null,
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['mailbox_id', 'address']).doNothing())
        .execute();
      await receipt(userId, row.id, {
        method: 'block',
        target: row.address,
        ok: true,
        detail: `${moved.moved} moved to trash; ${rule ? `provider rule ${rule.ref}` : 'rule applied at every check'}`,
      });
      await markUnsubscribed(row.id);
      return result(row, 'block', { blockedAndTrashed: true });
    } catch (error) {
      if (error instanceof MailAuthError) return needsReauth(row);
      await receipt(userId, row.id, {
        method: 'block',
        target: row.address,
        ok: false,
        detail: (error as Error).message,
      });
      throw error;
    }
  }

  /** Block only (the Block button of a sender still sending, and the automatic block). */
  async function blockOnly(userId: string, row: Row): Promise<UnsubscribeResult> {
    if (row.status === 'reauth') return result(row, 'block', { authUrl: reauthUrl(row) });
    const provider = providers(row);
    try {
      return await blockWith(userId, row, provider);
    } finally {
      await provider.close();
    }
  }

  async function run(userId: string, row: Row): Promise<UnsubscribeResult> {
    const done = await previous(row);
    if (done) return done;
    if (row.status === 'reauth') return result(row, 'mailto', { authUrl: reauthUrl(row) });
    const http = parseList(row.unsubscribe_http);
    const mailto = parseList(row.unsubscribe_mailto);

    // 1. RFC 8058: only when the sender asked for it and an https URI exists.
    const https = http.find((u) => /^https:/i.test(u));
    if (row.one_click === 1 && https) {
      const r = await oneClickUnsubscribe(https, { allowedHosts, timeoutMs: deps.oneClickTimeoutMs });
      await receipt(userId, row.id, {
        method: 'one-click',
        target: https,
        ok: r.ok,
        detail: r.ok ? `HTTP ${r.httpStatus}` : (r.error ?? `HTTP ${r.httpStatus}`),
      });
      if (r.ok) {
        await markUnsubscribed(row.id);
        return result(row, 'one-click', { oneClickUnsubscribeSuccess: true });
      }
    }

    let provider: MailProvider | null = null;
    try {
      // 2. A request mailed from the user's own mailbox, as the URI asks.
      if (mailto[0]) {
        const target = parseMailto(mailto[0]);
        provider = providers(row);
        try {
          const sent = await provider.send({
            to: target.to,
            subject: target.subject,
            text: target.body || 'unsubscribe',
          });
          await receipt(userId, row.id, {
            method: 'mailto',
            target: mailto[0],
            ok: sent.accepted,
            detail: sent.response,
          });
          if (sent.accepted) {
            await markUnsubscribed(row.id);
            return result(row, 'mailto', { oneClickUnsubscribeSuccess: true });
          }
        } catch (error) {
          if (error instanceof MailAuthError) return needsReauth(row);
          await receipt(userId, row.id, {
            method: 'mailto',
            target: mailto[0],
            ok: false,
            detail: (error as Error).message,
          });
        }
      }

      // 3. Only web pages left: the user opens one; the server never requests them.
      if (http.length > 0)
        return result(row, 'manual', { manualUnsubscribe: true, unsubscribeOptions: http });

      // 4. No link at all: future mail to trash, existing mail moved there.
      provider ??= providers(row);
      return await blockWith(userId, row, provider);
    } finally {
      await provider?.close();
    }
  }

  const once = (userId: string, senderId: string, task: () => Promise<UnsubscribeResult>) => {
    const key = `${userId}:${senderId}`;
    const pending = running.get(key);
    if (pending) return pending;
    const started = task().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };

  return {
    /** POST /block-subscription: blocks the sender and trashes its mail; answers the updated subscription. */
    async block(userId: string, senderId: string): Promise<Subscription> {
      const answer = await once(userId, senderId, async () =>
        blockOnly(userId, await load(userId, senderId)),
      );
      if (answer.authUrl) {
        throw new HttpError(401, 'Please sign in to your mailbox again.', { redirectUrl: answer.authUrl });
      }
      const [item] = await subscriptions.byIds(userId, [senderId]);
      if (!item) throw notFound('Subscription not found.');
      return item;
    },

    /**
     * After a check of a mailbox: marks unsubscribed senders whose mail still arrived after the
     * grace period, and blocks them when the user asked for it (blocked senders are left alone).
     */
    async verify(userId: string, mailboxId: string): Promise<void> {
      await db
        .updateTable('senders')
        .set({ still_sending: 1 })
        .where('mailbox_id', '=', mailboxId)
        .where('category', '=', 'unsubscribed')
        .where('still_sending', '=', 0)
        .where('unsubscribed_at', 'is not', null)
        .where(sql<boolean>`last_message_at > unsubscribed_at + ${STILL_SENDING_GRACE_MS}`)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('block_rules')
                .select('block_rules.address')
                .whereRef('block_rules.mailbox_id', '=', 'senders.mailbox_id')
                .whereRef('block_rules.address', '=', 'senders.address'),
            ),
          ),
        )
        .execute();
      const user = await db
        .selectFrom('users')
        .select('auto_block_still_sending')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (user?.auto_block_still_sending !== 1) return;
      const senders = await db
        .selectFrom('senders')
        .select('id')
        .where('mailbox_id', '=', mailboxId)
        .where('category', '=', 'unsubscribed')
        .where('still_sending', '=', 1)
        .execute();
      for (const { id } of senders) {
        await once(userId, id, async () => blockOnly(userId, await load(userId, id)));
      }
    },

    async unsubscribe(userId: string, senderId: string): Promise<UnsubscribeResult> {
      return once(userId, senderId, async () => run(userId, await load(userId, senderId)));
    },

    /** The user confirms they unsubscribed on the sender's page (POST /manual-unsubscribe). */
    async confirmManual(userId: string, senderId: string): Promise<Subscription> {
      const row = await load(userId, senderId);
      if (row.category !== 'unsubscribed') {
        await receipt(userId, row.id, {
          method: 'manual',
          target: parseList(row.unsubscribe_http)[0] ?? row.address,
          ok: true,
          detail: 'confirmed by the user',
        });
      }
      return subscriptions.setCategory(userId, senderId, 'unsubscribed');
    },
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
