import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '#test/helpers/net.js';
import { killProduct, untilHealthy } from '#test/helpers/product-process.js';

// The product as a split deployment on PostgreSQL (docs/ARCHITECTURE.md): processes started with
// `--roles=…` from server/main.ts, sharing a database of their own (created here, dropped at the end)
// and one secret key; and TCP doors in front of mail servers that a test can make hang.

const root = path.resolve(import.meta.dirname, '../..');

export interface Fleet {
  databaseUrl: string;
  /** Starts a process of the product with these roles; `api` ones listen on a port of their own. */
  start(roles: string, env?: Record<string, string>): Promise<FleetProcess>;
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export interface FleetProcess {
  child: ChildProcess;
  /** http://127.0.0.1:port for a process with the api role. */
  origin: string | null;
  output(): string;
}

export async function startFleet(serverUrl: string, env: Record<string, string>): Promise<Fleet> {
  const name = `ig_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.href;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const secret = randomBytes(32).toString('hex');
  const processes: FleetProcess[] = [];
  const dirs: string[] = [];

  return {
    databaseUrl,
    async start(roles, extra = {}) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'ig-fleet-'));
      dirs.push(dataDir);
      const listens = roles.split(',').some((r) => r === 'api' || r === 'live');
      const port = await freePort();
      let out = '';
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', `--roles=${roles}`], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SECRET_KEY: secret,
          // A worker says when it is up only at info level; an api process is asked /healthz.
          LOG_LEVEL: listens ? 'warn' : 'info',
          // These tests time handovers and fair checks by the clock: their workers run at the priority
          // of everything else on a loaded CI machine, not at the product's lowest (lowering is tested in
          // server/lib/priority.test.ts).
          WORKER_NICE: '0',
          ...env,
          ...extra,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const take = (chunk: Buffer) => {
        out += chunk.toString();
      };
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      const started: FleetProcess = {
        child,
        origin: listens ? `http://127.0.0.1:${port}` : null,
        output: () => out,
      };
      processes.push(started);
      if (listens) {
        await untilHealthy(port, child, () => out);
      } else {
        const deadline = Date.now() + 30_000;
        while (!out.includes('Inbox Genie is running')) {
          if (child.exitCode !== null) throw new Error(`The product exited at start:\n${out}`);
          if (Date.now() > deadline) throw new Error(`The product did not start within 30 s:\n${out}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      return started;
    },
    async query<T>(text: string, values: unknown[] = []) {
      return (await pool.query(text, values)).rows as T[];
    },
    async stop() {
      for (const p of processes) {
        // killProduct waits for an exit: one already killed by a test has had it.
        if (p.child.exitCode === null && p.child.signalCode === null) await killProduct(p.child);
      }
      await pool.end();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a door does with a new connection: pass it to the mail server behind it, or hang: `silent` takes
 * the TCP connection and never says a word, `stall` sends an IMAP greeting and then answers nothing.
 */
export type DoorMode = 'forward' | 'silent' | 'stall';

export interface Door {
  host: string;
  port: number;
  mode: DoorMode;
  /** Each connection, in order: when it was opened and closed (ms since the epoch; null while open). */
  connections: Array<{ opened: number; closed: number | null }>;
  /** Connections open now, and the most that were open at once. */
  open(): number;
  mostOpen: number;
  close(): Promise<void>;
}

/** A TCP door on 127.0.0.1 in front of `upstream` (a real IMAP server), whose mode a test switches. */
export async function startDoor(upstream: { host: string; port: number }): Promise<Door> {
  const sockets = new Set<Socket>();
  let live = 0;
  const door: Door = {
    host: '127.0.0.1',
    port: 0,
    mode: 'forward',
    connections: [],
    open: () => live,
    mostOpen: 0,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((client) => {
    const connection = { opened: Date.now(), closed: null as number | null };
    door.connections.push(connection);
    live++;
    door.mostOpen = Math.max(door.mostOpen, live);
    sockets.add(client);
    client.on('error', () => {});
    client.on('close', () => {
      connection.closed = Date.now();
      live--;
      sockets.delete(client);
    });
    if (door.mode === 'silent') return;
    if (door.mode === 'stall') {
      client.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n');
      client.resume();
      return;
    }
    const behind = tcpConnect(upstream.port, upstream.host);
    sockets.add(behind);
    behind.on('error', () => {});
    client.pipe(behind);
    behind.pipe(client);
    client.on('close', () => behind.destroy());
    behind.on('close', () => {
      sockets.delete(behind);
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  door.port = (server.address() as { port: number }).port;
  return door;
}

/** Waits for `condition` (polled every 100 ms) up to `timeoutMs`; throws with `what` after. */
export async function until(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
