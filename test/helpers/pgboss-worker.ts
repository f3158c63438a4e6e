// A worker process for test/jobs/handover.int.test.ts: takes scan-mailbox jobs from pg-boss and never
// finishes them, printing each job's payload, until it is killed. Settings come from the environment.
import { createPgBossQueue } from '#server/jobs/pgboss.js';
import type { JobHandlers } from '#server/jobs/queue.js';
import { FAST_HANDOVER } from './pgboss-timing.js';

const never = () => new Promise<void>(() => {});
const handlers = {
  'scan-mailbox': async (payload: { mailboxId: string }) => {
    console.log(`started ${payload.mailboxId}`);
    await never();
  },
  'billing-sync': never,
  'bulk-action': never,
} as unknown as JobHandlers;

await createPgBossQueue({
  connectionString: process.env.TEST_DATABASE_URL!,
  schema: process.env.JOB_SCHEMA!,
  handlers,
  ...FAST_HANDOVER,
});
console.log('ready');
