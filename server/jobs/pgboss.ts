import PgBoss from 'pg-boss';
import type { JobHandler, JobHandlers, JobName, JobPayloads, JobQueue } from './queue.js';

// The job queue port on PostgreSQL: jobs live in the database, so any process started with
// the worker role can run them and a job survives the process that enqueued it. The `stately`
// policy keeps at most one job per key queued and one active, the same promise as the in-process
// runner: one scan per mailbox, duplicates merged.

/**
 * A bulk action is not `stately`: its runner holds a lease of its own (features/bulk), and a bulk resumed
 * at a restart must not wait behind the job of the dead process, which pg-boss keeps active until it
 * expires; a second job of the bulk waits for the lease, so it never runs alongside a live runner.
 */
const POLICIES: Partial<Record<JobName, 'standard' | 'stately'>> = { 'bulk-action': 'standard' };

export interface PgBossQueueOptions {
  connectionString: string;
  /** PostgreSQL schema of pg-boss's tables. */
  schema: string;
  handlers: JobHandlers;
  /** Run jobs in this process (the worker role); otherwise only enqueue. */
  work: boolean;
  retries?: number;
  retryDelaySeconds?: number;
  pollingIntervalSeconds?: number;
  onError?: (error: unknown) => void;
}

export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: options.schema, max: 4 });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  const names = Object.keys(options.handlers) as JobName[];
  /** Runs this process's handler for each job of `name` (typed per job: its payload is its handler's). */
  const work = async <N extends JobName>(name: N): Promise<void> => {
    const handler: JobHandler<N> = options.handlers[name];
    await boss.work<JobPayloads[N]>(
      name,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (job) await handler(job.data, 1);
      },
    );
  };
  for (const name of names) {
    if (!(await boss.getQueue(name))) {
      await boss.createQueue(name, {
        name,
        policy: POLICIES[name] ?? 'stately',
        retryLimit: options.retries ?? 3,
        retryDelay: options.retryDelaySeconds ?? 2,
        retryBackoff: true,
      });
    }
    if (options.work) await work(name);
  }

  return {
    async enqueue(name, payload, { key }) {
      await boss.send(name, payload, { singletonKey: key });
    },
    async idle() {
      for (;;) {
        const sizes = await Promise.all(names.map((n) => boss.getQueueSize(n, { before: 'completed' })));
        if (sizes.every((s) => s === 0)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
