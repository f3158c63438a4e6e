import type { ImapFlow } from 'imapflow';
import type { RestoreResult, TrashedMessage, TrashResult } from '../provider.js';
import { listMailboxes } from './scan.js';
import { uidsToRanges } from './uid-set.js';

// Block, IMAP side: every message of a sender in the scanned folders goes to the \Trash folder with one
// UID MOVE per folder (ImapFlow falls back to UID COPY + STORE \Deleted + EXPUNGE without RFC 6851 MOVE).
// A move changes UIDs: the server's COPYUID answer (RFC 4315 UIDPLUS) maps each message to its UID in the
// trash, which is what undoing the block needs. A server without UIDPLUS gives no map, so its moves
// cannot be undone (they are still made: the block does not depend on undo).

export async function moveSenderToTrash(
  client: ImapFlow,
  from: string,
  onMoved?: (moved: TrashedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const address = from.trim().toLowerCase();
  if (!address) throw new Error('moveToTrash needs a sender address');
  const folders = await listMailboxes(client, false);
  const trash = folders.find((f) => f.specialUse === '\\Trash');
  if (!trash) throw new Error('The mailbox has no \\Trash folder to move the mail to');
  let moved = 0;
  let calls = 0;
  for (const folder of folders.filter((f) => f.scanned)) {
    const lock = await client.getMailboxLock(folder.path);
    try {
      // SEARCH FROM is a substring match on the header: the envelope narrows it to this exact address.
      const found = await client.search({ from: address }, { uid: true });
      if (!found || found.length === 0) continue;
      const uids: number[] = [];
      for await (const msg of client.fetch(found, { uid: true, envelope: true }, { uid: true })) {
        const senders = msg.envelope?.from ?? [];
        if (senders.some((a) => a.address?.toLowerCase() === address)) uids.push(msg.uid);
      }
      if (uids.length === 0) continue;
      calls += 1;
      const result = await client.messageMove(uids, trash.path, { uid: true });
      if (!result) throw new Error(`Moving ${uids.length} messages from ${folder.path} to the trash failed`);
      moved += uids.length;
      if (onMoved && result.uidMap && result.uidValidity !== undefined) {
        const validity = result.uidValidity.toString();
        await onMoved(
          [...result.uidMap.values()].map((uid) => ({
            id: `${trash.path}/${validity}/${uid}`,
            origin: folder.path,
          })),
        );
      }
    } finally {
      lock.release();
    }
  }
  return { moved, calls };
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
