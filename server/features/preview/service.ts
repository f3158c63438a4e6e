import { type ParsedMail, simpleParser } from 'mailparser';
import type { SubscriptionMessage } from '#contract/api.js';
import { NotFoundError, ReauthRequiredError } from '#server/lib/errors.js';
import type { MailPool } from '#server/mail/pool.js';
import { MailAuthError } from '#server/mail/provider.js';
import { reauthUrl } from '../mailboxes/service.js';
import type { Repositories } from '../repositories.js';
import { presentMessage } from '../subscriptions/service.js';
import type { PreviewSource } from './repository.js';
import { previewDocument } from './sanitize.js';

// The preview of one message of a subscription: fetched from the mailbox when asked, parsed,
// sanitized and answered; the body is never stored.

export const PREVIEW_NOT_FOUND = 'Preview not found, please check your email for the message';

export interface PreviewDeps {
  repos: Pick<Repositories, 'preview' | 'mailboxes' | 'subscriptions'>;
  /** The mailboxes' pooled connections, at most PREVIEWS_PER_MAILBOX each (services.ts builds it). */
  mail: MailPool;
}

export interface PreviewRequest {
  subscriptionId: string;
  messageId: string;
  loadImages?: boolean;
}

/**
 * Previews of one mailbox fetched at once, each on a connection of the mailbox's pool; more wait their turn
 * (docs/decisions/020-message-previews.md, 089-pooled-mail-connections.md).
 */
export const PREVIEWS_PER_MAILBOX = 3;

export function createPreviewService({ repos, mail }: PreviewDeps) {
  const { preview: repo, mailboxes, subscriptions } = repos;

  /** The mailbox is marked for signing in again, and the preview refused until the user does. */
  async function reauthRequired(mailbox: PreviewSource['mailbox']): Promise<never> {
    await mailboxes.markReauth(mailbox.id);
    throw new ReauthRequiredError(`Please sign in to ${mailbox.email} again.`, {
      redirectUrl: reauthUrl(mailbox),
    });
  }

  return {
    /** The sanitized HTML document of a message of the user's subscription; 404 when it is gone or not theirs. */
    async preview(userId: string, req: PreviewRequest): Promise<string> {
      const found = await repo.messageWithMailbox(userId, req.subscriptionId, req.messageId);
      if (!found) throw new NotFoundError(PREVIEW_NOT_FOUND);
      const { mailbox } = found;
      if (mailbox.status === 'reauth') await reauthRequired(mailbox);

      let source: Buffer | null;
      try {
        // A read: a kept connection found dead is replaced and the fetch tried again on the new one.
        source = await mail.use(mailbox, (provider) => provider.fetchMessage(found.providerId), {
          idempotent: true,
        });
      } catch (error) {
        if (error instanceof MailAuthError) return reauthRequired(mailbox);
        throw error;
      }
      if (!source) throw new NotFoundError(PREVIEW_NOT_FOUND);

      let parsed: ParsedMail;
      try {
        parsed = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
      } catch {
        // The parser gives up on pathological structure (over 1,000 parts, a header block over 1 MB):
        // the message cannot be shown here, which the user is told as for a message that is gone.
        throw new NotFoundError(PREVIEW_NOT_FOUND);
      }
      return previewDocument(
        { html: typeof parsed.html === 'string' ? parsed.html : null, text: parsed.text ?? '' },
        { loadImages: req.loadImages === true },
      );
    },

    /** The messages of the user's subscription(s) with that sender address, newest first. */
    async messagesBySender(userId: string, senderAddress: string): Promise<SubscriptionMessage[]> {
      const address = senderAddress.trim().toLowerCase();
      const senderIds = await repo.subscriptionIdsByAddress(userId, address);
      if (senderIds.length === 0) throw new NotFoundError('Subscription not found.');
      return (await subscriptions.messagesOf(senderIds)).map(presentMessage);
    },
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
