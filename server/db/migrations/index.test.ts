import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FORMER_NAMES, migrateToLatest, migrations, otherSchemaVanished } from './index.js';

function memoryDb(): Kysely<unknown> {
  return new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
}

async function ranNames(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  it('brings a new database to the latest schema', async () => {
    const db = memoryDb();
    await migrateToLatest(db);
    expect(await ranNames(db)).toEqual(Object.keys(migrations).sort());
    await db.destroy();
  });

  it('takes a database migrated under the former names without running anything twice', async () => {
    const db = memoryDb();
    const former = new Map(FORMER_NAMES.map(([old, name]) => [name, old]));
    const underFormerNames: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(migrations)) {
      underFormerNames[former.get(name) ?? name] = migration;
    }
    const { error } = await new Migrator({
      db,
      provider: { getMigrations: async () => underFormerNames },
    }).migrateToLatest();
    expect(error).toBeUndefined();
    await migrateToLatest(db);
    expect(await ranNames(db)).toEqual(Object.keys(migrations).sort());
    await db.destroy();
  });

  it('names every migration for what it changes, in order', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z_]+$/);
  });
});

describe('a schema dropped by someone else while the migrator looks', () => {
  const vanished = (schema: string) =>
    Object.assign(new Error(`schema "${schema}" does not exist`), { code: '3F000' });

  it("is looked past when it is another schema, never when it is the database's own", () => {
    expect(otherSchemaVanished(vanished('t_other'), 't_mine')).toBe(true);
    expect(otherSchemaVanished(vanished('t_mine'), 't_mine')).toBe(false);
    expect(otherSchemaVanished(new Error('relation "x" does not exist'), 't_mine')).toBe(false);
    expect(otherSchemaVanished(undefined, 't_mine')).toBe(false);
  });
});
