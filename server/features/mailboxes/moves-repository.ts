import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { MovedMessage } from '#server/mail/provider.js';

// The product's references to messages it moved (features/mailboxes): they follow the mail to its new id
// and folder, and out of (or back into) the senders' counts when it went to the trash or came back.

/**
 * The product's references of moved messages re-pointed to their new ids, and the new ids counted as
 * scanned, so a check finding a message in its new folder does not count it twice. Only IMAP ids change
 * with the folder (`<folder>/<uidvalidity>/<uid>`, which names the new folder); others keep their id.
 * `into`: where they went. 'trash' takes them out of their senders' counts and lists (`gone`); 'back' (an
 * undo) puts those the product had taken out back in. Counts follow at once, not at the next scan
 * (docs/decisions/101-activity-history-and-counts-that-follow.md).
 */
export async function followMoves(
  trx: Db,
  mailboxId: string,
  moved: readonly MovedMessage[],
  into: 'folder' | 'trash' | 'back' = 'folder',
): Promise<void> {
  const changes = new Map<string, number>();
  for (let i = 0; i < moved.length; i += 200) {
    const chunk = moved.slice(i, i + 200);
    if (into !== 'folder') await markGone(trx, mailboxId, chunk, into === 'trash', changes);
    const renamed = chunk.filter((m) => m.id !== m.previous);
    for (const m of renamed) {
      const folder = /^(.+)\/\d+\/\d+$/.exec(m.id)?.[1];
      await trx
        .updateTable('messages')
        .set({ provider_id: m.id, ...(folder ? { folder } : {}) })
        .where('mailbox_id', '=', mailboxId)
        .where('provider_id', '=', m.previous)
        .execute();
    }
    if (renamed.length === 0) continue;
    await trx
      .insertInto('scanned_messages')
      .values(renamed.map((m) => ({ mailbox_id: mailboxId, provider_id: m.id })))
      .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing())
      .execute();
  }
  // Only what is in the mailbox follows: how often the sender writes (recent_count) and how much of it
  // the user read count the mail that arrived, wherever the product put it since.
  if (changes.size > 0) await changeMessageCounts(trx, changes, into === 'trash' ? -1 : 1);
}

/** Marks the references of `moved` (by their previous ids) gone or back, adding each sender's number to `changes`. */
async function markGone(
  trx: Db,
  mailboxId: string,
  moved: readonly MovedMessage[],
  gone: boolean,
  changes: Map<string, number>,
): Promise<void> {
  const rows = await trx
    .selectFrom('messages')
    .select(['sender_id', 'provider_id'])
    .where('mailbox_id', '=', mailboxId)
    .where('gone', '=', gone ? 0 : 1)
    .where(
      'provider_id',
      'in',
      moved.map((m) => m.previous),
    )
    .execute();
  if (rows.length === 0) return;
  for (const r of rows) changes.set(r.sender_id, (changes.get(r.sender_id) ?? 0) + 1);
  await trx
    .updateTable('messages')
    .set({ gone: gone ? 1 : 0 })
    .where('mailbox_id', '=', mailboxId)
    .where(
      'provider_id',
      'in',
      rows.map((r) => r.provider_id),
    )
    .execute();
}

/**
 * Adds `sign` × n messages to each sender's count. The list-evidence count follows where every message of
 * the sender had list evidence (the common case, and the one that decides whether a block needs a yes);
 * otherwise it is only kept at most the total, as which of the moved messages had evidence is not stored.
 */
async function changeMessageCounts(
  trx: Db,
  changes: ReadonlyMap<string, number>,
  sign: 1 | -1,
): Promise<void> {
  for (const [senderId, n] of changes) {
    const total = sql<number>`case when message_count + ${sign * n} < 0 then 0 else message_count + ${sign * n} end`;
    await trx
      .updateTable('senders')
      .set({
        message_count: total,
        list_message_count: sql<number>`case when list_message_count >= message_count or list_message_count > (${total}) then ${total} else list_message_count end`,
      })
      .where('id', '=', senderId)
      .execute();
  }
}
