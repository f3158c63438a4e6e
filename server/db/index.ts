import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations/index.js';
import type { Database } from './schema.js';
import { recountSubscriptionTotals } from './subscription-totals.js';

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
    pool.on('connect', runsNamedStatements);
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
  // A checkpoint copies the WAL into the database file and syncs it (with synchronous=NORMAL, the only
  // sync there is). At SQLite's default interval a scan checkpointed every batch or two, copying the
  // same index pages again each time; ten times that interval copies a page a scan keeps changing ten
  // times less often. The WAL file is cut back after a checkpoint so it does not keep its largest size.
  sqlite.pragma('wal_autocheckpoint = 10000');
  sqlite.pragma('journal_size_limit = 67108864');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrateToLatest(db as Kysely<unknown>);
  await recountSubscriptionTotals(db as Kysely<unknown>);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * SQL texts of the fixed-shape hot queries (db/prepared.ts `preparedQueries`), each with its statement
 * name. On PostgreSQL they run as named prepared statements: each connection parses and plans such a
 * text once, and later calls send only Bind and Execute (the list's first page runs four of them per
 * request, and PostgreSQL shares the machine's cores with the product). Their number is bounded by the
 * code's shapes (never by values), so the statements a connection keeps are too.
 */
const namedStatements = new Map<string, string>();

/** Marks `sql` as a hot query's text (db/prepared.ts). */
export function markNamedStatement(sql: string): void {
  if (!namedStatements.has(sql)) namedStatements.set(sql, `ig_hot_${namedStatements.size + 1}`);
}

/** Runs the marked texts a new pool client is given (Kysely calls `query(text, values)`) as named statements. */
function runsNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === 'string' && Array.isArray(values) && callback === undefined) {
      const name = namedStatements.get(config);
      if (name) return query({ name, text: config, values });
    }
    return callback === undefined ? query(config, values) : query(config, values, callback);
  };
}

/** How many distinct statements stay prepared (queries with IN lists of varying length make many). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query again (better-sqlite3 keeps no statements), a good part of what a small
 * API answer costs. Statements are kept by their SQL, least recently used dropped first. A
 * statement still being iterated (a streamed query) is busy and cannot run twice at once: such a query
 * gets a fresh one. SQLite re-prepares a kept statement itself when a migration changed the schema.
 *
 * Rows of `all()` (every select Kysely runs) are read as arrays and made into objects here: better-sqlite3
 * builds each row object property by property in C++, a large share of reading a page of the list
 * (bench:list); an object literal of the statement's column names, compiled once per statement, makes
 * the same objects (own properties in column order, a later column of the same name winning) for far less.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE) {
  const statements = new Map<string, SQLite.Statement>();
  // A statement's column names can change only with the schema: DDL run through here starts a new
  // generation, and a row maker of an older one is made again.
  let generation = 0;
  const prepare = (sql: string): SQLite.Statement => {
    const statement = sqlite.prepare(sql);
    if (DDL.test(sql)) generation++;
    else if (statement.reader) readRowsRaw(statement, () => generation);
    return statement;
  };
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
      const statement = prepare(sql);
      if (!kept) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}

const DDL = /^\s*(create|alter|drop)\s/i;

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/** Makes `statement.all()` read arrays and turn them into the row objects it would have returned. */
function readRowsRaw(statement: SQLite.Statement, currentGeneration: () => number): void {
  const all = statement.all;
  let maker: { generation: number; width: number; make: RowMaker | null } | null = null;
  statement.all = function (this: SQLite.Statement, ...parameters: unknown[]) {
    statement.raw(true);
    let rows: unknown[][];
    try {
      rows = all.apply(statement, parameters) as unknown[][];
    } finally {
      statement.raw(false);
    }
    if (rows.length === 0) return rows;
    if (maker === null || maker.generation !== currentGeneration() || maker.width !== rows[0]!.length) {
      // Read after the run: a statement SQLite re-prepared for a changed schema names its new columns.
      const names = statement.columns().map((c) => c.name);
      maker = { generation: currentGeneration(), width: names.length, make: rowMaker(names) };
    }
    const make = maker.make;
    // Rare enough to run the query again the usual way.
    if (make === null) return all.apply(statement, parameters);
    for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = make(rows[i]!);
    return rows;
  } as SQLite.Statement['all'];
}

/**
 * `{"name": values[0], …}` compiled for the names (JSON string literals: any name is quoted safely). A
 * column named `__proto__` means something else in a literal than in better-sqlite3's objects: null, the
 * rows of such a statement are better-sqlite3's own.
 */
function rowMaker(names: string[]): RowMaker | null {
  if (names.includes('__proto__')) return null;
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as RowMaker;
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
