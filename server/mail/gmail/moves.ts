import type { Destination } from '../provider.js';
import { BATCH_MODIFY_LIMIT } from './api.js';
import type { GmailClient } from './client.js';

// A move on Gmail's labels and its undo: what a destination adds and takes off (`moveFor`), and putting a
// message back where its origin says it was. A move's origin is the labels it took off, comma-separated
// (`INBOX`, `INBOX,Label_5`, `Label_5`, '' for none); a message keeps its id wherever it goes.

/** Labels an origin may name (Gmail allows 10,000 labels; a message carries far fewer). */
const MAX_ORIGIN_LABELS = 500;

// Gmail's own labels, which a message keeps in the trash; any other label is one of the user's folders.
const GMAIL_OWN = new Set([
  'INBOX',
  'SPAM',
  'TRASH',
  'UNREAD',
  'STARRED',
  'IMPORTANT',
  'SENT',
  'DRAFT',
  'CHAT',
]);

export function isUserLabel(id: string): boolean {
  return id !== '' && !GMAIL_OWN.has(id) && !id.startsWith('CATEGORY_');
}

/**
 * `messages.batchModify` of `ids`, BATCH_MODIFY_LIMIT a call; `onChunk` is told of each chunk once it has
 * moved. Answers the number of calls.
 */
export async function modifyInChunks(
  client: GmailClient,
  ids: readonly string[],
  add: readonly string[],
  remove: readonly string[],
  onChunk?: (chunk: string[]) => Promise<void>,
): Promise<number> {
  if (add.length === 0 && remove.length === 0) return 0;
  let calls = 0;
  for (let i = 0; i < ids.length; i += BATCH_MODIFY_LIMIT) {
    const chunk = ids.slice(i, i + BATCH_MODIFY_LIMIT);
    await client.batchModify(chunk, [...add], [...remove]);
    calls += 1;
    await onChunk?.(chunk);
  }
  return calls;
}

/** The labels an origin names (a move's record: the labels it took off), at most a few hundred. */
function originLabels(origin: string): string[] {
  return [...new Set(origin.split(',', MAX_ORIGIN_LABELS).map((l) => l.trim()))].filter(Boolean);
}

/** An origin as recorded: INBOX first, then the user's labels in order. */
export function originOf(labels: Iterable<string>): string {
  const set = new Set(labels);
  const rest = [...set].filter((l) => l !== 'INBOX').sort();
  return [...(set.has('INBOX') ? ['INBOX'] : []), ...rest].join(',');
}

/**
 * Undoes a move: takes the destination's labels (`remove`) off each message, and puts back on what its
 * origin names: INBOX, and those of the user's labels that still exist (records of earlier versions hold
 * only `INBOX` or ''). One batchModify per distinct origin (and 1,000 ids); a labels.list only when an
 * origin names a label of the user's.
 */
export async function putBack(
  client: GmailClient,
  messages: readonly { id: string; origin: string }[],
  remove: readonly string[],
): Promise<void> {
  const wanted = messages.map((m) => ({ id: m.id, labels: originLabels(m.origin) }));
  const named = wanted.some((m) => m.labels.some(isUserLabel));
  const existing = named ? new Set((await client.listLabels()).map((l) => l.id)) : new Set<string>();
  const undo = new Set(remove);
  const groups = new Map<string, { add: string[]; ids: string[] }>();
  for (const m of wanted) {
    // Never the trash or spam, nor a label the user has deleted since, nor one this undo takes off.
    const add = m.labels.filter(
      (l) => !undo.has(l) && (l === 'INBOX' || (isUserLabel(l) && existing.has(l))),
    );
    const key = originOf(add);
    const group = groups.get(key) ?? { add: key ? key.split(',') : [], ids: [] };
    group.ids.push(m.id);
    groups.set(key, group);
  }
  for (const { add, ids } of groups.values()) await modifyInChunks(client, ids, add, remove);
}

export interface Move {
  add: string[];
  remove: string[];
  /** Of a message's labels, those the move takes off (its origin). */
  takes(labels: readonly string[]): string[];
  /** The labels a message has at the destination, by which restoreMoved knows it is still there. */
  at(labels: readonly string[]): boolean;
  /** What restoreMoved takes off. */
  undo: string[];
  /** The label the destination is (trash: TRASH), which restoreMoved may list instead of getting each message. */
  label: string | null;
}

const inboxOnly = (labels: readonly string[]) => labels.filter((l) => l === 'INBOX');

export function moveFor(destination: Destination): Move {
  const rejected = (labels: readonly string[]) => labels.includes('TRASH') || labels.includes('SPAM');
  switch (destination.kind) {
    case 'trash':
      return {
        add: ['TRASH'],
        remove: ['INBOX'],
        // As on IMAP and Outlook, trashed mail leaves its folders: the user's labels come off with INBOX.
        takes: (labels) => labels.filter((l) => l === 'INBOX' || isUserLabel(l)),
        at: (labels) => labels.includes('TRASH'),
        undo: ['TRASH'],
        label: 'TRASH',
      };
    case 'archive':
      return {
        add: [],
        remove: ['INBOX'],
        takes: inboxOnly,
        // Archived and not since trashed or reported: a message the user put away elsewhere stays there.
        at: (labels) => !labels.includes('INBOX') && !rejected(labels),
        undo: [],
        label: null,
      };
    case 'folder': {
      const label = destination.path;
      // The inbox is where the mail comes from, not a destination; the trash has its own kind.
      if (!label || label === 'INBOX' || label === 'TRASH' || label === 'SPAM') {
        throw new Error(`Not a Gmail label to file mail in: ${JSON.stringify(label)}`);
      }
      return {
        add: [label],
        remove: ['INBOX'],
        takes: inboxOnly,
        at: (labels) => labels.includes(label) && !rejected(labels),
        undo: [label],
        label,
      };
    }
    default:
      throw new Error('Unknown destination');
  }
}
