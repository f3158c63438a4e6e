import type { Kysely, Selectable } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { Database } from '#server/db/schema.js';
import { keyset, PAGE } from './values.js';

// The export's generic table reader: a table described once (tables.ts: its columns, whose rows they are,
// its paging key and how a row becomes the file's item) is read by keyset, a page of PAGE rows per query,
// `SELECT columns FROM table WHERE owner = ? AND key > ? ORDER BY key LIMIT PAGE`, so a page costs the same
// at the start and at the end of 50,000 message references.

type TableName = keyof Database;
type ColumnOf<T extends TableName> = keyof Selectable<Database[T]> & string;
/** A row of table T as read: the described columns only. */
export type TableRow<T extends TableName, C extends ColumnOf<T>> = Pick<Selectable<Database[T]>, C>;

/**
 * Whose rows a table holds: the user's (user_id), or those of each of the user's mailboxes (mailbox_id,
 * one mailbox after another by id) or of each of the user's bulk actions (bulk_id, bulk after bulk by id).
 */
export type Owner = 'user_id' | 'mailbox_id' | 'bulk_id';

export interface TableExport<T extends TableName, C extends ColumnOf<T>, Item> {
  table: T;
  owner: Owner;
  /** Named one by one: secrets and bookkeeping are never selected. */
  columns: readonly C[];
  /** The keyset: unique within an owner; pages follow the previous page's last value of it. */
  key: C;
  /** A value below every key ('' for text, -1 for positions). */
  start: string | number;
  item: (row: TableRow<T, C>) => Item;
}

/** A table's description, its row type checked against the schema (no SQL is run here). */
export function tableExport<T extends TableName, C extends ColumnOf<T>, Item>(
  description: TableExport<T, C, Item>,
): TableExport<T, C, Item> {
  return description;
}

type Key = string | number;
/** What the query needs of a description. */
type Described = { table: string; owner: Owner; columns: readonly string[]; key: string };

export function createTableReader(db: Db) {
  // The descriptions are data (a table and column names), checked against the schema by tableExport; the
  // query built from them goes through an untyped view of the same connection.
  const untyped = db as unknown as Kysely<Record<string, Record<string, Key | null>>>;

  function page(d: Described, ownerId: string, after: Key) {
    return untyped
      .selectFrom(d.table)
      .select(d.columns)
      .where(d.owner, '=', ownerId)
      .where(d.key, '>', after)
      .orderBy(d.key)
      .limit(PAGE)
      .execute();
  }

  /** The ids whose rows a table's owner column holds, in the order they are exported. */
  async function* owners(owner: Owner, userId: string): AsyncGenerator<string> {
    if (owner === 'user_id') {
      yield userId;
    } else if (owner === 'mailbox_id') {
      const rows = await db
        .selectFrom('mailboxes')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      for (const row of rows) yield row.id;
    } else {
      const bulkIds = keyset(
        (after: string) =>
          db
            .selectFrom('bulk_actions')
            .select('id')
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(PAGE)
            .execute(),
        (b) => b.id,
        '',
      );
      for await (const rows of bulkIds) for (const row of rows) yield row.id;
    }
  }

  return {
    /** Pages of a described table's items for one user, owner after owner. */
    async *pages<T extends TableName, C extends ColumnOf<T>, Item>(
      d: TableExport<T, C, Item>,
      userId: string,
    ): AsyncGenerator<Item[]> {
      for await (const ownerId of owners(d.owner, userId)) {
        const rows = keyset(
          (after: Key) => page(d, ownerId, after),
          (row) => row[d.key] as Key,
          d.start,
        );
        for await (const found of rows) yield found.map((row) => d.item(row as unknown as TableRow<T, C>));
      }
    },
  };
}
