import { sql } from 'kysely';
import type { BulkAction, BulkItemResult, BulkOutcome } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import { MAX_URIS } from '#server/mail/headers/list-unsubscribe.js';
import type { Bulk, BulkItem, BulkSender, PendingBulkItem } from './bulk.js';

// The SQL of bulk actions: the bulk, one item per requested sender in the order asked (outcome null until
// done), and what the runner needs to know of the senders to spread its requests.

/** Rows per INSERT or IN list: well under SQLite's bound-parameter limit. */
const CHUNK = 200;

/**
 * A stored URI list, cut to the parser's caps. Anything unreadable is an empty list: the lists only spread
 * the requests here, and a bad one must not stop the bulk (the single action reads them again).
 */
function parseUris(json: string): string[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list)
      ? list.filter((u): u is string => typeof u === 'string').slice(0, MAX_URIS)
      : [];
  } catch {
    return [];
  }
}

const BULK_COLUMNS = ['id', 'user_id', 'action', 'move_to_trash', 'total', 'finished_at'] as const;

function toBulk(row: {
  id: string;
  user_id: string;
  action: BulkAction;
  move_to_trash: number;
  total: number;
  finished_at: number | null;
}): Bulk {
  return {
    id: row.id,
    userId: row.user_id,
    action: row.action,
    moveToTrash: TRASH_CHOICE[row.move_to_trash as keyof typeof TRASH_CHOICE],
    total: Number(row.total),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/**
 * bulk_actions.move_to_trash: 1 also trash, -1 never trash, 0 the spec's default (absent; rows from before
 * the choice had three values read the same way they ran).
 */
const TRASH_CHOICE = { 1: true, [-1]: false, 0: undefined } as const;

export function createBulkRepository(db: Db) {
  return {
    /**
     * Creates the bulk and its items in one transaction; `running` instead when the user already has an
     * unfinished one (the partial unique index decides, so two POSTs at once cannot both start one).
     */
    async create(
      bulk: { id: string; userId: string; action: BulkAction; moveToTrash?: boolean; ids: string[] },
      at: number,
    ): Promise<{ created: true } | { created: false; running: string | null }> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('bulk_actions')
          .values({
            id: bulk.id,
            user_id: bulk.userId,
            action: bulk.action,
            move_to_trash: bulk.moveToTrash === true ? 1 : bulk.moveToTrash === false ? -1 : 0,
            total: bulk.ids.length,
            created_at: at,
            finished_at: null,
            runner_until: null,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
          const running = await trx
            .selectFrom('bulk_actions')
            .select('id')
            .where('user_id', '=', bulk.userId)
            .where('finished_at', 'is', null)
            .executeTakeFirst();
          return { created: false, running: running?.id ?? null };
        }
        for (let i = 0; i < bulk.ids.length; i += CHUNK) {
          await trx
            .insertInto('bulk_items')
            .values(
              bulk.ids.slice(i, i + CHUNK).map((id, n) => ({
                bulk_id: bulk.id,
                position: i + n,
                subscription_id: id,
                outcome: null,
                result: null,
                done_at: null,
              })),
            )
            .execute();
        }
        return { created: true };
      });
    },

    async find(bulkId: string): Promise<Bulk | undefined> {
      const row = await db
        .selectFrom('bulk_actions')
        .select(BULK_COLUMNS)
        .where('id', '=', bulkId)
        .executeTakeFirst();
      return row && toBulk(row);
    },

    /** The user's own bulk, or nothing (another user's id reads as unknown). */
    async findOwn(userId: string, bulkId: string): Promise<Bulk | undefined> {
      const row = await db
        .selectFrom('bulk_actions')
        .select(BULK_COLUMNS)
        .where('id', '=', bulkId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && toBulk(row);
    },

    async items(bulkId: string): Promise<BulkItem[]> {
      const rows = await db
        .selectFrom('bulk_items')
        .select(['position', 'subscription_id', 'outcome', 'result'])
        .where('bulk_id', '=', bulkId)
        .orderBy('position')
        .execute();
      return rows.map((r) => ({
        position: r.position,
        subscriptionId: r.subscription_id,
        result: r.outcome && r.result ? (JSON.parse(r.result) as BulkItemResult) : null,
      }));
    },

    async pendingItems(bulkId: string): Promise<PendingBulkItem[]> {
      const rows = await db
        .selectFrom('bulk_items')
        .select(['position', 'subscription_id'])
        .where('bulk_id', '=', bulkId)
        .where('outcome', 'is', null)
        .orderBy('position')
        .execute();
      return rows.map((r) => ({ position: r.position, subscriptionId: r.subscription_id }));
    },

    /**
     * Records an item's outcome once: false when it already had one (nothing is written then). The last
     * outcome closes the bulk in the same transaction, so a reader never sees every item done and the bulk
     * still open (a new bulk refused as "still running", a status without its end). The bulk's row is
     * updated first: on PostgreSQL that lock puts the outcomes of one bulk in a line, so the last one
     * sees all the others; SQLite writes one transaction at a time anyway.
     */
    async finishItem(
      bulkId: string,
      item: { position: number; result: BulkItemResult },
      at: number,
    ): Promise<boolean> {
      const { position, result } = item;
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('bulk_actions')
          .set((eb) => ({ total: eb.ref('total') }))
          .where('id', '=', bulkId)
          .execute();
        const updated = await trx
          .updateTable('bulk_items')
          .set({ outcome: result.outcome, result: JSON.stringify(result), done_at: at })
          .where('bulk_id', '=', bulkId)
          .where('position', '=', position)
          .where('outcome', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        const left = await trx
          .selectFrom('bulk_items')
          .select('position')
          .where('bulk_id', '=', bulkId)
          .where('outcome', 'is', null)
          .limit(1)
          .executeTakeFirst();
        if (!left) {
          await trx
            .updateTable('bulk_actions')
            .set({ finished_at: at })
            .where('id', '=', bulkId)
            .where('finished_at', 'is', null)
            .execute();
        }
        return true;
      });
    },

    async doneCount(bulkId: string): Promise<number> {
      const row = await db
        .selectFrom('bulk_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('bulk_id', '=', bulkId)
        .where('outcome', 'is not', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async outcomeCounts(bulkId: string) {
      const rows = await db
        .selectFrom('bulk_items')
        .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
        .where('bulk_id', '=', bulkId)
        .where('outcome', 'is not', null)
        .groupBy('outcome')
        .execute();
      return rows.map((r) => ({ outcome: r.outcome as BulkOutcome, n: Number(r.n) }));
    },

    async finish(bulkId: string, at: number): Promise<void> {
      await db
        .updateTable('bulk_actions')
        .set({ finished_at: at })
        .where('id', '=', bulkId)
        .where('finished_at', 'is', null)
        .execute();
    },

    // ---- one runner per bulk, across instances --------------------------------------------------------

    /** Takes the bulk for this runner unless another one holds it (its lease still running). */
    async claimRunner(bulkId: string, now: number, leaseMs: number): Promise<boolean> {
      const updated = await db
        .updateTable('bulk_actions')
        .set({ runner_until: now + leaseMs })
        .where('id', '=', bulkId)
        .where('finished_at', 'is', null)
        .where((eb) => eb.or([eb('runner_until', 'is', null), eb('runner_until', '<', now)]))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    async renewRunner(bulkId: string, until: number): Promise<void> {
      await db
        .updateTable('bulk_actions')
        .set({ runner_until: until })
        .where('id', '=', bulkId)
        .where('runner_until', 'is not', null)
        .execute();
    },

    async releaseRunner(bulkId: string): Promise<void> {
      await db.updateTable('bulk_actions').set({ runner_until: null }).where('id', '=', bulkId).execute();
    },

    /** Every runner's lease dropped (SQLite at start: this process is the only one, so none is alive). */
    async releaseAllRunners(): Promise<void> {
      await db
        .updateTable('bulk_actions')
        .set({ runner_until: null })
        .where('finished_at', 'is', null)
        .execute();
    },

    /** Bulks a stopped process left with items to do. */
    async unfinished(): Promise<string[]> {
      const rows = await db
        .selectFrom('bulk_actions')
        .select('id')
        .where('finished_at', 'is', null)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.id);
    },

    /** What spreading the requests needs to know of the user's senders among `ids` (others are absent). */
    async senders(userId: string, ids: readonly string[]): Promise<BulkSender[]> {
      const out: BulkSender[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await db
          .selectFrom('senders')
          .select(['id', 'mailbox_id', 'one_click', 'unsubscribe_http', 'unsubscribe_mailto'])
          .where('user_id', '=', userId)
          .where('is_subscription', '=', 1)
          .where('id', 'in', ids.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) {
          out.push({
            id: r.id,
            mailboxId: r.mailbox_id,
            oneClick: r.one_click === 1,
            unsubscribeHttp: parseUris(r.unsubscribe_http),
            unsubscribeMailto: parseUris(r.unsubscribe_mailto),
          });
        }
      }
      return out;
    },

    /** The user's bulks finished before `before`: their rows only served the screen's progress. */
    async pruneFinished(userId: string, before: number): Promise<void> {
      const old = db
        .selectFrom('bulk_actions')
        .select('id')
        .where('user_id', '=', userId)
        .where('finished_at', 'is not', null)
        .where(sql<boolean>`finished_at < ${before}`);
      await db.deleteFrom('bulk_items').where('bulk_id', 'in', old).execute();
      await db
        .deleteFrom('bulk_actions')
        .where('user_id', '=', userId)
        .where('finished_at', 'is not', null)
        .where(sql<boolean>`finished_at < ${before}`)
        .execute();
    },
  };
}

export type BulkRepository = ReturnType<typeof createBulkRepository>;
