import { type ActivityEntry, SCREENER_FOLDER } from '#contract/api.js';

// The Activity screen's words for an entry: what was done, to whom, and what it did to the mail.

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The sender as the user knows it: its name, else its address. */
export function senderOfEntry(entry: Pick<ActivityEntry, 'senderName' | 'address'>): string {
  return entry.senderName?.trim() || entry.address || 'a sender';
}

const BULK_VERB = { block: 'Blocked', unsubscribe: 'Unsubscribed from', keep: 'Kept' } as const;

/** "Blocked Medium Daily", "A check filed mail of Shop by its rule", "Blocked 3 senders at once". */
export function activityTitle(entry: ActivityEntry): string {
  const sender = senderOfEntry(entry);
  switch (entry.kind) {
    case 'block':
      return entry.by === 'check'
        ? `Blocked ${sender} (it kept sending after you unsubscribed)`
        : `Blocked ${sender}`;
    case 'unsubscribe':
      return `Unsubscribed from ${sender}`;
    case 'rule':
      return entry.by === 'check' ? `The rule for ${sender} ran at a check` : `Saved a rule for ${sender}`;
    case 'screener':
      return `Held new mail from ${sender} for your decision`;
    case 'bulk': {
      const bulk = entry.bulk;
      return bulk ? `${BULK_VERB[bulk.action]} ${plural(bulk.senders, 'sender')} at once` : 'A bulk action';
    }
  }
}

/** What it did to the mail: "12 messages moved to Trash", "2 messages moved to the Screener folder". */
export function activityMoved(entry: ActivityEntry): string {
  const n = entry.moved;
  if (n === 0) {
    return entry.kind === 'block' ? 'No mail moved; new mail goes to Trash.' : 'No mail moved.';
  }
  switch (entry.kind) {
    case 'block':
    case 'unsubscribe':
      return `${plural(n, 'message')} moved to Trash.`;
    case 'screener':
      return `${plural(n, 'message')} moved to the ${SCREENER_FOLDER} folder.`;
    default:
      return `${plural(n, 'message')} moved.`;
  }
}

/** After Undo: "Put 12 messages back." */
export function undoneText(entry: ActivityEntry, restored: number): string {
  const what = activityTitle(entry).replace(/^./, (c) => c.toLowerCase());
  if (restored === 0) return `Undone: ${what}.`;
  return `Undone: ${what}. ${plural(restored, 'message')} put back.`;
}
