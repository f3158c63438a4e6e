import type { MailboxProvider } from '#contract/providers.js';
import type { Db } from '#server/db/index.js';
import type { MailboxCredentials } from '#server/mail/index.js';
import { MAILBOX_CREDENTIALS, mailboxCredentials } from '../mailboxes/repository.js';

// SQL of the preview: the message asked for, with the mailbox it is fetched from, and the senders of a
// subscription by address. The message lists themselves are the subscriptions repository's.

/** A message of the user's subscription, and the mailbox it is fetched from. */
export interface PreviewSource {
  /** The message's id at the provider. */
  providerId: string;
  mailbox: {
    id: string;
    provider: MailboxProvider;
    email: string;
    /** The password or grant no longer works: nothing is fetched until the user signs in again. */
    needsReauth: boolean;
    credentials: MailboxCredentials;
  };
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
        mailbox: {
          id: row.mailbox_id,
          provider: row.provider,
          email: row.email,
          needsReauth: row.status === 'reauth',
          credentials: mailboxCredentials(row),
        },
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
