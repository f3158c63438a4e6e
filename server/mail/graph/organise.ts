import type {
  Destination,
  Folder,
  FoundMessage,
  MovedMessage,
  RestoreResult,
  TrashedMessage,
  TrashResult,
} from '../provider.js';
import { checkFolderName } from '../shared/folder-name.js';
import { senderAddress } from '../shared/sender-address.js';
import { inboxRule, restoreFrom, senderMessages } from './actions.js';
import { type GraphContext, type GraphFolder, mapLimit } from './api.js';
import { moveAll, whereNow } from './batch.js';
import { isGraphError } from './client.js';
import { type ListedFolder, listAll } from './folders.js';
import { receivedAt } from './messages.js';

// What the sender rules and the Screener do in an Outlook mailbox: find a sender's mail, move it to a
// folder, the archive or the trash and put it back, make a folder, and file the sender's future mail there
// with an Inbox rule. The moves, the restore and the rules are the block's (actions.ts, batch.ts).

const enc = encodeURIComponent;

/**
 * A sender's messages, newest first: the Inbox only, every scanned folder, or the one folder at a path as
 * listFolders gives it (`Newsletters`, `Inbox/News`; none when it is gone); `before` in epoch ms.
 */
export async function findSenderMessages(
  ctx: GraphContext,
  query: { from: string; scope: 'inbox' | 'mail' | { folder: string }; before?: number },
): Promise<FoundMessage[]> {
  const address = senderAddress(query.from);
  const { before } = query;
  if (before !== undefined && Number.isNaN(new Date(before).getTime())) {
    throw new Error('before must be a time in epoch milliseconds');
  }
  const { scope } = query;
  let folders: string[];
  if (scope === 'inbox') {
    const inbox = await wellKnownId(ctx, 'inbox');
    folders = inbox ? [inbox] : [];
  } else if (scope === 'mail') {
    folders = (await listAll(ctx)).filter((f) => f.scanned).map((f) => f.id);
  } else if (typeof scope === 'object' && scope !== null && typeof scope.folder === 'string') {
    const folder = await folderByPath(ctx, scope.folder);
    folders = folder ? [folder.id] : [];
  } else {
    throw new Error('Unknown scope');
  }
  const found = await mapLimit(folders, ctx.concurrency, async (folder) =>
    (await senderMessages(ctx, folder, address, before)).map(
      (m): FoundMessage => ({ id: m.id, folder, date: receivedAt(m) }),
    ),
  );
  // Undated last; Graph always sends receivedDateTime, so that is a guard rather than a case.
  return found.flat().sort((a, b) => (b.date ?? -Infinity) - (a.date ?? -Infinity));
}

/**
 * Moves found messages to the destination in JSON batches (the block's moves); those already there stay.
 * Throws when the destination folder is not in the mailbox.
 */
export async function moveMessages(
  ctx: GraphContext,
  messages: FoundMessage[],
  destination: Destination,
  onMoved?: (moved: MovedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const target = await destinationId(ctx, destination);
  if (!target) throw new Error(`${describe(destination)} is not in this mailbox`);
  const seen = new Set<string>();
  const items: TrashedMessage[] = [];
  for (const m of messages) {
    if (m.folder === target || seen.has(m.id)) continue;
    seen.add(m.id);
    items.push({ id: m.id, origin: m.folder });
  }
  return moveAll(ctx, items, target, onMoved);
}

/**
 * Puts back what moveMessages moved: those still in the destination go to their origin (the Inbox when that
 * folder is gone); the others, and all of them when the destination itself is gone, are missing.
 */
export async function restoreMoved(
  ctx: GraphContext,
  messages: TrashedMessage[],
  destination: Destination,
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  const unique = [...new Map(messages.map((m) => [m.id, m])).values()];
  const target = await destinationId(ctx, destination);
  if (!target) return { restored: 0, missing: unique.length };
  // Immutable ids: a message's id is the same wherever the user has put it since.
  const at = await whereNow(
    ctx,
    unique.map((m) => m.id),
  );
  return restoreFrom(
    ctx,
    unique.filter((m) => at.get(m.id) === target),
    unique.length,
    onRestored,
  );
}

/**
 * The top-level folder of this name (compared without case, as Exchange compares sibling names), created
 * with user-post-mailfolders when there is none. A 409 ErrorFolderExists means it was made meanwhile (by the
 * user, or by this request sent again after a lost answer): it is looked up again.
 */
export async function createFolder(ctx: GraphContext, name: string): Promise<Folder> {
  const wanted = folderName(name);
  const existing = await topLevel(ctx, wanted);
  if (existing) return asFolder(existing);
  try {
    const created = await ctx.client.post<GraphFolder>('/me/mailFolders', { displayName: wanted });
    const shown = created.displayName ?? wanted;
    return { path: shown, name: shown, specialUse: null, scanned: true };
  } catch (err) {
    if (!isGraphError(err, 409) || err.code !== 'ErrorFolderExists') throw err;
    const made = await topLevel(ctx, wanted);
    if (made) return asFolder(made);
    // A hidden folder holds the name: listFolders does not show it, so it cannot be offered.
    throw new Error(`A hidden folder named ${wanted} is in the way; rename it in Outlook first`, {
      cause: err,
    });
  }
}

/** An Inbox rule filing the sender's future mail in the folder at `path` (as listFolders gives it). */
export async function createFolderRule(
  ctx: GraphContext,
  address: string,
  path: string,
): Promise<{ ref: string }> {
  const folder = await folderByPath(ctx, path);
  if (!folder) throw new Error(`The folder ${path} is not in this mailbox`);
  return inboxRule(ctx.client, address, folder.id, 'file');
}

/** A name for a new folder: the shared check (shared/folder-name.ts), and no `/` (Graph's path separator). */
function folderName(name: string): string {
  const trimmed = checkFolderName(name);
  if (trimmed.includes('/')) throw new Error('A folder name cannot contain "/"');
  return trimmed;
}

async function topLevel(ctx: GraphContext, name: string): Promise<ListedFolder | undefined> {
  const lower = name.toLowerCase();
  // A top-level folder's path is its name alone; any other path has a parent's before it.
  return (await listAll(ctx)).find((f) => f.path === f.name && f.name.toLowerCase() === lower);
}

/** The folder listFolders shows at `path`: the exact path, else one that differs only in case. */
async function folderByPath(ctx: GraphContext, path: string): Promise<ListedFolder | undefined> {
  const folders = await listAll(ctx);
  const lower = path.toLowerCase();
  return folders.find((f) => f.path === path) ?? folders.find((f) => f.path.toLowerCase() === lower);
}

/** The destination's folder id; null when the mailbox has no such folder. */
async function destinationId(ctx: GraphContext, destination: Destination): Promise<string | null> {
  switch (destination.kind) {
    case 'folder':
      return (await folderByPath(ctx, destination.path))?.id ?? null;
    case 'trash':
      return wellKnownId(ctx, 'deleteditems');
    case 'archive':
      // v1.0's alias of the folder Outlook's Archive button files into.
      return wellKnownId(ctx, 'archive');
  }
}

async function wellKnownId(ctx: GraphContext, name: string): Promise<string | null> {
  try {
    return (await ctx.client.get<GraphFolder>(`/me/mailFolders/${enc(name)}?$select=id`)).id;
  } catch (err) {
    if (isGraphError(err, 404)) return null;
    throw err;
  }
}

function asFolder({ path, name, specialUse, scanned }: ListedFolder): Folder {
  return { path, name, specialUse, scanned };
}

function describe(destination: Destination): string {
  if (destination.kind === 'folder') return `The folder ${destination.path}`;
  return destination.kind === 'trash' ? 'Deleted Items' : 'The Archive folder';
}
