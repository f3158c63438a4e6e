import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailAccountsResponseSchema } from '#contract/api.js';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { freePort } from '#test/helpers/net.js';
import { killProduct, readSqlite, startProduct } from '#test/helpers/product-process.js';

// The product process is killed (SIGKILL, no chance to clean up) in the middle of a first scan, or of
// a later check for new mail, and started again on the same data folder: the scan resumes from its
// last checkpoint and the counts come out exact, nothing lost and nothing counted twice.

const USER = 'killed@yahoo.com';
const PASSWORD = 'app password';
const SENDERS = 12;
const PER_SENDER = 60;

let dovecot: Dovecot;
let dataDir: string;

/** The product on `port` with this file's Dovecot as Yahoo, small scan batches and the data folder `dir`. */
function startServer(port: number, env: Record<string, string> = {}, dir = dataDir): Promise<ChildProcess> {
  return startProduct(port, {
    DATA_DIR: dir,
    SCAN_BATCH_SIZE: '40',
    MAIL_PROVIDER_OVERRIDES: JSON.stringify({
      yahoo: { imap: { host: '127.0.0.1', port: dovecot.port, secure: false } },
    }),
    ...env,
  });
}

const readDb = <T>(query: (db: SQLite.Database) => T, dir = dataDir): T => readSqlite(dir, query);

beforeAll(async () => {
  dovecot = await startDovecot([{ user: USER, password: PASSWORD }]);
  dataDir = await mkdtemp(path.join(tmpdir(), 'ig-kill-'));
  for (let s = 0; s < SENDERS; s++) {
    for (let i = 0; i < PER_SENDER; i++) {
      const folder = i % 3 === 0 ? 'Newsletters' : 'INBOX';
      await dovecot.deliver(
        USER,
        folder,
        rawMessage({
          from: `Sender ${s} <sender${s}@list.example>`,
          subject: `Issue ${i}`,
          date: daysAgo(i),
          listUnsubscribe: `<https://list.example/u/${s}>`,
        }),
        'S',
      );
    }
  }
});
afterAll(async () => {
  await dovecot?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a scan killed with its process', () => {
  // Two starts of the product from source (tsx) and a scan: more than the tier's 30 s under load.
  it('resumes after a restart with exact counts', async () => {
    const port = await freePort();
    let server = await startServer(port);
    try {
      const http = new HttpSession(`http://127.0.0.1:${port}`);
      expect(
        (await http.call('/auth/signup', 'POST', { email: 'owner@example.com', password: 'owner password' }))
          .ok,
      ).toBe(true);
      expect((await http.call('/auth/yahoo', 'POST', { email: USER, appPassword: PASSWORD })).ok).toBe(true);

      // Kill as soon as some batches are committed but the scan is not finished.
      const total = SENDERS * PER_SENDER;
      for (;;) {
        const counted = readDb(
          (db) =>
            (db.prepare('select coalesce(sum(message_count), 0) n from senders').get() as { n: number }).n,
        );
        const complete = readDb(
          (db) => (db.prepare('select scan_complete c from mailboxes').get() as { c: number }).c,
        );
        if (complete === 1)
          throw new Error('the scan finished before it could be killed; lower SCAN_BATCH_SIZE');
        if (counted > 0 && counted < total) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      await killProduct(server);
      const before = readDb(
        (db) =>
          (db.prepare('select coalesce(sum(message_count), 0) n from senders').get() as { n: number }).n,
      );
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(total);

      // Started again, the scheduler picks the unfinished scan up from its checkpoint.
      server = await startServer(port);
      const deadline = Date.now() + 30_000;
      while (
        readDb((db) => (db.prepare('select scan_complete c from mailboxes').get() as { c: number }).c) !== 1
      ) {
        if (Date.now() > deadline) throw new Error('the scan did not finish after the restart');
        await new Promise((r) => setTimeout(r, 50));
      }
      const counts = readDb((db) =>
        db.prepare('select address, message_count from senders order by address').all(),
      );
      expect(counts).toHaveLength(SENDERS);
      for (const row of counts as Array<{ message_count: number }>)
        expect(row.message_count).toBe(PER_SENDER);
      const refs = readDb(
        (db) =>
          db.prepare('select count(*) n, count(distinct provider_id) d from messages').get() as {
            n: number;
            d: number;
          },
      );
      expect(refs).toEqual({ n: total, d: total });
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);
});

describe('a check for new mail killed with its process', () => {
  const user = 'checked@yahoo.com';
  const first = 3;
  const added = 30;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ig-kill-check-'));
    await dovecot.addUser({ user, password: PASSWORD });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function deliver(from: number, to: number): Promise<void> {
    for (let s = 0; s < SENDERS; s++) {
      for (let i = from; i < to; i++) {
        await dovecot.deliver(
          user,
          'INBOX',
          rawMessage({
            from: `Sender ${s} <sender${s}@check.example>`,
            subject: `Issue ${i}`,
            date: daysAgo(60 - i),
            listUnsubscribe: `<https://check.example/u/${s}>`,
          }),
          'S',
        );
      }
    }
  }
  const mailbox = () =>
    readDb(
      (db) =>
        db.prepare('select status, scan_complete, last_scanned_at from mailboxes').get() as {
          status: string;
          scan_complete: number;
          last_scanned_at: number;
        },
      dir,
    );
  const counted = () =>
    readDb(
      (db) => (db.prepare('select coalesce(sum(message_count), 0) n from senders').get() as { n: number }).n,
      dir,
    );

  it('is resumed at the next start even though the mailbox was checked recently', async () => {
    const port = await freePort();
    const http = new HttpSession(`http://127.0.0.1:${port}`);
    await deliver(0, first);
    let server = await startServer(port, {}, dir);
    try {
      expect(
        (
          await http.call('/auth/signup', 'POST', {
            email: 'checker@example.com',
            password: 'owner password',
          })
        ).ok,
      ).toBe(true);
      expect((await http.call('/auth/yahoo', 'POST', { email: user, appPassword: PASSWORD })).ok).toBe(true);
      const scanned = () => mailbox().status === 'active' && mailbox().scan_complete === 1;
      for (let deadline = Date.now() + 30_000; !scanned(); ) {
        if (Date.now() > deadline) throw new Error('the first scan did not finish');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(counted()).toBe(SENDERS * first);
      await killProduct(server);

      // New mail arrives; a short interval makes the scheduler start the check at once, and the
      // process is killed while the check is committing batches.
      await deliver(first, first + added);
      const total = SENDERS * (first + added);
      server = await startServer(port, { SCAN_INTERVAL: '1s' }, dir);
      for (;;) {
        const n = counted();
        if (n === total)
          throw new Error('the check finished before it could be killed; lower SCAN_BATCH_SIZE');
        if (n > SENDERS * first) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      await killProduct(server);
      const killed = mailbox();
      expect(killed.status).toBe('scanning');
      expect(counted()).toBeLessThan(total);

      // Started again with the daily interval: the last check is recent, so only the start-up
      // resume can finish the interrupted one.
      server = await startServer(port, { SCAN_INTERVAL: '24h' }, dir);
      for (let deadline = Date.now() + 30_000; mailbox().status === 'scanning'; ) {
        if (Date.now() > deadline) throw new Error('the interrupted check was not resumed after the restart');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(mailbox().status).toBe('active');
      expect(mailbox().last_scanned_at).toBeGreaterThan(killed.last_scanned_at);
      const counts = readDb(
        (db) =>
          db.prepare('select address, message_count from senders order by address').all() as Array<{
            address: string;
            message_count: number;
          }>,
        dir,
      );
      expect(counts).toHaveLength(SENDERS);
      for (const row of counts) expect(row.message_count).toBe(first + added);
      const refs = readDb(
        (db) =>
          db.prepare('select count(*) n, count(distinct provider_id) d from messages').get() as {
            n: number;
            d: number;
          },
        dir,
      );
      expect(refs).toEqual({ n: total, d: total });
      // What the screens see: the account list no longer shows the mailbox as scanning.
      const accounts = await http.json(await http.call('/get-email-accounts'), emailAccountsResponseSchema);
      expect(accounts.data.map((a) => a.status)).toEqual(['active']);
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);
});
