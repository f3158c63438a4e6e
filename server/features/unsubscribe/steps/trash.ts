import type { UnsubscribeResult } from '#contract/api.js';
import { MailAuthError, type MailProvider } from '#server/mail/provider.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';

/**
 * Moves the sender's existing mail to the trash (the block, and an unsubscribe asked to), recording where
 * each message went so that undoing a block can move it back. Answers how many moved.
 */
export async function moveSenderMailToTrash(
  ctx: Pick<UnsubscribeContext, 'mailboxes' | 'now'>,
  sender: Sender,
  provider: MailProvider,
): Promise<number> {
  const moved = await provider.moveToTrash({ from: sender.address }, (items) =>
    ctx.mailboxes.recordTrashed(sender.mailbox.id, sender.address, items, ctx.now()),
  );
  return moved.moved;
}

/**
 * moveToTrash on an unsubscribe: once the sender was told (one-click or mailto, now or before), its
 * existing mail goes to the trash through the block's own move. The unsubscribe stands whatever the
 * move does: a failure is logged and the answer carries no count.
 */
export async function trashAfterUnsubscribe(
  ctx: UnsubscribeContext,
  sender: Sender,
  answer: UnsubscribeResult,
): Promise<UnsubscribeResult> {
  if (answer.authUrl || !answer.oneClickUnsubscribeSuccess) return answer;
  if (answer.method !== 'one-click' && answer.method !== 'mailto') return answer;
  const provider = ctx.providers(sender.mailbox);
  try {
    return { ...answer, movedToTrash: await moveSenderMailToTrash(ctx, sender, provider) };
  } catch (error) {
    if (error instanceof MailAuthError) await ctx.mailboxes.markReauth(sender.mailbox.id);
    ctx.log?.warn({ senderId: sender.id, err: (error as Error).message }, 'mail not moved to the trash');
    return answer;
  } finally {
    await provider.close();
  }
}
