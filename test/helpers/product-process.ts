import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';

// The product as its own process (`node --import tsx server/main.ts`), for tests that kill it with
// SIGKILL and start it again on the same data folder.

const root = path.resolve(import.meta.dirname, '../..');

/** Starts the product on `port` with `env` (PATH, PORT and LOG_LEVEL added) and waits for /healthz. */
export async function startProduct(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      LOG_LEVEL: 'error',
      // Senders' DKIM keys from the run's DNS server (test/helpers/dkim.ts).
      ...(process.env.TEST_DNS_SERVERS ? { DNS_SERVERS: process.env.TEST_DNS_SERVERS } : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await untilHealthy(port, child);
  return child;
}

/**
 * Waits until the product started as `child` answers GET /healthz on `port`; throws (with `output`, what
 * the process printed, when the caller keeps it) when it exits first or is not up within 30 s.
 */
export async function untilHealthy(port: number, child: ChildProcess, output = () => ''): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The product exited at start:\n${output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The product did not start within 30 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL: no chance to clean up, as when the machine or the container dies. */
export async function killProduct(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Reads the product's SQLite file of `dataDir` (read-only, while it runs or after it died). */
export function readSqlite<T>(dataDir: string, query: (db: SQLite.Database) => T): T {
  const db = new SQLite(path.join(dataDir, 'inbox-genie.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}
