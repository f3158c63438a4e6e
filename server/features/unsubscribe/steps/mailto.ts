import type { UnsubscribeResult } from '#contract/api.js';
import type { MailtoRequest } from '#server/mail/headers/mailto.js';
import { MailAuthError, MailSendUnavailableError } from '#server/mail/provider.js';
import { MESSAGES, reauthAnswer, unsubscribeAnswer } from '../answers.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';

export interface MailtoInput {
  userId: string;
  sender: Sender;
  /** The mailto link as the sender gave it (kept on the receipt). */
  uri: string;
  /** What parseMailto made of it: one address, a short fixed request. */
  request: MailtoRequest;
}

/**
 * The second way out: one request mailed from the user's own mailbox. `done` is the answer (sent, or the
 * mailbox needs signing in again); `failed` carries the message for the user when it could not be sent.
 */
export async function sendMailtoRequest(
  ctx: UnsubscribeContext,
  { userId, sender, uri, request }: MailtoInput,
): Promise<{ done: UnsubscribeResult } | { failed: string }> {
  const provider = ctx.providers(sender.mailbox);
  try {
    const receipt = await ctx.repo.startReceipt(
      userId,
      sender.id,
      { method: 'mailto', target: uri, recipient: request.to },
      ctx.now(),
    );
    try {
      const sent = await provider.send({ to: request.to, subject: request.subject, text: request.body });
      await ctx.repo.settle(receipt, { ok: sent.accepted, detail: sent.response });
      if (!sent.accepted) return { failed: MESSAGES.mailtoFailed };
      await ctx.repo.markUnsubscribed(sender.id, ctx.now());
      return { done: unsubscribeAnswer(sender, 'mailto', { oneClickUnsubscribeSuccess: true }) };
    } catch (error) {
      await ctx.repo.settle(receipt, { ok: false, detail: (error as Error).message });
      if (error instanceof MailAuthError) return { done: await reauthAnswer(ctx, sender, 'mailto') };
      ctx.log?.warn({ senderId: sender.id, err: (error as Error).message }, 'unsubscribe mail not sent');
      if (error instanceof MailSendUnavailableError) return { failed: MESSAGES.mailtoUnavailable };
      return { failed: MESSAGES.mailtoFailed };
    }
  } finally {
    await provider.close();
  }
}
