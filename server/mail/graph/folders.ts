import type { Folder } from '../provider.js';
import { collect, type GraphContext, type GraphFolder, mapLimit } from './api.js';
import { isGraphError } from './client.js';

// The mailbox's folders: /me/mailFolders and their childFolders, level by level, with the well-known ones
// recognised and the ones a scan skips marked.

// v1.0 mailFolder has no wellKnownName (beta only), so well-known folders are found by their aliases.
const FOLDER_SELECT = 'id,displayName,parentFolderId,childFolderCount,totalItemCount';

/**
 * Well-known folders that a scan skips with everything below them: the user's own mail (sent, drafts,
 * outbox), what they already threw away (deleted items, junk), Skype logs, Outlook's sync logs, and mail
 * scheduled to come back to the Inbox (it is read there when it does).
 */
const NOT_SCANNED = [
  'deleteditems',
  'junkemail',
  'sentitems',
  'drafts',
  'outbox',
  'conversationhistory',
  'syncissues',
  'scheduled',
] as const;
const SPECIAL_USE: Record<string, string> = {
  inbox: '\\Inbox',
  archive: '\\Archive',
  sentitems: '\\Sent',
  drafts: '\\Drafts',
  deleteditems: '\\Trash',
  junkemail: '\\Junk',
};
const WELL_KNOWN = ['inbox', 'archive', ...NOT_SCANNED];

export interface ListedFolder extends Folder {
  id: string;
  total: number;
}

/** Every folder of the mailbox, the Inbox first, then by path. */
export async function listAll({ client, concurrency }: GraphContext): Promise<ListedFolder[]> {
  const enc = encodeURIComponent;
  const known = await wellKnownIds({ client, concurrency });
  const out: ListedFolder[] = [];
  let level: Array<{ parent: ListedFolder | null; url: string }> = [
    { parent: null, url: `/me/mailFolders?$top=100&$select=${FOLDER_SELECT}` },
  ];
  while (level.length > 0) {
    const listed = await mapLimit(level, concurrency, async ({ parent, url }) => {
      const children = await collect<GraphFolder>(client, url);
      return children.map((f) => toFolder(f, parent, known));
    });
    level = [];
    for (const folder of listed.flat()) {
      out.push(folder.listed);
      if (folder.childCount > 0) {
        level.push({
          parent: folder.listed,
          url: `/me/mailFolders/${enc(folder.listed.id)}/childFolders?$top=100&$select=${FOLDER_SELECT}`,
        });
      }
    }
  }
  // Inbox first: most newsletters land there, so the first subscriptions appear soonest.
  const rank = (f: ListedFolder) => (f.specialUse === '\\Inbox' ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Folder id → well-known name, by GET /me/mailFolders/{name}; a name the mailbox lacks answers 404. */
async function wellKnownIds({ client, concurrency }: GraphContext): Promise<Map<string, string>> {
  const found = await mapLimit(WELL_KNOWN, concurrency, async (name) => {
    try {
      const f = await client.get<GraphFolder>(`/me/mailFolders/${name}?$select=id`);
      return [f.id, name] as const;
    } catch (err) {
      if (isGraphError(err, 404)) return null;
      throw err;
    }
  });
  return new Map(found.filter((e): e is readonly [string, string] => e !== null));
}

function toFolder(
  f: GraphFolder,
  parent: ListedFolder | null,
  known: Map<string, string>,
): { listed: ListedFolder; childCount: number } {
  const name = f.displayName ?? '';
  const wellKnown = known.get(f.id);
  const excluded =
    (parent !== null && !parent.scanned) ||
    (wellKnown !== undefined && (NOT_SCANNED as readonly string[]).includes(wellKnown)) ||
    // Search folders are views over other folders: reading them would count mail twice.
    f['@odata.type'] === '#microsoft.graph.mailSearchFolder';
  return {
    listed: {
      id: f.id,
      path: parent ? `${parent.path}/${name}` : name,
      name,
      specialUse: (wellKnown && SPECIAL_USE[wellKnown]) ?? null,
      scanned: !excluded,
      total: f.totalItemCount ?? 0,
    },
    childCount: f.childFolderCount ?? 0,
  };
}
