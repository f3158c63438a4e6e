import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, sql } from 'kysely';
import type { BulkAction } from '#contract/api.js';
import type { Database, Db } from '#server/db/index.js';
import type { ActivityRowKind } from '#server/db/schema.js';

export type { ActivityRowKind };

// The SQL of the activity history (docs/decisions/101-activity-history-and-counts-that-follow.md): rows
// written where mail moves, read newest first with whether their way back still exists, and settled
// (undone) by every path that undoes them.

/** What a service records: the sender acted on (its user read from it), or a bulk's own row. */
export type ActivityRecord =
  | {
      kind: Exclude<ActivityRowKind, 'bulk'>;
      senderId: string;
      moved: number;
      byCheck?: boolean;
      /** An item of this bulk. */
      bulkId?: string;
    }
  | { kind: 'bulk'; id: string; userId: string; action: BulkAction; total: number };

/** A row as the screens read it: the sender's name and whether it can still be undone. */
export interface ActivityRow {
  id: string;
  kind: ActivityRowKind;
  senderId: string | null;
  address: string | null;
  senderName: string | null;
  at: number;
  moved: number;
  undone: boolean;
  /** Its way back exists: the block or its trashed mail, the rule, the Screener's moves, open bulk items. */
  wayBack: boolean;
  byCheck: boolean;
  bulk: { action: BulkAction; senders: number } | null;
}

/** Where a page starts: after the row of this time and id (newest first). */
export interface ActivityPosition {
  at: number;
  id: string;
}

const truthy = (v: unknown): boolean => v === true || Number(v) === 1;

/** The columns of a listed row, with its way back worked out beside it (both dialects). */
function rowSelection(eb: ExpressionBuilder<Database, 'activity' | 'senders'>) {
  const own = (kind: string) => eb('activity.kind', '=', kind as ActivityRowKind);
  // A row of the sender's mailbox and address in a table of what blocks did (the rule, the trashed mail).
  const ofSender = (table: 'trashed_messages' | 'block_rules') =>
    eb.exists(
      eb
        .selectFrom(table)
        .select(sql`1`.as('one'))
        .whereRef(`${table}.mailbox_id`, '=', 'senders.mailbox_id')
        .whereRef(`${table}.address`, '=', 'senders.address'),
    );
  const trashed = ofSender('trashed_messages');
  const blocked = ofSender('block_rules');
  const ruled = eb.exists(
    eb
      .selectFrom('sender_rules as r')
      .select(sql`1`.as('one'))
      .whereRef('r.sender_id', '=', 'activity.sender_id'),
  );
  const screened = eb.exists(
    eb
      .selectFrom('moved_messages as m')
      .select(sql`1`.as('one'))
      .whereRef('m.sender_id', '=', 'activity.sender_id')
      .where('m.cause', '=', 'screener'),
  );
  const openItems = eb.exists(
    eb
      .selectFrom('activity as i')
      .select(sql`1`.as('one'))
      .whereRef('i.bulk_id', '=', 'activity.id')
      .where('i.undone_at', 'is', null),
  );
  return [
    'activity.id',
    'activity.kind',
    'activity.sender_id',
    'activity.at',
    'activity.moved',
    'activity.undone_at',
    'activity.by_check',
    'activity.bulk_action',
    'activity.bulk_total',
    'senders.address',
    'senders.sender_name',
    eb
      .case()
      .when(eb.or([own('block')]))
      .then(eb.or([blocked, trashed]))
      .when(own('unsubscribe'))
      .then(trashed)
      .when(own('rule'))
      .then(ruled)
      .when(own('screener'))
      .then(screened)
      .when(own('bulk'))
      .then(openItems)
      .else(sql<boolean>`${sql.lit(false)}`)
      .end()
      .as('way_back'),
    eb
      .selectFrom('activity as i')
      .select((e) => e.fn.coalesce(e.fn.sum<number>('i.moved'), sql<number>`0`).as('n'))
      .whereRef('i.bulk_id', '=', 'activity.id')
      .as('items_moved'),
  ] as const;
}

export function createActivityRepository(db: Db) {
  const listed = () =>
    db
      .selectFrom('activity')
      .leftJoin('senders', 'senders.id', 'activity.sender_id')
      .select((eb) => rowSelection(eb));

  type Listed = Awaited<ReturnType<ReturnType<typeof listed>['execute']>>[number];
  const toRow = (r: Listed): ActivityRow => ({
    id: r.id,
    kind: r.kind,
    senderId: r.sender_id,
    address: r.address,
    senderName: r.sender_name,
    at: Number(r.at),
    moved: r.kind === 'bulk' ? Number(r.items_moved ?? 0) : Number(r.moved),
    undone: r.undone_at !== null,
    wayBack: truthy(r.way_back),
    byCheck: Number(r.by_check) === 1,
    bulk: r.bulk_action ? { action: r.bulk_action, senders: Number(r.bulk_total ?? 0) } : null,
  });

  return {
    /** Writes one row; answers its id. A sender's row takes the user of the sender (none: nothing written). */
    async record(entry: ActivityRecord, at: number): Promise<string> {
      if (entry.kind === 'bulk') {
        await db
          .insertInto('activity')
          .values({
            id: entry.id,
            user_id: entry.userId,
            kind: 'bulk',
            bulk_action: entry.action,
            bulk_total: entry.total,
            at,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return entry.id;
      }
      const id = randomUUID();
      await db
        .insertInto('activity')
        .columns(['id', 'user_id', 'kind', 'sender_id', 'bulk_id', 'by_check', 'moved', 'at'])
        .expression((eb) =>
          eb
            .selectFrom('senders')
            .select([
              eb.val(id).as('id'),
              'senders.user_id',
              eb.val(entry.kind).as('kind'),
              'senders.id',
              eb.val(entry.bulkId ?? null).as('bulk_id'),
              eb.val(entry.byCheck ? 1 : 0).as('by_check'),
              eb.val(entry.moved).as('moved'),
              eb.val(at).as('at'),
            ])
            .where('senders.id', '=', entry.senderId),
        )
        .execute();
      return id;
    },

    /** One page of the user's history, newest first: single actions and bulks (a bulk's items are under it). */
    async page(userId: string, limit: number, after: ActivityPosition | null): Promise<ActivityRow[]> {
      let q = listed().where('activity.user_id', '=', userId).where('activity.bulk_id', 'is', null);
      if (after) {
        q = q.where((eb) =>
          eb.or([
            eb('activity.at', '<', after.at),
            eb.and([eb('activity.at', '=', after.at), eb('activity.id', '<', after.id)]),
          ]),
        );
      }
      const rows = await q
        .orderBy('activity.at', 'desc')
        .orderBy('activity.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },

    /** The user's own row (a bulk's item too); undefined for another user's id. */
    async find(userId: string, id: string): Promise<ActivityRow | undefined> {
      const row = await listed()
        .where('activity.user_id', '=', userId)
        .where('activity.id', '=', id)
        .executeTakeFirst();
      return row && toRow(row);
    },

    /** The items of a bulk not undone yet, in the order they ran. */
    async openItems(bulkId: string): Promise<Array<{ kind: ActivityRowKind; senderId: string }>> {
      const rows = await db
        .selectFrom('activity')
        .select(['kind', 'sender_id'])
        .where('bulk_id', '=', bulkId)
        .where('undone_at', 'is', null)
        .where('sender_id', 'is not', null)
        .orderBy('at')
        .execute();
      return rows.map((r) => ({ kind: r.kind, senderId: r.sender_id as string }));
    },

    /** Marks the row undone unless it is already: false when another undo got there first. */
    async claim(userId: string, id: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('activity')
        .set({ undone_at: at })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('undone_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** An undo that failed: the row is open again, for the user to retry. */
    async unclaim(id: string): Promise<void> {
      await db.updateTable('activity').set({ undone_at: null }).where('id', '=', id).execute();
    },

    /** Every open row of these kinds for the sender is undone (whichever path undid it). */
    async settle(senderId: string, kinds: readonly ActivityRowKind[], at: number): Promise<void> {
      await db
        .updateTable('activity')
        .set({ undone_at: at })
        .where('sender_id', '=', senderId)
        .where('kind', 'in', kinds)
        .where('undone_at', 'is', null)
        .execute();
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;

/** What the services that move mail are given: write a row, settle a sender's rows. */
export interface ActivityLog {
  record(entry: ActivityRecord): Promise<void>;
  settle(senderId: string, kinds: readonly ActivityRowKind[]): Promise<void>;
}

export function activityLog(repo: ActivityRepository, now: () => number = Date.now): ActivityLog {
  return {
    record: async (entry) => {
      await repo.record(entry, now());
    },
    settle: (senderId, kinds) => repo.settle(senderId, kinds, now()),
  };
}
