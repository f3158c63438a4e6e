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

/**
 * Jobs of a name one worker process runs at once (one when unnamed). Checks wait on mail servers far more
 * than they compute (the parsing is on the scan thread), so a worker runs a few: a mailbox whose server
 * hangs holds one of them until its timeouts end the check, and the others go on.
 */
export const CONCURRENCY: Partial<Record<JobName, number>> = { 'scan-mailbox': 4 };

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
  /** Jobs of a name this process runs at once (CONCURRENCY unless given). */
  concurrency?: Partial<Record<JobName, number>>;
  /** How often a worker says its running jobs are alive (default 5 s). */
  heartbeatMs?: number;
  /** A running job whose worker has been silent this long is handed on (default 20 s). */
  staleAfterMs?: number;
}

/**
 * pg-boss keeps a job `active` until it completes or its expiry (15 minutes by default) runs out, so the
 * scan of a worker killed mid-way (SIGKILL, a lost machine) held its mailbox for a quarter of an hour:
 * the stately queue merges the new job into the dead one. Each worker therefore records the jobs it runs
 * in a table of its own beside pg-boss's and renews their heartbeat; every worker fails the jobs whose
 * heartbeat stopped (pg-boss then retries them), so a crashed worker's scan resumes within half a minute
 * (docs/decisions/086-fair-checks-and-worker-faults.md), from its checkpoint. A worker stalled longer than `staleAfterMs` may see its job run a second time meanwhile:
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
  const nextJob = fetchNextJob(boss, options.schema);
  const pollMs = (options.pollingIntervalSeconds ?? 2) * 1000;
  let stopping = false;
  /** Wakes the workers' polls (at stop). */
  const wakers = new Set<() => void>();
  const workers: Promise<void>[] = [];

  /** Runs one job this process took: its outcome goes back to pg-boss, which retries a failure. */
  async function runJob<N extends JobName>(name: N, job: TakenJob): Promise<void> {
    const handler: JobHandler<N> = options.handlers[name];
    try {
      try {
        await running.started(job.id, name, worker);
      } catch (error) {
        // Without its heartbeat row no worker could hand it on: given back to pg-boss to retry.
        await boss.fail(name, job.id, failure(error));
        throw error;
      }
      try {
        await withinSeconds(handler(job.data as JobPayloads[N], job.attempt), job.expireInSeconds);
        await boss.complete(name, job.id);
      } catch (error) {
        await boss.fail(name, job.id, failure(error));
      } finally {
        await running.ended(job.id, worker);
      }
    } catch (error) {
      options.onError?.(error);
    }
  }

  /**
   * Takes the jobs of `name` while fewer than `slots` run in this process: polls when none is waiting, and
   * again as soon as one of its jobs ends. Resolves once stopping and its running jobs have ended.
   */
  async function work(name: JobName, slots: number): Promise<void> {
    const policy = POLICIES[name] ?? 'stately';
    const inFlight = new Set<Promise<void>>();
    let wake: (() => void) | null = null;
    const nap = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        wakers.add(wake);
      }).finally(() => {
        if (wake) wakers.delete(wake);
        wake = null;
      });
    while (!stopping) {
      let job: TakenJob | null = null;
      if (inFlight.size < slots) {
        try {
          job = await nextJob(name, policy);
        } catch (error) {
          options.onError?.(error);
        }
      }
      if (!job) {
        await nap();
        continue;
      }
      const run: Promise<void> = runJob(name, job).finally(() => {
        inFlight.delete(run);
        wake?.();
      });
      inFlight.add(run);
    }
    await Promise.all(inFlight);
  }

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
  }
  if (options.work) {
    for (const name of names) {
      workers.push(work(name, Math.max(1, (options.concurrency ?? CONCURRENCY)[name] ?? 1)));
    }
  }

  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleAfterMs = options.staleAfterMs ?? 20_000;
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
      // Beats go on while running jobs finish (for up to 30 s), so no other worker takes them meanwhile.
      stopping = true;
      for (const wake of wakers) wake();
      await Promise.race([Promise.all(workers), new Promise((r) => setTimeout(r, 30_000).unref())]);
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      for (const timer of timers) clearInterval(timer);
      await running.close();
    },
  };
}

/** A job this process took from pg-boss. */
interface TakenJob {
  id: string;
  data: unknown;
  /** 1 for the first run, 2 for the first retry… */
  attempt: number;
  expireInSeconds: number;
}

/**
 * Takes the next job of a queue, as pg-boss 10's own fetch does, except that a stately queue's job waits
 * while a job of its key runs. pg-boss tries to start it anyway, the unique index of its active jobs
 * refuses, and its fetch returns nothing: a mailbox queued again while its check runs held every worker
 * back until that check ended, a minute when its server hangs (docs/decisions/086-fair-checks-and-worker-faults.md).
 * Two workers may still take two waiting jobs of one key at once; the second start is refused and taken
 * as nothing (pg-boss's own handling), and the next poll passes that key by.
 */
function fetchNextJob(boss: PgBoss, schema: string) {
  const jobs = `"${schema.replace(/"/g, '""')}".job`;
  // Through pg-boss's unique index of a stately queue's running jobs (its key is COALESCEd, as here).
  const keyNotRunning = `AND NOT EXISTS (
    SELECT 1 FROM ${jobs} a WHERE a.name = $1 AND a.state = 'active' AND a.policy = 'stately'
      AND COALESCE(a.singleton_key, '') = COALESCE(j.singleton_key, ''))`;
  const sql = (stately: boolean) => `
    WITH next AS (
      SELECT id FROM ${jobs} j
      WHERE name = $1 AND state < 'active' AND start_after < now()
        ${stately ? keyNotRunning : ''}
      ORDER BY priority DESC, created_on, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${jobs} j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
    FROM next
    WHERE j.name = $1 AND j.id = next.id
    RETURNING j.id, j.data, j.retry_count, EXTRACT(epoch FROM j.expire_in) AS expire_in_seconds`;
  const statements = { stately: sql(true), standard: sql(false) };
  return async (name: JobName, policy: 'standard' | 'stately'): Promise<TakenJob | null> => {
    let rows: Array<{ id: string; data: unknown; retry_count: number; expire_in_seconds: string }>;
    try {
      ({ rows } = await boss.getDb().executeSql(statements[policy], [name]));
    } catch (error) {
      // The unique index of a stately queue's active jobs refused a second start of one key.
      if ((error as { code?: string }).code === '23505') return null;
      throw error;
    }
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      data: row.data,
      attempt: row.retry_count + 1,
      expireInSeconds: Number(row.expire_in_seconds),
    };
  };
}

/** A job running past its expiry is failed (and retried) as pg-boss's own worker does. */
async function withinSeconds(run: Promise<void>, seconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // Past its expiry the job is failed and the handler left to end on its own; its later failure is not news.
  run.catch(() => {});
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the job ran longer than its ${seconds} s`)),
      Math.max(1, seconds) * 1000,
    );
  });
  try {
    await Promise.race([run, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** What pg-boss keeps as a failed job's output. */
function failure(error: unknown): { message: string } {
  return { message: error instanceof Error ? error.message : String(error) };
}
