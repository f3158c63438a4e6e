import type { ImapFlow } from 'imapflow';
import type { TrashResult } from '../provider.js';
import { listMailboxes } from './scan.js';

// Block, IMAP side: every message of a sender in the scanned folders goes to the \Trash folder with one
// UID MOVE per folder (ImapFlow falls back to UID COPY + STORE \Deleted + EXPUNGE without RFC 6851 MOVE).

export async function moveSenderToTrash(client: ImapFlow, from: string): Promise<TrashResult> {
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
    } finally {
      lock.release();
    }
  }
  return { moved, calls };
}
