// Many senders at once (POST /bulk-action): what the screen says about a bulk action — its progress, the
// summary by outcome, the senders whose page the user still has to open — kept pure for the unit tests.
import type { BulkAction, BulkItemResult, BulkOutcome, SubscriptionCategory } from '#contract/api.js';
import { openableLinks } from '../actions/unsubscribe-flow';

/** From this many senders on, a bulk action asks before it starts. */
export const BULK_CONFIRM_FROM = 10;

/** The bulk actions a list offers: as its rows (no Keep on the kept list, no Unsubscribe on the unsubscribed). */
export function bulkActionsFor(category: SubscriptionCategory): BulkAction[] {
  if (category === 'kept') return ['unsubscribe', 'block'];
  if (category === 'unsubscribed') return ['keep', 'block'];
  return ['unsubscribe', 'keep', 'block'];
}

export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  unsubscribe: 'Unsubscribe',
  keep: 'Keep',
  block: 'Block',
};

const RUNNING: Record<BulkAction, string> = {
  unsubscribe: 'Unsubscribing',
  keep: 'Keeping',
  block: 'Blocking',
};

function senders(count: number): string {
  return `${count} ${count === 1 ? 'sender' : 'senders'}`;
}

/** "Unsubscribing… 12 of 40 senders". */
export function bulkProgressText(action: BulkAction, done: number, total: number): string {
  return `${RUNNING[action]}… ${Math.min(done, total)} of ${senders(total)}`;
}

/** The question before acting on many: "Unsubscribe from 40 senders?". */
export function bulkQuestion(action: BulkAction, count: number): string {
  if (action === 'unsubscribe') return `Unsubscribe from ${senders(count)}?`;
  if (action === 'keep') return `Keep ${senders(count)}?`;
  return `Block ${senders(count)}?`;
}

/** What a bulk Block does to mail, with the number of messages it moves now (the selected rows' counts). */
export function bulkBlockText(messageCount: number): string {
  const moved =
    messageCount === 1 ? 'the 1 message they sent is' : `the ${messageCount} messages they sent are`;
  return `Their future mail goes to Trash, and ${moved} moved there now.`;
}

/** A bulk Block undone: "Unblocked 3 senders and moved 52 messages back". */
export function bulkUnblockedText(senderCount: number, restored: number): string {
  const back = restored > 0 ? ` and moved ${restored} ${restored === 1 ? 'message' : 'messages'} back` : '';
  return `Unblocked ${senders(senderCount)}${back}`;
}

/** Each outcome's line of the summary, in the order shown. */
export const OUTCOME_LABELS: Record<BulkOutcome, (count: number) => string> = {
  'one-click': (n) => `${senders(n)} unsubscribed by one-click`,
  mailto: (n) => `${senders(n)} sent an unsubscribe email`,
  blocked: (n) => `${senders(n)} blocked`,
  kept: (n) => `${senders(n)} kept`,
  manual: (n) => `${senders(n)} ${n === 1 ? 'needs' : 'need'} you to open their page`,
  limit: (n) => `${senders(n)} not done: the free trial's unsubscribes are used up`,
  reauth: (n) => `${senders(n)} not done: a mailbox needs you to sign in again`,
  'not-found': (n) => `${senders(n)} not found`,
  failed: (n) => `${senders(n)} failed`,
};

const OUTCOME_ORDER = Object.keys(OUTCOME_LABELS) as BulkOutcome[];

/** How many senders ended in each outcome, in the summary's order, leaving out the empty ones. */
export function summarize(results: Iterable<BulkItemResult>): { outcome: BulkOutcome; count: number }[] {
  const counts = new Map<BulkOutcome, number>();
  for (const result of results) counts.set(result.outcome, (counts.get(result.outcome) ?? 0) + 1);
  return OUTCOME_ORDER.filter((outcome) => counts.has(outcome)).map((outcome) => ({
    outcome,
    count: counts.get(outcome) ?? 0,
  }));
}

/** The note when a bulk action ends: its summary in one sentence. */
export function bulkDoneText(results: Iterable<BulkItemResult>): string {
  const lines = summarize(results).map(({ outcome, count }) => OUTCOME_LABELS[outcome](count));
  return lines.length > 0 ? `Done: ${lines.join(', ')}.` : 'Done.';
}

/** A sender whose unsubscribe needs the user: the page to open (http(s) only), or null when none is usable. */
export function manualPage(result: BulkItemResult): string | null {
  if (result.outcome !== 'manual') return null;
  return openableLinks(result.result?.unsubscribeOptions)[0] ?? null;
}
