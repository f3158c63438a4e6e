// The queue port of GUIDE §1 and its in-process runner (the embedded default). Jobs with the same
// key never run at the same time: one scan per mailbox. A job enqueued while its key is running is
// remembered once and runs after it. Failures are retried with exponential backoff.

export interface JobOptions {
  /** Jobs sharing a key run one after another, never together; duplicates waiting are merged. */
  key: string;
}

export interface JobQueue {
  enqueue(name: string, payload: Record<string, unknown>, options: JobOptions): Promise<void>;
  /** Resolves once no job is running or waiting (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export type JobHandler = (payload: Record<string, unknown>, attempt: number) => Promise<void>;

export interface InProcessQueueOptions {
  handlers: Record<string, JobHandler>;
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
  const waiting = new Map<string, { name: string; payload: Record<string, unknown> }>();
  let stopped = false;

  async function runWithRetries(name: string, payload: Record<string, unknown>): Promise<void> {
    const handler = handlers[name];
    if (!handler) throw new Error(`No handler for job ${name}`);
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

  function start(key: string, name: string, payload: Record<string, unknown>): void {
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
