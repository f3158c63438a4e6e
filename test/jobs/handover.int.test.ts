import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgBossQueue } from '#server/jobs/pgboss.js';
import type { JobHandlers, JobQueue } from '#server/jobs/queue.js';
import { testSchema } from '#test/helpers/pg-schemas.js';
import { FAST_HANDOVER } from '#test/helpers/pgboss-timing.js';

// On PostgreSQL a worker killed mid-job (SIGKILL: no chance to say so) left its job active in pg-boss for
// the 15 minutes of its expiry, and the mailbox's next scan merged into it. Its heartbeat stops instead,
// and another worker hands the job on within seconds (here with short settings; 5 s and 20 s by default).

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a job of a killed worker on PostgreSQL', () => {
  const schema = testSchema('t_jobs');
  let child: ChildProcess | null = null;
  let queue: JobQueue | null = null;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await queue?.stop();
  });

  it('is run again by another worker within seconds, not after pg-boss expiry', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/pgboss-worker.ts'], {
      env: { ...process.env, JOB_SCHEMA: schema },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await expect.poll(() => out, { timeout: 30_000 }).toContain('ready');

    // This process enqueues (not a worker yet), the child takes the job and hangs in it.
    const ran: string[] = [];
    const handlers = {
      'scan-mailbox': async ({ mailboxId }: { mailboxId: string }) => {
        ran.push(mailboxId);
      },
      'billing-sync': async () => {},
      'bulk-action': async () => {},
    } as unknown as JobHandlers;
    const sender = await createPgBossQueue({ connectionString: url!, schema, handlers, work: false });
    await sender.enqueue('scan-mailbox', { mailboxId: 'm-1' }, { key: 'mailbox:m-1' });
    await expect.poll(() => out, { timeout: 20_000 }).toContain('started m-1');
    await sender.stop();

    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;
    const killedAt = Date.now();
    queue = await createPgBossQueue({
      connectionString: url!,
      schema,
      handlers,
      ...FAST_HANDOVER,
    });
    await expect.poll(() => ran, { timeout: 20_000, interval: 100 }).toEqual(['m-1']);
    expect(Date.now() - killedAt).toBeLessThan(20_000);
  });
});
