import type { Subscription } from '#contract/api.js';
import { ConflictError } from '#server/lib/errors.js';
import { MailAuthError, type MailProvider, type TrashedMessage } from '#server/mail/provider.js';
import { reauthRequired, UNDO_MESSAGES } from '../answers.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';

export interface LiftBlockInput {
  userId: string;
  sender: Sender;
}

/**
 * Work on the sender's mailbox that lifts a block (Keep, the undo of Block), under an 'unblock' receipt
 * settled with the work's detail or its error. A mailbox that needs signing in again is refused with
 * ReauthRequiredError (where to do it), before anything is tried or when the provider refuses.
 */
export async function withUnblockReceipt<T>(
  ctx: UnsubscribeContext,
  { userId, sender }: LiftBlockInput,
  work: (provider: MailProvider) => Promise<{ detail: string; value: T }>,
): Promise<T> {
  if (sender.mailbox.status === 'reauth') throw reauthRequired(sender);
  const provider = ctx.providers(sender.mailbox);
  const receipt = await ctx.repo.startReceipt(
    userId,
    sender.id,
    { method: 'unblock', target: sender.address },
    ctx.now(),
  );
  try {
    const { detail, value } = await work(provider);
    await ctx.repo.settle(receipt, { ok: true, detail });
    return value;
  } catch (error) {
    await ctx.repo.settle(receipt, { ok: false, detail: (error as Error).message });
    if (error instanceof MailAuthError) {
      await ctx.mailboxes.markReauth(sender.mailbox.id);
      throw reauthRequired(sender);
    }
    throw error;
  } finally {
    await provider.close();
  }
}

/**
 * Keep's part of lifting a block: the provider's rule deleted, or our own rule dropped, with a receipt
 * saying so. Answers whether there was a block to lift.
 */
export async function liftBlockForKeep(ctx: UnsubscribeContext, input: LiftBlockInput): Promise<boolean> {
  const { userId, sender } = input;
  const rule = await ctx.repo.blockRule(sender.mailbox.id, sender.address);
  if (!rule) return false;
  const ref = rule.providerRef;
  if (ref) {
    await withUnblockReceipt(ctx, input, async (provider) => {
      await provider.removeBlockRule(ref);
      return { detail: `block lifted: provider rule ${ref} removed`, value: undefined };
    });
  } else {
    await ctx.repo.receipt(
      userId,
      sender.id,
      {
        method: 'unblock',
        target: sender.address,
        ok: true,
        detail: 'block lifted: its mail is no longer moved to the trash at each check',
      },
      ctx.now(),
    );
  }
  await ctx.repo.removeBlockRule(sender.mailbox.id, sender.address);
  return true;
}

/**
 * The mail a block moved to the trash, back where it was (what the user deleted from the trash meanwhile is
 * skipped), and forgotten. `ruleSince`: a provider-side rule (Gmail filter, Outlook Inbox rule) has trashed
 * what arrived since then, which the provider brings back too; our own rule's moves (IMAP) are among
 * `messages`. Answers how many came back, and the receipt's words for it.
 */
async function bringBackTrashed(
  ctx: UnsubscribeContext,
  sender: Sender,
  provider: MailProvider,
  messages: TrashedMessage[],
  ruleSince?: number,
): Promise<{ restored: number; said: string }> {
  const back =
    messages.length > 0 || ruleSince !== undefined
      ? await provider.restoreFromTrash({
          from: sender.address,
          messages,
          ruleSince,
          // Mail back in its folder under a new id is not counted again by the next check.
          onRestored: (moved) => ctx.mailboxes.followMoved(sender.mailbox.id, moved),
        })
      : { restored: 0, missing: 0 };
  await ctx.repo.forgetTrashed(sender.mailbox.id, sender.address);
  const missing = back.missing > 0 ? `, ${back.missing} no longer there` : '';
  return { restored: back.restored, said: `${back.restored} moved back from the trash${missing}` };
}

/**
 * After a Keep lifted a block: the mail the block had moved to the trash goes back where it was. Answers
 * how many came back.
 */
export async function restoreTrashedAfterKeep(
  ctx: UnsubscribeContext,
  input: LiftBlockInput,
): Promise<number> {
  const { sender } = input;
  const messages = await ctx.repo.trashedOf(sender.mailbox.id, sender.address);
  if (messages.length === 0) return 0;
  return withUnblockReceipt(ctx, input, async (provider) => {
    const { restored, said } = await bringBackTrashed(ctx, sender, provider, messages);
    return { detail: `kept: ${said}`, value: restored };
  });
}

/**
 * A block lifted and undone: its rule removed and the mail it trashed moved back where it was, under an
 * 'unblock' receipt. Answers how many messages came back; null when the sender has no block.
 */
export async function liftAndRestoreBlock(
  ctx: UnsubscribeContext,
  input: LiftBlockInput,
): Promise<number | null> {
  const { sender } = input;
  const rule = await ctx.repo.blockRule(sender.mailbox.id, sender.address);
  if (!rule) return null;
  return withUnblockReceipt(ctx, input, async (provider) => {
    if (rule.providerRef) await provider.removeBlockRule(rule.providerRef);
    await ctx.repo.removeBlockRule(sender.mailbox.id, sender.address);
    const messages = await ctx.repo.trashedOf(sender.mailbox.id, sender.address);
    const ruleSince = rule.providerRef ? rule.createdAt : undefined;
    const { restored, said } = await bringBackTrashed(ctx, sender, provider, messages, ruleSince);
    return {
      detail: `block undone: ${rule.providerRef ? `provider rule ${rule.providerRef} removed` : 'own rule removed'}; ${said}`,
      value: restored,
    };
  });
}

/**
 * The undo of Block: the block lifted and its mail moved back (liftAndRestoreBlock), the sender back to the
 * review list.
 */
export async function undoBlock(ctx: UnsubscribeContext, input: LiftBlockInput): Promise<Subscription> {
  const { userId, sender } = input;
  const restored = await liftAndRestoreBlock(ctx, input);
  if (restored === null) {
    // Already undone (a second click after the first finished): the same answer, nothing moved.
    if (sender.category === 'uncategorized') {
      const item = await ctx.subscriptions.setCategory(userId, sender.id, 'uncategorized');
      return { ...item, restoredFromTrash: 0 };
    }
    throw new ConflictError(UNDO_MESSAGES.notBlocked);
  }
  const item = await ctx.subscriptions.setCategory(userId, sender.id, 'uncategorized');
  return { ...item, restoredFromTrash: restored };
}
