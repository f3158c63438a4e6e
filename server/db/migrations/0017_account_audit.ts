import type { Kysely } from 'kysely';

// What was done with an account as a whole (each data export), shown back to its user in the export and
// deleted with the account (docs/decisions/081-data-export.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_audit_user')
    .on('account_audit')
    .columns(['user_id', 'created_at'])
    .execute();
}
