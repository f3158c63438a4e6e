import { randomUUID } from 'node:crypto';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '#server/db/index.js';
import { preparedQueries } from '#server/db/prepared.js';
import type { MailboxesTable, MailboxProvider } from '#server/db/schema.js';
import type { MailboxCredentials, MailServer } from '#server/mail/index.js';
import type { MovedMessage, SyncState } from '#server/mail/provider.js';
import type { AppPasswordMailbox, Mailbox, MailboxStatus } from './mailbox.js';
import { followMoves } from './moves-repository.js';

export { followMoves };

// SQL of mailboxes, and the three things about a mailbox other features need too, written once here:
// the stored row made into a Mailbox (and the credentials of one joined to other rows), the re-auth
// marker, and deleting what a mailbox holds.

/** The endpoint the user named, from the columns that hold it (an IMAP server: the only kind stored). */
function serverOf(row: Pick<MailboxesTable, 'imap_host' | 'imap_port' | 'imap_secure'>): MailServer | null {
  if (!row.imap_host || row.imap_port === null) return null;
  return { kind: 'imap', host: row.imap_host, port: row.imap_port, secure: row.imap_secure === 1 };
}

/** The columns that hold an endpoint (all null: the provider's own). */
function serverColumns(server: MailServer | null) {
  const imap = server?.kind === 'imap' ? server : null;
  return {
    imap_host: imap?.host ?? null,
    imap_port: imap?.port ?? null,
    imap_secure: imap ? (imap.secure ? 1 : 0) : null,
  };
}

/** A stored mailbox row as the features see it: the one place its columns are read. */
export function toMailbox(row: Selectable<MailboxesTable>): Mailbox {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    provider: row.provider,
    status: row.status,
    secret: row.secret,
    server: serverOf(row),
    syncState: row.sync_state ? (JSON.parse(row.sync_state) as SyncState) : null,
    scanComplete: row.scan_complete === 1,
    lastScannedAt: row.last_scanned_at === null ? null : Number(row.last_scanned_at),
    lastError: row.last_error,
    screener: row.screener === 1,
    createdAt: Number(row.created_at),
  };
}

/**
 * The columns a mail adapter needs (see `mailboxCredentials`), and the status that says whether it may be
 * used, for queries that join a mailbox to its senders or messages. The id comes as `mailbox_id`, so such
 * a query keeps its own `id`.
 */
export const MAILBOX_CREDENTIALS = [
  'mailboxes.id as mailbox_id',
  'mailboxes.provider',
  'mailboxes.email',
  'mailboxes.secret',
  'mailboxes.imap_host',
  'mailboxes.imap_port',
  'mailboxes.imap_secure',
  'mailboxes.status',
] as const;

export interface MailboxCredentialsRow {
  mailbox_id: string;
  provider: MailboxProvider;
  email: string;
  secret: string | null;
  imap_host: string | null;
  imap_port: number | null;
  imap_secure: number | null;
}

/**
 * What the adapter factory takes, from a row selected with MAILBOX_CREDENTIALS. Its `id` is the mailbox's
 * (a refresh token the provider rotates is saved on that row), never the id of the sender or message joined.
 */
export function mailboxCredentials(row: MailboxCredentialsRow): MailboxCredentials {
  return {
    id: row.mailbox_id,
    provider: row.provider,
    email: row.email,
    secret: row.secret,
    server: serverOf(row),
  };
}

/** The ids of some mailboxes: a list, or a query selecting `id` from mailboxes (all of a user's). */
export type MailboxIds = readonly string[] | SelectQueryBuilder<Database, 'mailboxes', { id: string }>;

/**
 * Deletes what is stored under mailboxes (message references, counted message ids, senders with their
 * receipts and flights by cascade), and the mailboxes themselves unless `keepMailboxes`. Runs on the
 * caller's transaction, so it commits with the rest of the caller's change.
 */
export async function deleteMailboxContents(
  trx: Db,
  ids: MailboxIds,
  options: { keepMailboxes?: boolean } = {},
): Promise<void> {
  await trx.deleteFrom('messages').where('mailbox_id', 'in', ids).execute();
  await trx.deleteFrom('scanned_messages').where('mailbox_id', 'in', ids).execute();
  await trx.deleteFrom('senders').where('mailbox_id', 'in', ids).execute();
  if (!options.keepMailboxes) await trx.deleteFrom('mailboxes').where('id', 'in', ids).execute();
}

/**
 * Whether the user may have one more mailbox under `limit` (null: no limit). Locks the user's row first
 * (PostgreSQL waits for a concurrent add of the same user; SQLite runs one write at a time), so two adds
 * racing on the free trial cannot both pass the count.
 */
async function belowMailboxLimit(trx: Db, userId: string, limit: number | null): Promise<boolean> {
  if (limit === null) return true;
  await trx.updateTable('users').set({ plan: sql`plan` }).where('id', '=', userId).execute();
  const row = await trx
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n) < limit;
}

export function createMailboxesRepository(db: Db) {
  const prepared = preparedQueries(db);
  /** Sets the status, and the last error when one is given. */
  async function setStatus(mailboxId: string, status: MailboxStatus, lastError?: string): Promise<void> {
    await db
      .updateTable('mailboxes')
      .set({ status, ...(lastError === undefined ? {} : { last_error: lastError }) })
      .where('id', '=', mailboxId)
      .execute();
  }

  return {
    async findByEmail(
      userId: string,
      email: string,
    ): Promise<{ id: string; provider: MailboxProvider } | undefined> {
      return db
        .selectFrom('mailboxes')
        .select(['id', 'provider'])
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .executeTakeFirst();
    },

    /** A new IMAP mailbox; false (nothing stored) when the user is at `limit` mailboxes. */
    async insertImap(
      id: string,
      userId: string,
      mailbox: AppPasswordMailbox,
      now: number,
      limit: number | null = null,
    ): Promise<boolean> {
      const { server, ...fields } = mailbox;
      return db.transaction().execute(async (trx) => {
        if (!(await belowMailboxLimit(trx, userId, limit))) return false;
        await trx
          .insertInto('mailboxes')
          .values({
            id,
            user_id: userId,
            ...fields,
            ...serverColumns(server),
            status: 'active',
            created_at: now,
          })
          .execute();
        return true;
      });
    },

    /** The same mailbox connected again: new credentials, and what was found is kept. */
    async reconnectImap(id: string, mailbox: AppPasswordMailbox): Promise<void> {
      const { server, ...fields } = mailbox;
      await db
        .updateTable('mailboxes')
        .set({ ...fields, ...serverColumns(server), status: 'active', last_error: null })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Stores an OAuth mailbox (Gmail, Outlook) with its sealed refresh token, in one transaction: a new row,
     * or the existing one of that address given the new grant. When the address was connected through
     * another provider before, what was found there is deleted and the scan starts over, because the stored
     * checkpoint and message ids belong to the other provider's adapter and would count the mail twice.
     */
    async upsertOAuth(
      userId: string,
      grant: { provider: MailboxProvider; email: string; secret: string },
      now: number,
      limit: number | null = null,
    ): Promise<{ mailboxId: string; created: boolean } | { limited: true }> {
      return db.transaction().execute(async (trx) => {
        const find = () =>
          trx
            .selectFrom('mailboxes')
            .select(['id', 'provider'])
            .where('user_id', '=', userId)
            .where('email', '=', grant.email);
        const existing = await find().executeTakeFirst();
        if (!existing && !(await belowMailboxLimit(trx, userId, limit))) return { limited: true };
        if (!existing) {
          const newId = randomUUID();
          const inserted = await trx
            .insertInto('mailboxes')
            .values({
              id: newId,
              user_id: userId,
              email: grant.email,
              provider: grant.provider,
              secret: grant.secret,
              status: 'active',
              created_at: now,
            })
            .onConflict((oc) => oc.columns(['user_id', 'email']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1)
            return { mailboxId: newId, created: true };
        }
        // Present (or inserted by a concurrent callback of the same user a moment ago): refresh the grant.
        const row = existing ?? (await find().executeTakeFirstOrThrow());
        const switched = row.provider !== grant.provider;
        // The row before what is under it: on PostgreSQL this waits for the batch of a scan in flight
        // (which takes the row first, scans repository writeBatch), so the delete below sees that batch,
        // and the run's next write finds the mailbox is no longer its provider's and stops.
        await trx
          .updateTable('mailboxes')
          .set({
            provider: grant.provider,
            secret: grant.secret,
            status: 'active',
            last_error: null,
            ...serverColumns(null),
            ...(switched ? { sync_state: null, scan_complete: 0, last_scanned_at: null } : {}),
          })
          .where('id', '=', row.id)
          .execute();
        if (switched) await deleteMailboxContents(trx, [row.id], { keepMailboxes: true });
        return { mailboxId: row.id, created: false };
      });
    },

    /** The user's mailboxes, oldest first. */
    async listForUser(userId: string): Promise<Mailbox[]> {
      const rows = await db
        .selectFrom('mailboxes')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map(toMailbox);
    },

    async byId(mailboxId: string): Promise<Mailbox | undefined> {
      const row = await db.selectFrom('mailboxes').selectAll().where('id', '=', mailboxId).executeTakeFirst();
      return row && toMailbox(row);
    },

    /** Whether the login that connected the mailbox (the latest) proved its address. */
    async setAddressProven(mailboxId: string, proven: boolean): Promise<void> {
      await db
        .updateTable('mailboxes')
        .set({ address_proven: proven ? 1 : 0 })
        .where('id', '=', mailboxId)
        .execute();
    },

    /** Removes a mailbox with everything stored under it, in one transaction. */
    async remove(mailboxId: string): Promise<void> {
      await db.transaction().execute((trx) => deleteMailboxContents(trx, [mailboxId]));
    },

    /** The first mailbox of the user that needs them to sign in again, if any. */
    async firstNeedingReauth(
      userId: string,
    ): Promise<{ provider: MailboxProvider; email: string } | undefined> {
      // Asked by every list call (built once, server/db/prepared.ts).
      const [mailbox] = await prepared('first needing reauth', { userId }, (v) =>
        db
          .selectFrom('mailboxes')
          .select(['provider', 'email'])
          .where('user_id', '=', v.userId)
          .where('status', '=', 'reauth')
          .limit(1),
      );
      return mailbox;
    },

    /**
     * Records messages the product moved to the trash for a sender (a block, the block's rule at a later
     * check, an unsubscribe asked to), so that undoing the block moves every one of them back. A message
     * recorded twice keeps its first origin.
     */
    /** Messages moved back by an undo (of a block, a rule, the Screener): see followMoves. */
    async followMoved(mailboxId: string, moved: readonly MovedMessage[]): Promise<void> {
      if (moved.length === 0) return;
      await db.transaction().execute((trx) => followMoves(trx, mailboxId, moved, 'back'));
    },

    async recordTrashed(
      mailboxId: string,
      address: string,
      moved: ReadonlyArray<{ id: string; origin: string; previous?: string }>,
      at: number,
    ): Promise<void> {
      // The product's references follow the mail into the trash, out of the counts and the lists.
      const followed = moved.filter((m): m is MovedMessage => m.previous !== undefined);
      if (followed.length > 0) {
        await db.transaction().execute((trx) => followMoves(trx, mailboxId, followed, 'trash'));
      }
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < moved.length; i += 200) {
        await db
          .insertInto('trashed_messages')
          .values(
            moved.slice(i, i + 200).map((m) => ({
              mailbox_id: mailboxId,
              address,
              trash_id: m.id.slice(0, 1000),
              origin: m.origin.slice(0, 1000),
              created_at: at,
            })),
          )
          .onConflict((oc) => oc.columns(['mailbox_id', 'trash_id']).doNothing())
          .execute();
      }
    },

    /** The mailbox's password or grant stopped working: nothing uses it until the user signs in again. */
    async markReauth(mailboxId: string, lastError?: string): Promise<void> {
      await setStatus(mailboxId, 'reauth', lastError);
    },

    setStatus,

    /** A new sealed secret (a refresh token the provider rotated while the mailbox was in use). */
    /** Compare and swap: the new secret only over `replacing`; false when the row holds another. */
    async saveSecret(mailboxId: string, sealed: string, replacing: string | null): Promise<boolean> {
      const swapped = await db
        .updateTable('mailboxes')
        .set({ secret: sealed })
        .where('id', '=', mailboxId)
        .where((eb) => (replacing === null ? eb('secret', 'is', null) : eb('secret', '=', replacing)))
        .executeTakeFirst();
      return Number(swapped.numUpdatedRows) === 1;
    },
  };
}

export type MailboxesRepository = ReturnType<typeof createMailboxesRepository>;
