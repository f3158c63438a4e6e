import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.js';
import { createPgBossQueue } from './pgboss.js';
import { createInProcessQueue, type JobHandlers, type JobQueue } from './queue.js';

export type { JobHandlers, JobQueue } from './queue.js';

/**
 * The job queue: pg-boss on PostgreSQL (shared by every process; this one works only in the worker role),
 * else a queue inside this process. `backoffMs`: the retry delay (tests make it short).
 */
export async function createJobQueue(
  config: Pick<Config, 'databaseUrl' | 'jobSchema' | 'roles'>,
  handlers: JobHandlers,
  options: { backoffMs?: number; log: FastifyBaseLogger },
): Promise<JobQueue> {
  const { backoffMs, log } = options;
  if (!config.databaseUrl) {
    return createInProcessQueue({
      handlers,
      backoffMs,
      onError: (error, job) => log.warn({ err: error, job }, 'job failed'),
    });
  }
  return createPgBossQueue({
    connectionString: config.databaseUrl,
    schema: config.jobSchema,
    handlers,
    work: config.roles.has('worker'),
    retryDelaySeconds: backoffMs === undefined ? 2 : Math.max(1, Math.round(backoffMs / 1000)),
    pollingIntervalSeconds: backoffMs === undefined ? 2 : 0.5,
    onError: (error) => log.error({ err: error }, 'job queue error'),
  });
}
