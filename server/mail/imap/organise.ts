import type { FetchMessageObject, ImapFlow, SearchObject } from 'imapflow';
import type {
  Destination,
  FoundMessage,
  MovedMessage,
  RestoreResult,
  TrashedMessage,
  TrashResult,
} from '../provider.js';
import { senderAddress } from '../shared/sender-address.js';
import { destinationPath, listSelectable } from './folders.js';
import { addResult, moveFromFolder, pickPresent, uidSets } from './move.js';
import { listMailboxes, messageDate } from './scan.js';

// Sender rules and the Screener, IMAP side: find a sender's mail, move it to a folder, the archive or the
// trash, and put it back. The block (trash.ts) moves the same way. A move changes UIDs: the server's
// COPYUID answer (RFC 4315 UIDPLUS) maps each message to its new UID, which an undo and the product's
// references need. Without UIDPLUS there is no map: the moved copies are looked up in the destination by
// Message-ID among the UIDs at or above its UIDNEXT before the move (STATUS). A message without a
// Message-ID, or one the lookup cannot tell apart, is moved all the same and counted as `untracked`.

const DAY = 86_400_000;

/** `<folder>/<uidvalidity>/<uid>`; the folder may itself contain slashes. */
export function parseImapId(id: string): { folder: string; validity: string; uid: number } | null {
  const m = /^(.+)\/(\d+)\/(\d+)$/.exec(id);
  if (!m) return null;
  const uid = Number(m[3]);
  if (!Number.isSafeInteger(uid) || uid < 1) return null;
  return { folder: m[1]!, validity: m[2]!, uid };
}

/** SEARCH FROM is a substring match on the header: the envelope narrows it to this exact address. */
export function sentBy(msg: FetchMessageObject, address: string): boolean {
  return (msg.envelope?.from ?? []).some((a) => a.address?.toLowerCase() === address);
}

/**
 * A sender's messages in INBOX (`inbox`), every scanned folder (`mail`) or the one folder of that path
 * (`{folder}`, none when it is gone), dated before `before` when given, newest first. One SEARCH per folder (none for an empty one), and only the hits are fetched (UID,
 * envelope, INTERNALDATE): the daily check runs this for many senders on large mailboxes.
 */
export async function findSenderMessages(
  client: ImapFlow,
  query: { from: string; scope: 'inbox' | 'mail' | { folder: string }; before?: number },
): Promise<FoundMessage[]> {
  const address = senderAddress(query.from);
  const { before, scope } = query;
  if (before !== undefined && !Number.isFinite(before)) throw new Error('before must be epoch milliseconds');
  let paths: string[];
  if (scope === 'inbox') paths = ['INBOX'];
  else if (scope === 'mail') {
    paths = (await listMailboxes(client, false)).filter((f) => f.scanned).map((f) => f.path);
  } else if (typeof scope === 'object' && scope !== null && typeof scope.folder === 'string') {
    // Only a folder the server lists: a rule's folder deleted since has nothing in it to find.
    const wanted = scope.folder;
    paths = (await listMailboxes(client, false)).some((f) => f.path === wanted) ? [wanted] : [];
  } else throw new Error('Unknown scope');
  const criteria: SearchObject = { from: address };
  if (before !== undefined) {
    // SENTBEFORE and BEFORE compare calendar days of the Date header and of INTERNALDATE, in whatever zone
    // each is written: two days past `before`'s UTC day holds every message dated before it (a +14:00
    // header is one day ahead), and the exact cut is made below on the date the scan would give it.
    const bound = new Date((Math.floor(before / DAY) + 2) * DAY);
    // Beyond what a Date holds, nothing is left to narrow: every message is before it.
    if (Number.isFinite(bound.getTime())) criteria.or = [{ sentBefore: bound }, { before: bound }];
  }
  const found: Array<FoundMessage & { uid: number }> = [];
  for (const path of paths) {
    const lock = await client.getMailboxLock(path, { readOnly: true });
    try {
      const box = client.mailbox;
      if (!box || box.exists === 0) continue;
      const validity = box.uidValidity.toString();
      const hits = await client.search(criteria, { uid: true });
      if (!hits || hits.length === 0) continue;
      const items = { uid: true, envelope: true, internalDate: true } as const;
      for (const set of uidSets(hits)) {
        for await (const msg of client.fetch(set, items, { uid: true })) {
          if (!sentBy(msg, address)) continue;
          const date = envelopeDate(msg);
          if (before !== undefined && (date === null || date >= before)) continue;
          found.push({ id: `${path}/${validity}/${msg.uid}`, folder: path, date, uid: msg.uid });
        }
      }
    } finally {
      lock.release();
    }
  }
  found.sort((a, b) => {
    if (a.date !== b.date) {
      if (a.date === null) return 1;
      if (b.date === null) return -1;
      return b.date - a.date;
    }
    return b.uid - a.uid;
  });
  return found.map(({ id, folder, date }) => ({ id, folder, date }));
}

/** The Date header as the envelope gives it, else INTERNALDATE (as the scan dates messages). */
function envelopeDate(msg: FetchMessageObject): number | null {
  const header = msg.envelope?.date;
  if (header instanceof Date) {
    if (Number.isFinite(header.getTime())) return header.getTime();
    return messageDate(null, msg.internalDate);
  }
  return messageDate(typeof header === 'string' ? header : null, msg.internalDate);
}

/**
 * Moves messages (by id) to a destination, one UID MOVE per folder they are in. Messages already there,
 * in a folder gone since, under an older UIDVALIDITY or no longer in their folder are not moved.
 */
export async function moveMessages(
  client: ImapFlow,
  messages: FoundMessage[],
  destination: Destination,
  onMoved?: (moved: MovedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const listing = await listSelectable(client);
  const target = await destinationPath(client, listing, destination, true);
  if (!target) throw new Error('The destination folder does not exist');
  const existing = new Set(listing.map((e) => e.path));
  const groups = new Map<string, { folder: string; validity: string; uids: Set<number> }>();
  for (const m of messages) {
    const ref = parseImapId(m.id);
    if (!ref || ref.folder === target || !existing.has(ref.folder)) continue;
    const key = `${ref.validity}:${ref.folder}`;
    let group = groups.get(key);
    if (!group) {
      group = { folder: ref.folder, validity: ref.validity, uids: new Set() };
      groups.set(key, group);
    }
    group.uids.add(ref.uid);
  }
  const total: TrashResult = { moved: 0, calls: 0 };
  for (const group of groups.values()) {
    const result = await moveFromFolder(client, group.folder, target, onMoved, (withIds) =>
      pickPresent(client, group.validity, group.uids, withIds),
    );
    addResult(total, result);
  }
  return total;
}

/**
 * Puts back messages moveMessages sent to `destination`: only those still at their recorded id, and only
 * ids in the destination's folder (a destination that no longer exists has nothing to give back).
 */
export async function restoreMoved(
  client: ImapFlow,
  messages: TrashedMessage[],
  destination: Destination,
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  const path = await destinationPath(client, await listSelectable(client), destination, false);
  if (!path) return { restored: 0, missing: messages.length };
  return restoreMessages(client, messages, path, onRestored);
}

/**
 * Moves messages back to the folders they came from (INBOX when that folder is gone). Messages whose UID
 * no longer exists where the id says (expunged, or moved by the user), recorded under an older
 * UIDVALIDITY, or outside `only` when given, are missing.
 */
export async function restoreMessages(
  client: ImapFlow,
  messages: TrashedMessage[],
  only?: string,
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  // By folder and UIDVALIDITY, then by folder of origin: one UID MOVE per origin.
  const groups = new Map<string, { folder: string; validity: string; byOrigin: Map<string, number[]> }>();
  let missing = 0;
  for (const m of messages) {
    const ref = parseImapId(m.id);
    if (!ref || !m.origin || (only !== undefined && ref.folder !== only)) {
      missing += 1;
      continue;
    }
    const key = `${ref.validity}:${ref.folder}`;
    let group = groups.get(key);
    if (!group) {
      group = { folder: ref.folder, validity: ref.validity, byOrigin: new Map() };
      groups.set(key, group);
    }
    const list = group.byOrigin.get(m.origin) ?? [];
    list.push(ref.uid);
    group.byOrigin.set(m.origin, list);
  }
  const existing = new Set((await listMailboxes(client, false)).map((f) => f.path));
  let restored = 0;
  for (const group of groups.values()) {
    const count = [...group.byOrigin.values()].reduce((n, l) => n + l.length, 0);
    if (!existing.has(group.folder)) {
      missing += count;
      continue;
    }
    for (const [origin, uids] of group.byOrigin) {
      // A folder of origin deleted since gets its mail in INBOX.
      const target = existing.has(origin) ? origin : 'INBOX';
      if (target === group.folder) {
        missing += uids.length;
        continue;
      }
      const result = await moveFromFolder(client, group.folder, target, onRestored, (withIds) =>
        pickPresent(client, group.validity, new Set(uids), withIds),
      );
      missing += uids.length - result.moved;
      restored += result.moved;
    }
  }
  return { restored, missing };
}
