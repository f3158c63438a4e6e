import type { ImapFlow } from 'imapflow';
import type { RestoreResult, TrashedMessage, TrashResult } from '../provider.js';
import { listMailboxes } from './scan.js';
import { uidsToRanges } from './uid-set.js';

// Block, IMAP side: every message of a sender in the scanned folders goes to the \Trash folder (flagged so
// by SPECIAL-USE, else found by its name) with one UID MOVE per folder (ImapFlow falls back to UID COPY +
// STORE \Deleted + EXPUNGE without RFC 6851 MOVE). A move changes UIDs: the server's COPYUID answer
// (RFC 4315 UIDPLUS) maps each message to its UID in the trash, which is what undoing the block needs. A
// server without UIDPLUS gives no map: the moved messages are then looked up in the trash by Message-ID
// among the UIDs at or above the trash's UIDNEXT before the move (STATUS). A message without a Message-ID,
// or one the lookup cannot tell apart, is moved all the same (the block does not depend on undo) and
// counted as `untracked`: an undo cannot bring it back.

/** A group of messages moved without COPYUID, to be found again in the trash. */
interface Untracked {
  origin: string;
  /** Message-ID of each moved message; null when it had none. */
  messageIds: Array<string | null>;
  /** The trash's UIDNEXT before the move: the moved copies have UIDs at or above it. */
  floor: number;
}

export async function moveSenderToTrash(
  client: ImapFlow,
  from: string,
  onMoved?: (moved: TrashedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const address = from.trim().toLowerCase();
  if (!address) throw new Error('moveToTrash needs a sender address');
  const folders = await listMailboxes(client, false);
  const trash = folders.find((f) => f.specialUse === '\\Trash') ?? (await createTrash(client));
  let moved = 0;
  let calls = 0;
  let untracked = 0;
  for (const folder of folders.filter((f) => f.scanned)) {
    let pending: Untracked | null = null;
    const lock = await client.getMailboxLock(folder.path);
    try {
      // SEARCH FROM is a substring match on the header: the envelope narrows it to this exact address.
      const found = await client.search({ from: address }, { uid: true });
      if (!found || found.length === 0) continue;
      const uids: number[] = [];
      const messageIds: Array<string | null> = [];
      for await (const msg of client.fetch(found, { uid: true, envelope: true }, { uid: true })) {
        const senders = msg.envelope?.from ?? [];
        if (senders.some((a) => a.address?.toLowerCase() === address)) {
          uids.push(msg.uid);
          messageIds.push(msg.envelope?.messageId?.trim() || null);
        }
      }
      if (uids.length === 0) continue;
      calls += 1;
      const floor =
        onMoved && !client.capabilities.has('UIDPLUS') ? await trashUidNext(client, trash.path) : 1;
      const result = await client.messageMove(uids, trash.path, { uid: true });
      if (!result) throw new Error(`Moving ${uids.length} messages from ${folder.path} to the trash failed`);
      moved += uids.length;
      if (onMoved && result.uidMap && result.uidMap.size > 0 && result.uidValidity !== undefined) {
        const validity = result.uidValidity.toString();
        untracked += uids.length - result.uidMap.size;
        await onMoved(
          [...result.uidMap.values()].map((uid) => ({
            id: `${trash.path}/${validity}/${uid}`,
            origin: folder.path,
          })),
        );
      } else if (onMoved) {
        pending = { origin: folder.path, messageIds, floor };
      }
    } finally {
      lock.release();
    }
    // Looked up in the trash once the folder's lock is released (ImapFlow selects one folder at a time).
    if (pending && onMoved) {
      const found = await findInTrash(client, trash.path, pending);
      untracked += pending.messageIds.length - found.length;
      if (found.length > 0) await onMoved(found);
    }
  }
  return { moved, calls, ...(untracked > 0 ? { untracked } : {}) };
}

/**
 * A mailbox with no trash at all (Courier makes none until a client does): `Trash` in the personal
 * namespace (`INBOX.Trash` on Courier), the name ImapFlow and mail clients recognise as the trash.
 */
async function createTrash(client: ImapFlow): Promise<{ path: string }> {
  const created = await client.mailboxCreate(['Trash']);
  if (!created?.path) throw new Error('The mailbox has no trash folder, and creating one failed');
  return { path: created.path };
}

/** The trash's UIDNEXT from STATUS, or 1 when the server does not say (the lookup then reads all of it). */
async function trashUidNext(client: ImapFlow, path: string): Promise<number> {
  const status = await client.status(path, { uidNext: true }).catch(() => null);
  const next = status ? status.uidNext : undefined;
  return typeof next === 'number' && Number.isSafeInteger(next) && next >= 1 ? next : 1;
}

/**
 * The trash's copies of messages moved without a COPYUID answer, by Message-ID among the UIDs at or above
 * the trash's UIDNEXT before the move. A Message-ID found more (or fewer) times there than it was moved
 * is ambiguous, and none of its copies is claimed.
 */
async function findInTrash(client: ImapFlow, path: string, group: Untracked): Promise<TrashedMessage[]> {
  const wanted = new Map<string, number>();
  for (const id of group.messageIds) if (id) wanted.set(id, (wanted.get(id) ?? 0) + 1);
  if (wanted.size === 0) return [];
  const lock = await client.getMailboxLock(path, { readOnly: true });
  try {
    const box = client.mailbox;
    if (!box || box.exists === 0) return [];
    const validity = box.uidValidity.toString();
    const candidates = await client.search({ uid: `${group.floor}:*` }, { uid: true });
    if (!candidates || candidates.length === 0) return [];
    const byId = new Map<string, number[]>();
    for await (const msg of client.fetch(candidates, { uid: true, envelope: true }, { uid: true })) {
      // `n:*` names the highest UID even when it is below n.
      if (msg.uid < group.floor) continue;
      const id = msg.envelope?.messageId?.trim();
      if (!id || !wanted.has(id)) continue;
      const list = byId.get(id) ?? [];
      list.push(msg.uid);
      byId.set(id, list);
    }
    const out: TrashedMessage[] = [];
    for (const [id, uids] of byId) {
      if (uids.length !== wanted.get(id)) continue;
      for (const uid of uids) out.push({ id: `${path}/${validity}/${uid}`, origin: group.origin });
    }
    return out;
  } finally {
    lock.release();
  }
}

/**
 * Moves messages back from the trash to the folders they came from. Messages whose UID no longer exists
 * in the trash (expunged, or moved by the user), or recorded under an older UIDVALIDITY, are missing.
 */
export async function restoreFromTrash(client: ImapFlow, messages: TrashedMessage[]): Promise<RestoreResult> {
  // By trash folder and UIDVALIDITY, then by folder of origin: one UID MOVE per origin.
  const groups = new Map<string, { folder: string; validity: string; byOrigin: Map<string, number[]> }>();
  let missing = 0;
  for (const m of messages) {
    const ref = /^(.+)\/(\d+)\/(\d+)$/.exec(m.id);
    const uid = ref ? Number(ref[3]) : 0;
    if (!ref || !Number.isSafeInteger(uid) || uid < 1 || !m.origin) {
      missing += 1;
      continue;
    }
    const key = `${ref[2]}:${ref[1]}`;
    let group = groups.get(key);
    if (!group) {
      group = { folder: ref[1]!, validity: ref[2]!, byOrigin: new Map() };
      groups.set(key, group);
    }
    const list = group.byOrigin.get(m.origin) ?? [];
    list.push(uid);
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
    const lock = await client.getMailboxLock(group.folder);
    try {
      if (client.mailbox === false || client.mailbox.uidValidity.toString() !== group.validity) {
        missing += count;
        continue;
      }
      for (const [origin, uids] of group.byOrigin) {
        // Only the UIDs still in the trash; a folder of origin deleted since gets its mail in INBOX.
        const set = uidsToRanges(uids)
          .map((r) => (r.lo === r.hi ? `${r.lo}` : `${r.lo}:${r.hi}`))
          .join(',');
        const present = (await client.search({ uid: set }, { uid: true })) || [];
        missing += uids.length - present.length;
        if (present.length === 0) continue;
        const target = existing.has(origin) ? origin : 'INBOX';
        const result = await client.messageMove(present, target, { uid: true });
        if (!result) throw new Error(`Moving ${present.length} messages back to ${target} failed`);
        restored += present.length;
      }
    } finally {
      lock.release();
    }
  }
  return { restored, missing };
}
