import type { FetchMessageObject, ImapFlow, ListResponse, SearchObject } from 'imapflow';
import type {
  Destination,
  Folder,
  FoundMessage,
  MovedMessage,
  RestoreResult,
  TrashedMessage,
  TrashResult,
} from '../provider.js';
import { listMailboxes, messageDate } from './scan.js';
import { uidsToRanges } from './uid-set.js';

// Sender rules and the Screener, IMAP side: find a sender's mail, move it to a folder, the archive or the
// trash, and put it back. The block (trash.ts) moves the same way. A move changes UIDs: the server's
// COPYUID answer (RFC 4315 UIDPLUS) maps each message to its new UID, which an undo and the product's
// references need. Without UIDPLUS there is no map: the moved copies are looked up in the destination by
// Message-ID among the UIDs at or above its UIDNEXT before the move (STATUS). A message without a
// Message-ID, or one the lookup cannot tell apart, is moved all the same and counted as `untracked`.

const DAY = 86_400_000;
const MAX_FOLDER_NAME = 200;
/** UID ranges per command line: a few KB. */
const RANGES_PER_COMMAND = 500;
// C0 controls, DEL and C1 controls: never part of a folder name a user typed.
const CONTROL = /\p{Cc}/u;

/** `<folder>/<uidvalidity>/<uid>`; the folder may itself contain slashes. */
export function parseImapId(id: string): { folder: string; validity: string; uid: number } | null {
  const m = /^(.+)\/(\d+)\/(\d+)$/.exec(id);
  if (!m) return null;
  const uid = Number(m[3]);
  if (!Number.isSafeInteger(uid) || uid < 1) return null;
  return { folder: m[1]!, validity: m[2]!, uid };
}

export function senderAddress(from: string): string {
  const address = from.trim().toLowerCase();
  if (!address) throw new Error('A sender address is needed');
  return address;
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
 * Of `uids` in the selected folder, those still there (a FETCH of the set answers for those alone), with
 * their Message-IDs when asked; none when the folder's UIDVALIDITY is no longer `validity`.
 */
async function pickPresent(
  client: ImapFlow,
  validity: string,
  uids: ReadonlySet<number>,
  withIds: boolean,
): Promise<Picked[]> {
  if (client.mailbox === false || client.mailbox.uidValidity.toString() !== validity) return [];
  // With MOVE and UIDPLUS the move itself says which UIDs were still there (its COPYUID answer): no FETCH
  // first, one round trip less per folder at every check that files mail.
  if (!withIds && client.capabilities.has('MOVE') && client.capabilities.has('UIDPLUS')) {
    return [...uids].map((uid) => ({ uid, messageId: null, unverified: true }));
  }
  const picked: Picked[] = [];
  const items = { uid: true, envelope: withIds };
  for (const set of uidSets([...uids])) {
    for await (const msg of client.fetch(set, items, { uid: true })) {
      if (uids.has(msg.uid)) picked.push({ uid: msg.uid, messageId: messageIdOf(msg) });
    }
  }
  return picked;
}

export function addResult(total: TrashResult, add: TrashResult): void {
  total.moved += add.moved;
  total.calls += add.calls;
  if (add.untracked) total.untracked = (total.untracked ?? 0) + add.untracked;
}

/**
 * A message chosen to move: its UID in the selected folder and its Message-ID (null when unknown).
 * `unverified`: not checked to be there; the move's COPYUID answer counts it.
 */
export interface Picked {
  uid: number;
  messageId: string | null;
  unverified?: boolean;
}

export function messageIdOf(msg: FetchMessageObject): string | null {
  return msg.envelope?.messageId?.trim() || null;
}

/**
 * Selects `source`, lets `pick` choose the messages (told whether their Message-IDs are needed), moves
 * them to `target` in one UID MOVE and tells `onMoved` where each went. Nothing picked: no command.
 */
export async function moveFromFolder(
  client: ImapFlow,
  source: string,
  target: string,
  onMoved: ((moved: MovedMessage[]) => Promise<void>) | undefined,
  pick: (withMessageIds: boolean) => Promise<Picked[]>,
): Promise<TrashResult> {
  const uidplus = client.capabilities.has('UIDPLUS');
  const unmapped: Picked[] = [];
  let floor = 1;
  let validity = '0';
  let untracked = 0;
  let moved = 0;
  let calls = 0;
  const lock = await client.getMailboxLock(source);
  try {
    const picked = await pick(Boolean(onMoved) && !uidplus);
    if (picked.length === 0) return { moved: 0, calls: 0 };
    validity = client.mailbox === false ? '0' : client.mailbox.uidValidity.toString();
    const byUid = new Map(picked.map((p) => [p.uid, p]));
    if (onMoved && !uidplus) floor = await uidNext(client, target);
    // One UID MOVE, or one per RANGES_PER_COMMAND ranges for mail scattered over a large folder.
    for (const set of uidSets([...byUid.keys()])) {
      const uids = uidsInSet(set);
      const result = await moveSelected(client, uids, set, target);
      if (!result) throw new Error(`Moving ${uids.length} messages from ${source} to ${target} failed`);
      calls += 1;
      const mapped = result.uidMap?.size ?? 0;
      const unverified = byUid.get(uids[0]!)?.unverified === true;
      moved += unverified ? mapped : uids.length;
      if (!onMoved) continue;
      if (result.uidMap && result.uidMap.size > 0 && result.uidValidity !== undefined) {
        const newValidity = result.uidValidity.toString();
        if (!unverified) untracked += uids.length - result.uidMap.size;
        await onMoved(
          [...result.uidMap].map(([from, to]) => ({
            id: `${target}/${newValidity}/${to}`,
            origin: source,
            previous: `${source}/${validity}/${from}`,
          })),
        );
      } else if (!unverified) {
        for (const uid of uids) unmapped.push(byUid.get(uid)!);
      }
    }
  } finally {
    lock.release();
  }
  // Looked up once the source's lock is released (ImapFlow selects one folder at a time).
  if (onMoved && unmapped.length > 0) {
    const found = await findMoved(client, target, { origin: source, validity, picked: unmapped, floor });
    untracked += unmapped.length - found.length;
    if (found.length > 0) await onMoved(found);
  }
  return { moved, calls, ...(untracked > 0 ? { untracked } : {}) };
}

/**
 * UID MOVE of the selected folder's `uids` (`set` names them). Without MOVE, ImapFlow copies, stores
 * \Deleted and expunges: with UIDPLUS a UID EXPUNGE of just these UIDs, without it a plain EXPUNGE that
 * would also remove every other message of the folder flagged \Deleted (the user's pending deletions,
 * another client's move in progress). Those are unflagged around the move and flagged again after it.
 */
async function moveSelected(client: ImapFlow, uids: number[], set: string, target: string) {
  if (client.capabilities.has('MOVE') || client.capabilities.has('UIDPLUS')) {
    return client.messageMove(set, target, { uid: true });
  }
  const mine = new Set(uids);
  const others = ((await client.search({ deleted: true }, { uid: true })) || []).filter((u) => !mine.has(u));
  if (others.length === 0) return client.messageMove(set, target, { uid: true });
  const keep = uidSets(others);
  for (const k of keep) {
    if (!(await client.messageFlagsRemove(k, ['\\Deleted'], { uid: true }))) {
      throw new Error('Could not keep the folder’s other deleted messages from the move’s EXPUNGE');
    }
  }
  try {
    return await client.messageMove(set, target, { uid: true });
  } finally {
    for (const k of keep) await client.messageFlagsAdd(k, ['\\Deleted'], { uid: true });
  }
}

/** The UIDs of a set uidSets wrote. */
function uidsInSet(set: string): number[] {
  const out: number[] = [];
  for (const part of set.split(',')) {
    const [lo, hi = lo] = part.split(':').map(Number);
    for (let uid = lo!; uid <= hi!; uid++) out.push(uid);
  }
  return out;
}

/**
 * UID sets of at most RANGES_PER_COMMAND ranges each, ascending: a sender's mail scattered over a large
 * folder would otherwise make one command line longer than servers accept (Dovecot: 64 KB).
 */
export function uidSets(uids: readonly number[]): string[] {
  const ranges = uidsToRanges(uids).map((r) => (r.lo === r.hi ? `${r.lo}` : `${r.lo}:${r.hi}`));
  const sets: string[] = [];
  for (let i = 0; i < ranges.length; i += RANGES_PER_COMMAND) {
    sets.push(ranges.slice(i, i + RANGES_PER_COMMAND).join(','));
  }
  return sets;
}

/** The destination's UIDNEXT from STATUS, or 1 when the server does not say (the lookup then reads all of it). */
async function uidNext(client: ImapFlow, path: string): Promise<number> {
  const status = await client.status(path, { uidNext: true }).catch(() => null);
  const next = status ? status.uidNext : undefined;
  return typeof next === 'number' && Number.isSafeInteger(next) && next >= 1 ? next : 1;
}

/** A group of messages moved without a COPYUID answer, to be found again at the destination. */
interface Untracked {
  origin: string;
  /** The origin's UIDVALIDITY, for the ids the messages had there. */
  validity: string;
  picked: Picked[];
  /** The destination's UIDNEXT before the move: the moved copies have UIDs at or above it. */
  floor: number;
}

/**
 * The destination's copies of messages moved without COPYUID, by Message-ID among the UIDs at or above
 * its UIDNEXT before the move. A Message-ID found more (or fewer) times there than it was moved is
 * ambiguous, and none of its copies is claimed; copies of one Message-ID moved together are paired with
 * their old UIDs in order (COPY keeps the source's order).
 */
async function findMoved(client: ImapFlow, path: string, group: Untracked): Promise<MovedMessage[]> {
  const wanted = new Map<string, number[]>();
  for (const p of group.picked) {
    if (!p.messageId) continue;
    const list = wanted.get(p.messageId) ?? [];
    list.push(p.uid);
    wanted.set(p.messageId, list);
  }
  if (wanted.size === 0) return [];
  const lock = await client.getMailboxLock(path, { readOnly: true });
  try {
    const box = client.mailbox;
    if (!box || box.exists === 0) return [];
    const validity = box.uidValidity.toString();
    const byId = new Map<string, number[]>();
    // A UID range, not a SEARCH result: the command line stays short however large the folder.
    for await (const msg of client.fetch(`${group.floor}:*`, { uid: true, envelope: true }, { uid: true })) {
      // `n:*` names the highest UID even when it is below n.
      if (msg.uid < group.floor) continue;
      const id = messageIdOf(msg);
      if (!id || !wanted.has(id)) continue;
      const list = byId.get(id) ?? [];
      list.push(msg.uid);
      byId.set(id, list);
    }
    const out: MovedMessage[] = [];
    for (const [id, uids] of byId) {
      const before = wanted.get(id)!;
      if (uids.length !== before.length) continue;
      const olds = [...before].sort((a, b) => a - b);
      const news = [...uids].sort((a, b) => a - b);
      news.forEach((uid, i) => {
        out.push({
          id: `${path}/${validity}/${uid}`,
          origin: group.origin,
          previous: `${group.origin}/${group.validity}/${olds[i]}`,
        });
      });
    }
    return out;
  } finally {
    lock.release();
  }
}

/** Selectable folders as LIST gives them (with how ImapFlow knows their special use). */
async function listSelectable(client: ImapFlow): Promise<ListResponse[]> {
  const entries = await client.list();
  return entries.filter((e) => !e.flags.has('\\Noselect') && !e.flags.has('\\NonExistent'));
}

/**
 * The folder a destination names: the path itself; the trash (\Trash, else created as `Trash` in the
 * personal namespace); the archive (flagged \Archive by the server, else the folder named Archive, or
 * named as clients name the archive, at the top of the personal namespace, else `Archive` created there).
 * `create` false: null instead of creating.
 */
async function destinationPath(
  client: ImapFlow,
  listing: ListResponse[],
  destination: Destination,
  create: boolean,
): Promise<string | null> {
  switch (destination.kind) {
    case 'folder':
      return listing.some((e) => e.path === destination.path) ? destination.path : null;
    case 'trash': {
      const trash = listing.find((e) => e.specialUse === '\\Trash');
      if (trash) return trash.path;
      return create ? (await createTrash(client)).path : null;
    }
    case 'archive': {
      // ImapFlow also guesses \Archive from names: only the server's flag counts anywhere in the tree.
      const flagged = listing.find(
        (e) => e.specialUse === '\\Archive' && (e.specialUseSource ?? 'extension') !== 'name',
      );
      if (flagged) return flagged.path;
      // Then by name at the top of the personal namespace: Archive, else a name mail clients give the
      // archive (Thunderbird's Archives, a localised Archiv…), never a nested folder of the user's.
      const prefix = client.namespace?.prefix ?? '';
      const top = listing.filter((e) => e.path === `${prefix}${e.name}`);
      const named =
        top.find((e) => e.name.toLowerCase() === 'archive') ?? top.find((e) => e.specialUse === '\\Archive');
      if (named) return named.path;
      if (!create) return null;
      const created = await client.mailboxCreate(['Archive']);
      if (!created?.path) throw new Error('The mailbox has no archive folder, and creating one failed');
      return created.path;
    }
  }
}

/**
 * A mailbox with no trash at all (Courier makes none until a client does): `Trash` in the personal
 * namespace (`INBOX.Trash` on Courier), the name ImapFlow and mail clients recognise as the trash.
 */
export async function createTrash(client: ImapFlow): Promise<{ path: string }> {
  const created = await client.mailboxCreate(['Trash']);
  if (!created?.path) throw new Error('The mailbox has no trash folder, and creating one failed');
  return { path: created.path };
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

/**
 * The folder of this name: INBOX (any case), one whose path or name it is, else a new one in the personal
 * namespace (ImapFlow adds its prefix: `INBOX.Receipts` on Courier and Cyrus).
 */
export async function createFolder(client: ImapFlow, name: string): Promise<Folder> {
  const wanted = typeof name === 'string' ? name.trim() : '';
  if (!wanted) throw new Error('A folder needs a name');
  if (wanted.length > MAX_FOLDER_NAME)
    throw new Error(`Folder names are at most ${MAX_FOLDER_NAME} characters`);
  if (CONTROL.test(wanted)) throw new Error('Folder names cannot contain control characters');
  // LIST's wildcards: a folder named with them could not be listed by its own name.
  if (/[*%]/.test(wanted)) throw new Error('Folder names cannot contain * or %');
  const prefixed = `${client.namespace?.prefix ?? ''}${wanted}`;
  const pick = (folders: Folder[]) =>
    wanted.toUpperCase() === 'INBOX'
      ? folders.find((f) => f.path === 'INBOX')
      : (folders.find((f) => f.path === wanted) ??
        folders.find((f) => f.path === prefixed) ??
        folders.find((f) => f.name === wanted));
  const existing = pick(await folderList(client));
  if (existing) return existing;
  const created = await client.mailboxCreate(wanted);
  if (!created?.path) throw new Error(`Creating the folder ${wanted} failed`);
  const listed = (await folderList(client)).find((f) => f.path === created.path);
  if (!listed) throw new Error(`The folder ${created.path} was created but is not listed`);
  return listed;
}

async function folderList(client: ImapFlow): Promise<Folder[]> {
  return (await listMailboxes(client, false)).map(({ path, name, specialUse, scanned }) => ({
    path,
    name,
    specialUse,
    scanned,
  }));
}
