import { randomUUID } from 'node:crypto';
import pg from 'pg';
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
  /** How often a worker says its running jobs are alive (default 10 s). */
  heartbeatMs?: number;
  /** A running job whose worker has been silent this long is handed on (default 30 s). */
  staleAfterMs?: number;
}

/**
 * pg-boss keeps a job `active` until it completes or its expiry (15 minutes by default) runs out, so the
 * scan of a worker killed mid-way (SIGKILL, a lost machine) held its mailbox for a quarter of an hour:
 * the stately queue merges the new job into the dead one. Each worker therefore records the jobs it runs
 * in a table of its own beside pg-boss's and renews their heartbeat; every worker fails the jobs whose
 * heartbeat stopped (pg-boss then retries them), so a crashed worker's scan resumes within a minute, from
 * its checkpoint. A worker stalled longer than `staleAfterMs` may see its job run a second time meanwhile:
 * scans and checks are checkpointed and idempotent, and a bulk runs under its own lease (features/bulk).
 */
function runningJobs(connectionString: string, schema: string) {
  const pool = new pg.Pool({ connectionString, max: 2 });
  const table = `"${schema.replace(/"/g, '""')}".ig_running_jobs`;
  return {
    async create(): Promise<void> {
      await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (
        job_id uuid PRIMARY KEY, name text NOT NULL, worker text NOT NULL, beat_at timestamptz NOT NULL)`);
    },
    async started(jobId: string, name: string, worker: string): Promise<void> {
      await pool.query(
        `INSERT INTO ${table} (job_id, name, worker, beat_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (job_id) DO UPDATE SET worker = $3, beat_at = now()`,
        [jobId, name, worker],
      );
    },
    async ended(jobId: string, worker: string): Promise<void> {
      await pool.query(`DELETE FROM ${table} WHERE job_id = $1 AND worker = $2`, [jobId, worker]);
    },
    async beat(worker: string): Promise<void> {
      await pool.query(`UPDATE ${table} SET beat_at = now() WHERE worker = $1`, [worker]);
    },
    /** Takes the rows of silent workers' jobs (one worker gets each). */
    async takeStale(staleAfterMs: number): Promise<Array<{ job_id: string; name: string }>> {
      const { rows } = await pool.query<{ job_id: string; name: string }>(
        `DELETE FROM ${table} WHERE beat_at < now() - make_interval(secs => $1) RETURNING job_id, name`,
        [staleAfterMs / 1000],
      );
      return rows;
    },
    close: () => pool.end(),
  };
}

export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: options.schema, max: 4 });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  const names = Object.keys(options.handlers) as JobName[];
  const worker = randomUUID();
  const running = runningJobs(options.connectionString, options.schema);
  await running.create();
  /** Runs this process's handler for each job of `name` (typed per job: its payload is its handler's). */
  const work = async <N extends JobName>(name: N): Promise<void> => {
    const handler: JobHandler<N> = options.handlers[name];
    await boss.work<JobPayloads[N]>(
      name,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (!job) return;
        await running.started(job.id, name, worker);
        try {
          await handler(job.data, 1);
        } finally {
          await running.ended(job.id, worker);
        }
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

  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  /** Fails the jobs of workers that stopped beating: pg-boss retries them at once (retryDelay). */
  async function handOnStale(): Promise<void> {
    for (const job of await running.takeStale(staleAfterMs)) {
      await boss.fail(job.name, job.job_id, { reason: 'its worker stopped' });
      options.onError?.(new Error(`job ${job.name} ${job.job_id} handed on: its worker stopped`));
    }
  }
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => Promise<void>) => {
    const timer = setInterval(() => task().catch((error: unknown) => options.onError?.(error)), ms);
    timer.unref();
    timers.push(timer);
  };
  if (options.work) {
    every(heartbeatMs, () => running.beat(worker));
    every(heartbeatMs, handOnStale);
    await handOnStale();
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
      // Beats go on while running jobs finish, so no other worker takes them meanwhile.
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      for (const timer of timers) clearInterval(timer);
      await running.close();
    },
  };
}
