import { parentPort } from 'node:worker_threads';
import type { ImapFlow, Logger } from 'imapflow';
import { closeClient, openClientAt, toMailError } from './connection.js';
import { syncMailbox } from './scan.js';
import {
  BATCHES_AHEAD,
  type FromWorker,
  type LogLevel,
  type ScanWorkerInput,
  type ToWorker,
  toWire,
} from './scan-thread.js';
import { readState } from './state.js';

// The worker side of scan-thread.ts: any number of scans and checks, each with its own connection, batches
// handed over as they come, at most BATCHES_AHEAD of a run waiting for the main thread (the memory a slow
// commit can hold).

const port = parentPort!;

interface Running {
  credits: number;
  waiting: (() => void) | null;
  client: ImapFlow | undefined;
  stopped: boolean;
  /** The main thread's answer to a check's question for the known messages. */
  known: { resolve: (ids: string[]) => void; reject: (err: Error) => void } | null;
}

const scans = new Map<number, Running>();

port.on('message', (m: ToWorker) => {
  if (m.type === 'start') {
    void run(m.id, m.input);
    return;
  }
  const scan = scans.get(m.id);
  if (!scan) return;
  if (m.type === 'ack') {
    scan.credits += 1;
  } else if (m.type === 'known') {
    scan.known?.resolve(m.ids);
    scan.known = null;
    return;
  } else {
    // The main thread stopped listening: the connection goes, which ends the walk where it waits.
    scan.stopped = true;
    scan.known?.reject(new Error('The run was stopped.'));
    scan.known = null;
    scan.client?.close();
  }
  scan.waiting?.();
});

async function run(id: number, input: ScanWorkerInput): Promise<void> {
  const scan: Running = {
    credits: BATCHES_AHEAD,
    waiting: null,
    client: undefined,
    stopped: false,
    known: null,
  };
  scans.set(id, scan);
  const send = (m: FromWorker) => {
    if (!scan.stopped) port.postMessage(m);
  };
  const logger = input.log ? forwardingLogger(id, send) : undefined;
  const knownMessages = () =>
    new Promise<string[]>((resolve, reject) => {
      if (scan.stopped) return reject(new Error('The run was stopped.'));
      scan.known = { resolve, reject };
      send({ type: 'known', id });
    });
  try {
    scan.client = await openClientAt({ ...input.options, ...(logger ? { logger } : {}) }, input.target);
    if (scan.stopped) return;
    const state = readState(input.state);
    const walk = syncMailbox({
      client: scan.client,
      mode: input.mode,
      state,
      batchSize: input.batchSize,
      knownMessages,
    });
    for await (const batch of walk) {
      while (scan.credits === 0 && !scan.stopped)
        await new Promise<void>((resolve) => (scan.waiting = resolve));
      scan.waiting = null;
      if (scan.stopped) return;
      scan.credits -= 1;
      send({ type: 'batch', id, batch });
    }
    send({ type: 'done', id });
  } catch (err) {
    send({ type: 'error', id, error: toWire(toMailError(err, input.options, 'session', scan.client)) });
  } finally {
    scans.delete(id);
    if (scan.client) await closeClient(scan.client).catch(() => {});
  }
}

/** ImapFlow's log entries, sent to the main thread's logger as plain data (what a structured clone keeps). */
function forwardingLogger(id: number, send: (m: FromWorker) => void): Logger {
  const at =
    (level: LogLevel) =>
    (entry: object): void => {
      let plain: unknown;
      try {
        plain = structuredClone(entry);
      } catch {
        // A function or the like somewhere in the entry: its other fields still go.
        const fields: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(entry)) {
          try {
            fields[key] = structuredClone(value);
          } catch {
            fields[key] = String(value);
          }
        }
        plain = fields;
      }
      send({ type: 'log', id, level, entry: plain });
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
