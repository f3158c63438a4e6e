// The job queue port (a scan is a job, run apart from the request that asked for it) and its
// in-process runner, the embedded default. Jobs with the same key never run at the same time: one scan
// per mailbox. A job enqueued while its key is running is remembered once and runs after it. Failures
// are retried with exponential backoff.

/**
 * Every job the product runs, by name, with its payload: `enqueue` and the handlers are typed by it, so
 * a job cannot be sent with a payload its handler does not read. Payloads are JSON (pg-boss stores them).
 */
export interface JobPayloads {
  /** Scan a mailbox, or check it for new mail when it was scanned before (features/scans). */
  'scan-mailbox': { mailboxId: string };
  /** Re-read a Stripe customer's subscriptions after a webhook event (features/billing). */
  'billing-sync': { customerId: string };
  /** Run the items of a bulk action still without an outcome (features/bulk). */
  'bulk-action': { bulkId: string };
  /** Send the user's weekly report of the last full week, unless sent or claimed (features/report). */
  'weekly-report': { userId: string };
}

export type JobName = keyof JobPayloads;

export type JobHandler<N extends JobName = JobName> = (
  payload: JobPayloads[N],
  attempt: number,
) => Promise<void>;

/** One handler per job of the map. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export interface JobOptions {
  /** Jobs sharing a key run one after another, never together; duplicates waiting are merged. */
  key: string;
}

export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: JobOptions): Promise<void>;
  /** Resolves once no job is running or waiting (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface InProcessQueueOptions {
  handlers: JobHandlers;
  retries?: number;
  backoffMs?: number;
  onError?: (error: unknown, job: { name: string; attempt: number; final: boolean }) => void;
}

export function createInProcessQueue({
  handlers,
  retries = 3,
  backoffMs = 2000,
  onError = () => {},
}: InProcessQueueOptions): JobQueue {
  const running = new Map<string, Promise<void>>();
  const waiting = new Map<string, { name: JobName; payload: JobPayloads[JobName] }>();
  let stopped = false;

  async function runWithRetries<N extends JobName>(name: N, payload: JobPayloads[N]): Promise<void> {
    const handler: JobHandler<N> = handlers[name];
    for (let attempt = 1; !stopped; attempt++) {
      try {
        await handler(payload, attempt);
        return;
      } catch (error) {
        const final = attempt > retries;
        onError(error, { name, attempt, final });
        if (final) return;
        await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)));
      }
    }
  }

  function start<N extends JobName>(key: string, name: N, payload: JobPayloads[N]): void {
    const run = runWithRetries(name, payload).finally(() => {
      running.delete(key);
      const next = waiting.get(key);
      if (next && !stopped) {
        waiting.delete(key);
        start(key, next.name, next.payload);
      }
    });
    running.set(key, run);
  }

  return {
    async enqueue(name, payload, { key }) {
      if (stopped) return;
      if (running.has(key)) waiting.set(key, { name, payload });
      else start(key, name, payload);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    async stop() {
      stopped = true;
      waiting.clear();
      await Promise.all(running.values());
    },
  };
}
