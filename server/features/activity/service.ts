import {
  ACTIVITY_MESSAGES,
  ACTIVITY_PAGE_DEFAULT,
  type ActivityEntry,
  type ActivityResponse,
  type UndoActivityResponse,
} from '#contract/api.js';
import { ConflictError, InvalidInputError, NotFoundError } from '#server/lib/errors.js';
import type { OrganiseService } from '../organise/service.js';
import type { UnsubscribeService } from '../unsubscribe/service.js';
import type { ActivityPosition, ActivityRepository, ActivityRow, ActivityRowKind } from './repository.js';

// The activity history (docs/decisions/101-activity-history-and-counts-that-follow.md): what the product
// did to the user's mail, and its Undo. An undo goes through the very call the screens' own Undo makes
// (unblock, remove a rule with its mail, release the Screener's hold, back to review), so each path
// settles the rows it undoes and the two can never disagree.

export interface ActivityDeps {
  repo: ActivityRepository;
  unsubscribe: Pick<UnsubscribeService, 'undoTrash' | 'review'>;
  organise: Pick<OrganiseService, 'remove' | 'releaseScreened'>;
  now?: () => number;
}

export const BAD_ACTIVITY_CURSOR = 'This cursor is not valid: load the activity again from its first page.';

function encodePosition(row: ActivityRow): string {
  return Buffer.from(JSON.stringify({ t: row.at, i: row.id })).toString('base64url');
}

/** The position a cursor holds; it only ever positions a walk in the caller's own rows, so it is not signed. */
function decodePosition(cursor: string): ActivityPosition {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw new InvalidInputError(BAD_ACTIVITY_CURSOR);
  try {
    const { t, i, ...rest } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (
      Object.keys(rest).length === 0 &&
      Number.isSafeInteger(t) &&
      typeof i === 'string' &&
      i.length <= 100
    ) {
      return { at: t as number, id: i };
    }
  } catch {
    // Not JSON: refused below.
  }
  throw new InvalidInputError(BAD_ACTIVITY_CURSOR);
}

export function toEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    // A bulk Keep's items are only ever read under their bulk.
    kind: row.kind === 'keep' ? 'bulk' : row.kind,
    subscriptionId: row.senderId,
    address: row.address,
    senderName: row.senderName,
    at: new Date(row.at).toISOString(),
    moved: row.moved,
    undone: row.undone,
    undoable: !row.undone && row.wayBack,
    by: row.byCheck ? 'check' : 'you',
    bulk: row.bulk,
  };
}

export function createActivityService({ repo, unsubscribe, organise, now = Date.now }: ActivityDeps) {
  /** One sender's action undone through the screens' own call; answers how many messages came back. */
  async function undoOne(userId: string, kind: ActivityRowKind, senderId: string): Promise<number> {
    switch (kind) {
      case 'block':
      case 'unsubscribe':
        return unsubscribe.undoTrash(userId, senderId);
      case 'rule':
        return (await organise.remove(userId, senderId, true)).restored;
      case 'screener':
        return organise.releaseScreened(userId, senderId);
      case 'keep':
        await unsubscribe.review(userId, senderId);
        return 0;
      default:
        return 0;
    }
  }

  /** Each of the bulk's items not undone yet; one that fails stops the rest, which a retry goes on with. */
  async function undoBulk(userId: string, bulkId: string): Promise<number> {
    let restored = 0;
    for (const item of await repo.openItems(bulkId)) {
      restored += await undoOne(userId, item.kind, item.senderId);
    }
    return restored;
  }

  return {
    /** GET /activity */
    async list(userId: string, query: { limit?: number; cursor?: string }): Promise<ActivityResponse> {
      const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
      const after = query.cursor ? decodePosition(query.cursor) : null;
      const rows = await repo.page(userId, limit + 1, after);
      const page = rows.slice(0, limit);
      return {
        data: page.map(toEntry),
        nextCursor: rows.length > limit ? encodePosition(page[page.length - 1]!) : null,
      };
    },

    /**
     * POST /activity/:id/undo. Undone already (a double click, or undone from elsewhere): the entry as it
     * is, nothing moved. Nothing left to undo (the rule or block removed since, the mail's records gone):
     * 409. A failure leaves the entry open for a retry.
     */
    async undo(userId: string, id: string): Promise<UndoActivityResponse> {
      const row = await repo.find(userId, id);
      if (!row) throw new NotFoundError(ACTIVITY_MESSAGES.notFound);
      if (row.undone) return { entry: toEntry(row), restored: 0 };
      if (!row.wayBack) throw new ConflictError(ACTIVITY_MESSAGES.nothingLeft);
      if (!(await repo.claim(userId, id, now()))) {
        // Another undo claimed it first: the entry as that one leaves it.
        const current = await repo.find(userId, id);
        return { entry: toEntry(current ?? row), restored: 0 };
      }
      let restored: number;
      try {
        restored =
          row.kind === 'bulk' ? await undoBulk(userId, id) : await undoOne(userId, row.kind, row.senderId!);
      } catch (error) {
        await repo.unclaim(id);
        throw error;
      }
      const after = await repo.find(userId, id);
      return { entry: toEntry(after ?? row), restored };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
