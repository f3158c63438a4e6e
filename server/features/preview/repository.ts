import type { Db } from '#server/db/index.js';
import type { Mailbox } from '../mailboxes/mailbox.js';
import { MAILBOX_CREDENTIALS, mailboxCredentials } from '../mailboxes/repository.js';

// SQL of the preview: the message asked for, with the mailbox it is fetched from, and the senders of a
// subscription by address. The message lists themselves are the subscriptions repository's.

/** A message of the user's subscription, and the mailbox it is fetched from. */
export interface PreviewSource {
  /** The message's id at the provider. */
  providerId: string;
  /** What the mail adapter is built from, and whether the mailbox may be used (`reauth`: not now). */
  mailbox: Pick<Mailbox, 'id' | 'provider' | 'email' | 'secret' | 'server' | 'status'>;
}

export function createPreviewRepository(db: Db) {
  return {
    /** The message's provider id and its mailbox's credentials, when it belongs to the user's subscription. */
    async messageWithMailbox(
      userId: string,
      subscriptionId: string,
      messageId: string,
    ): Promise<PreviewSource | undefined> {
      const row = await db
        .selectFrom('messages')
        .innerJoin('senders', 'senders.id', 'messages.sender_id')
        .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
        .select(['messages.provider_id', ...MAILBOX_CREDENTIALS])
        .where('senders.id', '=', subscriptionId)
        .where('senders.user_id', '=', userId)
        .where('mailboxes.user_id', '=', userId)
        .where('messages.provider_id', '=', messageId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        providerId: row.provider_id,
        mailbox: { ...mailboxCredentials(row), provider: row.provider, status: row.status },
      };
    },

    /** The ids of the user's subscriptions with this sender address (one per mailbox it wrote to). */
    async subscriptionIdsByAddress(userId: string, address: string): Promise<string[]> {
      const rows = await db
        .selectFrom('senders')
        .select('id')
        .where('user_id', '=', userId)
        .where('address', '=', address)
        .where('is_subscription', '=', 1)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type PreviewRepository = ReturnType<typeof createPreviewRepository>;
