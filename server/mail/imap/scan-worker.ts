import { parentPort } from 'node:worker_threads';
import type { ImapFlow } from 'imapflow';
import { closeClient, openClientAt, toMailError } from './connection.js';
import { syncMailbox } from './scan.js';
import {
  BATCHES_AHEAD,
  type FromWorker,
  type ScanWorkerInput,
  type ToWorker,
  toWire,
} from './scan-thread.js';
import { readState } from './state.js';

// The worker side of scan-thread.ts: any number of scans, each with its own connection, batches handed over
// as they come, at most BATCHES_AHEAD of a scan waiting for the main thread (the memory a slow commit can
// hold).

const port = parentPort!;

interface Running {
  credits: number;
  waiting: (() => void) | null;
  client: ImapFlow | undefined;
  stopped: boolean;
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
  } else {
    // The main thread stopped listening: the connection goes, which ends the walk where it waits.
    scan.stopped = true;
    scan.client?.close();
  }
  scan.waiting?.();
});

async function run(id: number, input: ScanWorkerInput): Promise<void> {
  const scan: Running = { credits: BATCHES_AHEAD, waiting: null, client: undefined, stopped: false };
  scans.set(id, scan);
  const send = (m: FromWorker) => {
    if (!scan.stopped) port.postMessage(m);
  };
  try {
    scan.client = await openClientAt(input.options, input.target);
    if (scan.stopped) return;
    const state = readState(input.state);
    const walk = syncMailbox({ client: scan.client, mode: 'scan', state, batchSize: input.batchSize });
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
