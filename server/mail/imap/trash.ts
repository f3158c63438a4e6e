import type { ImapFlow } from 'imapflow';
import type { MovedMessage, RestoreResult, TrashedMessage, TrashResult } from '../provider.js';
import { senderAddress } from '../shared/sender-address.js';
import { createTrash } from './folders.js';
import { addResult, messageIdOf, moveFromFolder, type Picked, uidSets } from './move.js';
import { restoreMessages, sentBy } from './organise.js';
import { listMailboxes } from './scan.js';

// Block, IMAP side: every message of a sender in the scanned folders goes to the \Trash folder (flagged so
// by SPECIAL-USE, else found by its name, else created) with one UID MOVE per folder, tracked as every
// move of organise.ts is (COPYUID, else a Message-ID lookup). A message the lookup cannot find again is
// moved all the same (the block does not depend on undo) and counted as `untracked`.

export async function moveSenderToTrash(
  client: ImapFlow,
  from: string,
  onMoved?: (moved: MovedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const address = senderAddress(from);
  const folders = await listMailboxes(client, false);
  const trash = folders.find((f) => f.specialUse === '\\Trash') ?? (await createTrash(client));
  // The block's records are where each message went, where it came from and the id it had there.
  const report = onMoved;
  const total: TrashResult = { moved: 0, calls: 0 };
  for (const folder of folders.filter((f) => f.scanned)) {
    const result = await moveFromFolder(client, folder.path, trash.path, report, async () => {
      // SEARCH FROM is a substring match on the header: the envelope narrows it to this exact address.
      const found = await client.search({ from: address }, { uid: true });
      if (!found || found.length === 0) return [];
      const picked: Picked[] = [];
      for (const set of uidSets(found)) {
        for await (const msg of client.fetch(set, { uid: true, envelope: true }, { uid: true })) {
          if (sentBy(msg, address)) picked.push({ uid: msg.uid, messageId: messageIdOf(msg) });
        }
      }
      return picked;
    });
    addResult(total, result);
  }
  return total;
}

/**
 * Moves messages back from the trash to the folders they came from (restoreMessages: the id names the
 * folder each is in). Messages no longer there, or recorded under an older UIDVALIDITY, are missing.
 */
export function restoreFromTrash(
  client: ImapFlow,
  messages: TrashedMessage[],
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  return restoreMessages(client, messages, undefined, onRestored);
}
