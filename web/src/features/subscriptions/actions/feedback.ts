// The words of the subscription screen's feedback: what an action did (the toasts), and what a slow one
// is doing (the row's progress). Pure, so that each wording is tested without a browser.
import type { Subscription, UnsubscribeResult } from '#contract/api.js';
import { senderDomain, senderName } from '../list/list-model';

/** After this long without an answer, a row says in words what it is waiting for. */
export const SLOW_AFTER_MS = 1500;

function messages(count: number): string {
  return `${count} ${count === 1 ? 'message' : 'messages'}`;
}

/** " and moved 42 messages to Trash" (nothing when none or unknown). */
function trashed(count: number | undefined): string {
  return typeof count === 'number' && count > 0 ? ` and moved ${messages(count)} to Trash` : '';
}

/** What an unsubscribe that left the list did; null when the flow goes on (a page to open, sign in). */
export function unsubscribedText(item: Subscription, result: UnsubscribeResult): string | null {
  const name = senderName(item);
  if (result.blockedAndTrashed) {
    // No usable link: the sender was blocked instead (its mail already there moves only when asked).
    if (result.movedToTrash === 0) return `Blocked ${name}; no mail was moved to Trash`;
    return `Blocked ${name}${trashed(result.movedToTrash) || ' and moved its mail to Trash'}`;
  }
  if (!result.oneClickUnsubscribeSuccess) return null;
  if (result.method === 'mailto')
    return `Sent an unsubscribe email to ${name}${trashed(result.movedToTrash)}`;
  return `Unsubscribed from ${name} by one-click${trashed(result.movedToTrash)}`;
}

/**
 * A Keep's note; `updated` is the server's answer (blockLifted when the sender had been blocked,
 * restoredFromScreener when its mail had waited in the Screener).
 */
export function keptText(item: Subscription, updated?: Subscription): string {
  const name = senderName(item);
  if (updated?.blockLifted) return `Kept ${name} and lifted its block`;
  const back = updated?.restoredFromScreener ?? 0;
  return back > 0 ? `Kept ${name} and moved ${messages(back)} back to the inbox` : `Kept ${name}`;
}

/** After "Put its mail back" (a Keep that lifted a block): how much came back from the trash. */
export function putBackText(item: Subscription, restored: number): string {
  const name = senderName(item);
  return restored > 0
    ? `Moved ${messages(restored)} of ${name} back from Trash`
    : `No mail of ${name} was left in Trash`;
}

export function blockedText(item: Subscription, updated?: Subscription): string {
  return `Blocked ${senderName(item)}${trashed(updated?.movedToTrash)}`;
}

export function reviewedText(item: Subscription): string {
  return `Moved ${senderName(item)} back to review`;
}

export function unblockedText(item: Subscription, updated?: Subscription): string {
  const back = updated?.restoredFromTrash ?? 0;
  return `Unblocked ${senderName(item)}${back > 0 ? `, moved ${messages(back)} back` : ''}`;
}

export function manualText(item: Subscription): string {
  return `Marked ${senderName(item)} as unsubscribed`;
}

export type SlowAction = 'unsubscribe' | 'keep' | 'block' | 'manual';

/** What a row waiting long for its answer says it is doing. */
export function slowText(action: SlowAction, item: Subscription): string {
  const host = senderDomain(item.address) || senderName(item);
  switch (action) {
    case 'unsubscribe':
      return `Contacting ${host}… this can take up to 30 seconds`;
    case 'block':
      return 'Moving its mail to Trash in your mailbox… this can take a while';
    case 'keep':
      return 'Saving… your mailbox is slow to answer';
    case 'manual':
      return 'Saving…';
  }
}
