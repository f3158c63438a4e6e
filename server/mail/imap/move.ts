import type { FetchMessageObject, ImapFlow } from 'imapflow';
import type { MovedMessage, TrashResult } from '../provider.js';
import { uidsToRanges } from './uid-set.js';

// One move of messages between folders, as organise.ts and trash.ts make it, tracked: the server's COPYUID
// answer (RFC 4315 UIDPLUS) maps each message to its new UID; without it the moved copies are looked up in
// the destination by Message-ID among the UIDs at or above its UIDNEXT before the move.

/** UID ranges per command line: a few KB. */
const RANGES_PER_COMMAND = 500;

/**
 * Of `uids` in the selected folder, those still there (a FETCH of the set answers for those alone), with
 * their Message-IDs when asked; none when the folder's UIDVALIDITY is no longer `validity`.
 */
export async function pickPresent(
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
