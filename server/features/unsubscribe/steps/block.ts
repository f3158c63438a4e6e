import type { UnsubscribeResult } from '#contract/api.js';
import { ConflictError } from '#server/lib/errors.js';
import { MailAuthError } from '#server/mail/provider.js';
import { reauthAnswer, signInAgainAnswer, unlistedBlockMessage, unsubscribeAnswer } from '../answers.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';
import { moveSenderMailToTrash } from './trash.js';

export interface BlockInput {
  userId: string;
  sender: Sender;
  /** The user saw how many messages without list headers the block trashes, and agreed. */
  confirmBlock?: boolean;
  /** Also move the sender's existing mail to the trash (true unless the user said to leave it). */
  trash?: boolean;
}

/**
 * The last way out and the Block button: a rule sending future mail to trash (the provider's, or ours at
 * every check) and the existing mail moved there. Asks first (ConflictError with `confirmBlock`) when some
 * of the sender's mail carries no list headers, since that mail would be trashed too.
 */
export async function blockSender(
  ctx: UnsubscribeContext,
  { userId, sender, confirmBlock, trash = true }: BlockInput,
): Promise<UnsubscribeResult> {
  const total = sender.messageCount;
  const unlisted = Math.max(0, total - sender.listMessageCount);
  // Only moving existing mail needs the user's yes for mail without list headers; the filter takes new mail.
  if (trash && unlisted > 0 && !confirmBlock) {
    throw new ConflictError(unlistedBlockMessage(sender.address, unlisted, total), {
      confirmBlock: true,
      unlistedMessages: unlisted,
      messages: total,
    });
  }
  if (sender.mailbox.status === 'reauth') return signInAgainAnswer(sender, 'block');
  const provider = ctx.providers(sender.mailbox);
  try {
    const receipt = await ctx.repo.startReceipt(
      userId,
      sender.id,
      { method: 'block', target: sender.address },
      ctx.now(),
    );
    try {
      const rule = await provider.createBlockRule(sender.address);
      // Recorded before the move, so Keep can lift the rule even if moving the mail fails.
      await ctx.repo.addBlockRule(sender.mailbox.id, sender.address, rule?.ref ?? null, ctx.now());
      const moved = trash ? await moveSenderMailToTrash(ctx, sender, provider) : 0;
      await ctx.repo.settle(receipt, {
        ok: true,
        detail: `${trash ? `${moved} moved to trash` : 'existing mail left where it is'}; ${rule ? `provider rule ${rule.ref}` : 'rule applied at every check'}`,
      });
      await ctx.repo.markUnsubscribed(sender.id, ctx.now());
      return unsubscribeAnswer(sender, 'block', { blockedAndTrashed: true, movedToTrash: moved });
    } catch (error) {
      await ctx.repo.settle(receipt, { ok: false, detail: (error as Error).message });
      if (error instanceof MailAuthError) return reauthAnswer(ctx, sender, 'block');
      throw error;
    }
  } finally {
    await provider.close();
  }
}
