import { Worker } from 'node:worker_threads';
import {
  type ChangesOptions,
  type HeaderBatch,
  MailAuthError,
  MailConnectionError,
  type SyncState,
} from '../provider.js';
import { type ConnectTarget, connectTarget, type ImapConnectionOptions } from './connection.js';

/**
 * A full scan (or a resumed one) and the daily check run their IMAP connection on a worker thread:
 * ImapFlow's parsing of the FETCH answers and the header fields' parsing happen there, and the server's
 * answers are read while the main thread commits the batch before (docs/decisions/055-imap-scan-speed.md). The
 * main thread keeps what must not leave it: the host policy and the resolver (connectTarget judges every
 * address; the worker connects only to those), and the database, which the worker asks for the known
 * messages when a check needs them (no CHANGEDSINCE: a server without CONDSTORE, or a folder scanned
 * before read states were kept).
 */

/** What the worker is started with: plain data only (no resolver; log entries come back as messages). */
export interface ScanWorkerInput {
  options: Pick<ImapConnectionOptions, 'host' | 'port' | 'secure' | 'user' | 'password' | 'timeouts'>;
  target: ConnectTarget;
  mode: 'scan' | 'changes';
  state: SyncState | null;
  batchSize: number;
  /** The caller gave the provider a logger: ImapFlow's entries are sent back to it. */
  log: boolean;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A failure crossing the thread boundary: the port's errors keep their class by `kind`. */
export interface WireError {
  kind: 'auth' | 'connection' | 'other';
  message: string;
  code?: string;
}

export type FromWorker =
  | { type: 'batch'; id: number; batch: HeaderBatch }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'known'; id: number }
  | { type: 'log'; id: number; level: LogLevel; entry: unknown };

export type ToWorker =
  | { type: 'start'; id: number; input: ScanWorkerInput }
  | { type: 'ack'; id: number }
  | { type: 'known'; id: number; ids: string[] }
  | { type: 'stop'; id: number };

/**
 * Batches the worker may hand over before the main thread has taken the first of them. The scans service
 * takes the next batch as soon as it starts committing one (lib/read-ahead.ts), so at most three batches
 * are held at once: one committing, one taken, one handed over.
 */
export const BATCHES_AHEAD = 1;

export function toWire(err: unknown): WireError {
  if (err instanceof MailAuthError) return { kind: 'auth', message: err.message };
  if (err instanceof MailConnectionError) return { kind: 'connection', message: err.message };
  const code = (err as { code?: unknown } | null)?.code;
  return {
    kind: 'other',
    message: err instanceof Error ? err.message : String(err),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

export function fromWire(wire: WireError): Error {
  if (wire.kind === 'auth') return new MailAuthError(wire.message);
  if (wire.kind === 'connection') return new MailConnectionError(wire.message);
  return Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
}

// Built, the worker is dist/server/mail/imap/scan-worker.js; from source, scan-worker-source.mjs loads the
// .ts file through tsx as the rest of the source is.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './scan-worker-source.mjs' : './scan-worker.js',
  import.meta.url,
);

type Event = FromWorker | { type: 'exit'; reason: string };

/**
 * One worker thread serves every scan of the process, started at the first and kept: loading ImapFlow in a
 * fresh thread takes long enough that a new user would wait for it before the first subscription. It does not
 * keep the process alive while no scan runs; a thread that dies fails the scans it ran, and the next scan
 * starts another.
 */
let pool: { worker: Worker; scans: Map<number, (e: Event) => void> } | null = null;
let nextId = 1;

/**
 * The thread, started now if it is not running: a process that runs jobs calls this at start, so the first
 * scan does not wait for it.
 */
export function warmScanThread(): void {
  scanThread();
}

/** Ends the thread as a crash would (tests): its scans fail, and the next scan starts a new thread. */
export async function terminateScanThread(): Promise<void> {
  await pool?.worker.terminate();
}

function scanThread(): NonNullable<typeof pool> {
  if (pool) return pool;
  // A small young generation instead of V8's default: the thread's garbage is short-lived tokens, and the
  // default let the process's peak RSS grow during a scan (bench:scan). The old generation is capped far
  // above what a scan keeps: a mailbox whose headers would exhaust it ends this thread and fails its scan
  // (ERR_WORKER_OUT_OF_MEMORY), not the whole process.
  const worker = new Worker(WORKER_URL, {
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
  });
  const current = { worker, scans: new Map<number, (e: Event) => void>() };
  const endAll = (reason: string) => {
    if (pool === current) pool = null;
    for (const deliver of current.scans.values()) deliver({ type: 'exit', reason });
    current.scans.clear();
  };
  worker.on('message', (m: FromWorker) => current.scans.get(m.id)?.(m));
  worker.on('error', (err) => endAll(err.message));
  worker.on('exit', (code) => endAll(`exit code ${code}`));
  worker.unref();
  pool = current;
  return current;
}

/** A scan (`mode` 'scan', from a checkpoint or null) or a daily check ('changes') on the thread. */
export async function* syncInWorker(
  options: ImapConnectionOptions,
  mode: ScanWorkerInput['mode'],
  from: SyncState | null,
  batchSize: number,
  knownMessages?: ChangesOptions['knownMessages'],
): AsyncGenerator<HeaderBatch> {
  const target = await connectTarget(options, options);
  const { host, port, secure, user, password, timeouts, logger } = options;
  const input: ScanWorkerInput = {
    options: { host, port, secure, user, password, ...(timeouts ? { timeouts } : {}) },
    target,
    mode,
    state: from,
    batchSize,
    log: logger !== undefined,
  };
  const thread = scanThread();
  const id = nextId++;
  const inbox: Event[] = [];
  let wake: (() => void) | null = null;
  thread.scans.set(id, (e) => {
    inbox.push(e);
    wake?.();
  });
  // A running scan keeps the process alive, as its socket on the main thread did.
  if (thread.scans.size === 1) thread.worker.ref();
  thread.worker.postMessage({ type: 'start', id, input } satisfies ToWorker);
  let ended = false;
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const e = inbox.shift()!;
      if (e.type === 'log') {
        logger?.[e.level]?.(e.entry as object);
      } else if (e.type === 'known') {
        // Asked at most once per check, and only when flags cannot be asked for by CHANGEDSINCE: the thread
        // waits for the answer, and a failure to read them fails the check (`finally` stops the thread's run).
        const ids = (await knownMessages?.()) ?? [];
        thread.worker.postMessage({ type: 'known', id, ids } satisfies ToWorker);
      } else if (e.type === 'batch') {
        yield e.batch;
        thread.worker.postMessage({ type: 'ack', id } satisfies ToWorker);
      } else if (e.type === 'done') {
        ended = true;
        return;
      } else if (e.type === 'error') {
        ended = true;
        throw fromWire(e.error);
      } else {
        ended = true;
        throw new Error(`The scan's worker thread stopped (${e.reason}).`);
      }
    }
  } finally {
    // A consumer that stops early: the worker drops the scan and its connection.
    if (!ended) thread.worker.postMessage({ type: 'stop', id } satisfies ToWorker);
    thread.scans.delete(id);
    if (thread.scans.size === 0) thread.worker.unref();
  }
}
