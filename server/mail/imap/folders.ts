import type { ImapFlow, ListResponse } from 'imapflow';
import type { Destination, Folder } from '../provider.js';
import { checkFolderName } from '../shared/folder-name.js';
import { listMailboxes } from './scan.js';

// The folders of the IMAP side of organising: where a destination is (the trash and the archive found by
// their special use or name, created when missing), and a folder made by name for a rule.

/** Selectable folders as LIST gives them (with how ImapFlow knows their special use). */
export async function listSelectable(client: ImapFlow): Promise<ListResponse[]> {
  const entries = await client.list();
  return entries.filter((e) => !e.flags.has('\\Noselect') && !e.flags.has('\\NonExistent'));
}

/**
 * The folder a destination names: the path itself; the trash (\Trash, else created as `Trash` in the
 * personal namespace); the archive (flagged \Archive by the server, else the folder named Archive, or
 * named as clients name the archive, at the top of the personal namespace, else `Archive` created there).
 * `create` false: null instead of creating.
 */
export async function destinationPath(
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
 * The folder of this name: INBOX (any case), one whose path or name it is, else a new one in the personal
 * namespace (ImapFlow adds its prefix: `INBOX.Receipts` on Courier and Cyrus).
 */
export async function createFolder(client: ImapFlow, name: string): Promise<Folder> {
  const wanted = checkFolderName(name);
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
