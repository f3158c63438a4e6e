import type { UnsubscribeMethod, UnsubscribeResult } from '#contract/api.js';
import { unsubscribeAnswer } from '../answers.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';

/**
 * The answer for a sender already unsubscribed: what its last successful attempt did, so a second click
 * (or a retry after a crash) contacts no one again. Null when the sender is not unsubscribed.
 */
export async function answerFromReceipts(
  ctx: Pick<UnsubscribeContext, 'repo'>,
  sender: Sender,
): Promise<UnsubscribeResult | null> {
  if (sender.category !== 'unsubscribed') return null;
  const last = await ctx.repo.lastSuccess(sender.id);
  const method: UnsubscribeMethod = last && last !== 'unblock' ? last : 'manual';
  return method === 'block'
    ? unsubscribeAnswer(sender, method, { blockedAndTrashed: true })
    : unsubscribeAnswer(sender, method, { oneClickUnsubscribeSuccess: true });
}
