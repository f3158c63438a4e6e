import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

export type { Database } from './schema.js';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

// int8 (our epoch-millisecond columns) arrives from pg as a string; every value we store fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL schema to use (tests give each file its own); created when missing. */
  schema?: string;
}

/** Opens SQLite in DATA_DIR by default, PostgreSQL when a URL is given, and migrates to the latest schema. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const schema = options.schema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrateToLatest(db as Kysely<unknown>, schema);
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const sqlite = openPrivately(path.join(options.dataDir, 'inbox-genie.sqlite'));
  // WAL with synchronous=NORMAL: a crash of the process loses nothing committed; only a power cut can
  // lose the last transactions (never corrupts), and commits skip an fsync each.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Deleted rows are overwritten with zeros, not left in free space where later writes of the same page
  // would copy them into the WAL again (an account deletion must not linger).
  sqlite.pragma('secure_delete = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrateToLatest(db as Kysely<unknown>);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** How many distinct statements stay prepared (queries with IN lists of varying length make many). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query again (better-sqlite3 keeps no statements): about 50 µs each, a fifth of
 * what a small API answer costs. Statements are kept by their SQL, least recently used dropped first. A
 * statement still being iterated (a streamed query) is busy and cannot run twice at once: such a query
 * gets a fresh one. SQLite re-prepares a kept statement itself when a migration changed the schema.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SQLite.Statement {
      const kept = statements.get(sql);
      if (kept && !kept.busy) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = sqlite.prepare(sql);
      if (!kept) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}

/**
 * Opens the SQLite file so that it, its -wal and its -shm are the owner's only (0600), whatever the
 * mode of DATA_DIR and the process umask: they hold password hashes, sessions and sealed mailbox
 * secrets. Files an earlier start left open to others are closed first; new ones are created under a
 * umask of 077 (SQLite creates -wal and -shm at the first read in WAL mode, and later gives them the
 * database file's mode when it makes them again).
 */
function openPrivately(file: string): SQLite.Database {
  const files = [file, `${file}-wal`, `${file}-shm`];
  const restrict = () => {
    for (const f of files) if (existsSync(f)) chmodSync(f, 0o600);
  };
  restrict();
  let previous: number | null = null;
  try {
    previous = process.umask(0o077);
  } catch {
    // Worker threads may not change the umask; the chmod below still applies.
  }
  try {
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
    restrict();
    return sqlite;
  } finally {
    if (previous !== null) process.umask(previous);
  }
}

/**
 * After an account deletion on SQLite: copies the write-ahead log into the database and truncates it,
 * so the deleted rows do not linger in the -wal file until later writes happen to overwrite them.
 * Nothing to do on PostgreSQL.
 */
export async function checkpointAfterDelete(db: Db): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
