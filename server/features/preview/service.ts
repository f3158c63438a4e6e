import { type ParsedMail, simpleParser } from 'mailparser';
import type { SubscriptionMessage } from '../../../contract/api.js';
import type { Db } from '../../db/index.js';
import { HttpError } from '../../lib/errors.js';
import type { ProviderFactory } from '../../mail/index.js';
import { MailAuthError } from '../../mail/provider.js';
import { reauthUrl } from '../mailboxes/service.js';
import { previewDocument } from './sanitize.js';

// The preview of one message of a subscription (issue 4): fetched from the mailbox when asked, parsed,
// sanitized and answered; the body is never stored.

export const PREVIEW_NOT_FOUND = 'Preview not found, please check your email for the message';

export interface PreviewDeps {
  db: Db;
  providers: ProviderFactory;
}

export interface PreviewRequest {
  subscriptionId: string;
  messageId: string;
  loadImages?: boolean;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function createPreviewService({ db, providers }: PreviewDeps) {
  async function needsReauth(mailbox: { id: string; provider: string; email: string }): Promise<never> {
    await db.updateTable('mailboxes').set({ status: 'reauth' }).where('id', '=', mailbox.id).execute();
    throw new HttpError(401, `Please sign in to ${mailbox.email} again.`, {
      redirectUrl: reauthUrl(mailbox),
    });
  }

  return {
    /** The sanitized HTML document of a message of the user's subscription; 404 when it is gone or not theirs. */
    async preview(userId: string, req: PreviewRequest): Promise<string> {
      const row = await db
        .selectFrom('messages')
        .innerJoin('senders', 'senders.id', 'messages.sender_id')
        .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
        .select([
          'messages.provider_id',
          'mailboxes.id',
          'mailboxes.provider',
          'mailboxes.email',
          'mailboxes.secret',
          'mailboxes.imap_host',
          'mailboxes.imap_port',
          'mailboxes.imap_secure',
          'mailboxes.status',
        ])
        .where('senders.id', '=', req.subscriptionId)
        .where('senders.user_id', '=', userId)
        .where('mailboxes.user_id', '=', userId)
        .where('messages.provider_id', '=', req.messageId)
        .executeTakeFirst();
      if (!row) throw new HttpError(404, PREVIEW_NOT_FOUND);
      if (row.status === 'reauth') await needsReauth(row);

      const provider = providers(row);
      let source: Buffer | null;
      try {
        source = await provider.fetchMessage(row.provider_id);
      } catch (error) {
        if (error instanceof MailAuthError) return needsReauth(row);
        throw error;
      } finally {
        await provider.close().catch(() => undefined);
      }
      if (!source) throw new HttpError(404, PREVIEW_NOT_FOUND);

      let parsed: ParsedMail;
      try {
        parsed = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
      } catch {
        // The parser gives up on pathological structure (over 1,000 parts, a header block over 1 MB):
        // the message cannot be shown here, which the user is told as for a message that is gone.
        throw new HttpError(404, PREVIEW_NOT_FOUND);
      }
      return previewDocument(
        { html: typeof parsed.html === 'string' ? parsed.html : null, text: parsed.text ?? '' },
        { loadImages: req.loadImages === true },
      );
    },

    /** The messages of the user's subscription(s) with that sender address, newest first. */
    async messagesBySender(userId: string, senderAddress: string): Promise<SubscriptionMessage[]> {
      const address = senderAddress.trim().toLowerCase();
      const senders = await db
        .selectFrom('senders')
        .select('id')
        .where('user_id', '=', userId)
        .where('address', '=', address)
        .where('is_subscription', '=', 1)
        .execute();
      if (senders.length === 0) throw new HttpError(404, 'Subscription not found.');
      const rows = await db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where(
          'sender_id',
          'in',
          senders.map((s) => s.id),
        )
        .orderBy('date', 'desc')
        .limit(500)
        .execute();
      return rows.map((r) => ({ id: r.provider_id, subject: r.subject, date: iso(r.date) }));
    },
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
