import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

// PostgreSQL schemas the integration tier creates (one per test app, one per pg-boss queue) are dropped
// once, after every file has run, and not by the file that made them. Files run two at a time, and
// Kysely's migrator looks for its table among every schema's tables (has_schema_privilege on each):
// a schema another file dropped meanwhile failed that look with "schema … does not exist".
// globalSetup (global-setup.ts) sets TEST_SCHEMA_LIST to a file each worker appends to.

/** A fresh schema name, registered to be dropped at the end of the run. */
export function testSchema(prefix: string): string {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  registerSchema(name);
  return name;
}

/** Registers a schema some other code named (a job schema beside an app's schema). */
export function registerSchema(name: string): void {
  const list = process.env.TEST_SCHEMA_LIST;
  if (list) appendFileSync(list, `${name}\n`);
}

/** Drops every registered schema (globalSetup's teardown) and removes the list. */
export async function dropRegisteredSchemas(list: string, databaseUrl: string | undefined): Promise<void> {
  let names: string[] = [];
  try {
    names = [...new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean))];
  } catch {
    return;
  }
  rmSync(list, { force: true });
  if (!databaseUrl || names.length === 0) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const name of names) {
      if (!/^[a-z0-9_]+$/.test(name)) continue;
      await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    }
  } finally {
    await client.end();
  }
}

const LIST_PREFIX = 'inbox-genie-schemas-';

/** This run's list (named by the process that drops it). */
export function schemaListPath(): string {
  return path.join(tmpdir(), `${LIST_PREFIX}${process.pid}.txt`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops the schemas of earlier runs that were killed before their teardown (their process is gone). */
export async function dropOrphanedSchemas(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(LIST_PREFIX.length, -'.txt'.length));
    if (!name.startsWith(LIST_PREFIX) || !Number.isInteger(pid) || alive(pid)) continue;
    await dropRegisteredSchemas(path.join(tmpdir(), name), databaseUrl);
  }
}
