import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up } from './0015_sender_names_cut_to_the_cap.js';
import { migrateToLatest } from './index.js';

describe('0015: sender names cut to the cap', () => {
  it('cuts names stored before the cap and leaves the others', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await migrateToLatest(db);
    await sql`insert into users (id, email, created_at) values ('u', 'u@example.com', 1)`.execute(db);
    await sql`insert into mailboxes (id, user_id, email, provider, created_at)
      values ('m', 'u', 'u@example.com', 'yahoo', 1)`.execute(db);
    const names: Record<string, string> = {
      long: 'é'.repeat(200_000),
      // The 256th unit is the first half of a pair: the pair goes whole.
      pair: `${'a'.repeat(255)}😀b`,
      spaced: `${'a'.repeat(250)}      ${'b'.repeat(10)}`,
      within: '😀'.repeat(128),
      short: 'Weekly News',
    };
    for (const [id, name] of Object.entries(names)) {
      await sql`insert into senders (id, user_id, mailbox_id, address, sender_name, created_at, updated_at)
        values (${id}, 'u', 'm', ${`${id}@example.com`}, ${name}, 1, 1)`.execute(db);
    }
    await up(db);
    const { rows } = await sql<{
      id: string;
      sender_name: string;
    }>`select id, sender_name from senders`.execute(db);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.sender_name]))).toEqual({
      long: 'é'.repeat(256),
      pair: 'a'.repeat(255),
      spaced: 'a'.repeat(250),
      within: '😀'.repeat(128),
      short: 'Weekly News',
    });
    await db.destroy();
  });
});
