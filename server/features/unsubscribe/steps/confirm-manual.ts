import type { Subscription } from '#contract/api.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';

/** The user's "Yes, unsubscribed" on the sender's page: a receipt, and the sender moves to unsubscribed. */
export async function recordManualUnsubscribe(
  ctx: UnsubscribeContext,
  { userId, sender }: { userId: string; sender: Sender },
): Promise<Subscription> {
  await ctx.repo.receipt(
    userId,
    sender.id,
    {
      method: 'manual',
      target: sender.unsubscribeHttp[0] ?? sender.address,
      ok: true,
      detail: 'confirmed by the user',
    },
    ctx.now(),
  );
  return ctx.subscriptions.setCategory(userId, sender.id, 'unsubscribed');
}
