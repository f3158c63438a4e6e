import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type Door, type Fleet, startDoor, startFleet, until } from './fleet.js';

// A split deployment on PostgreSQL (an api process, a worker, a scheduler) checks four mailboxes on Dovecot
// and two whose servers hang: one takes the TCP connection and never says a word, one greets and then
// answers nothing. Each hanging server holds one of the worker's slots, one connection at a time, until the
// IMAP timeouts end it (15 s without a greeting, 60 s of silence); the mailbox says why (last_error), and
// the other mailboxes are scanned and checked all the while. The scheduler runs every 2 s, so the hanging
// mailboxes are queued again while their checks hang: pg-boss 10's own fetch stalled every worker behind
// such a job (docs/decisions/086-fair-checks-and-worker-faults.md).

const url = process.env.TEST_DATABASE_URL;
const PASSWORD = 'app password';

interface Row {
  email: string;
  status: string;
  last_error: string | null;
  scan_complete: number;
  last_scanned_at: string | null;
}

describe.skipIf(!url)('a mailbox whose server hangs, on PostgreSQL', () => {
  let dovecot: Dovecot;
  let fleet: Fleet;
  let silent: Door;
  let stall: Door;
  const tag = randomBytes(3).toString('hex');
  const onDovecot = [1, 2, 3, 4].map((i) => `fine${i}-${tag}@yahoo.com`);
  const quiet = `quiet-${tag}@example.net`;
  const stalled = `stalled-${tag}@example.net`;

  beforeAll(async () => {
    dovecot = await startDovecot();
    for (const user of [...onDovecot, quiet, stalled]) {
      await dovecot.addUser({ user, password: PASSWORD });
      for (let i = 0; i < 3; i++) {
        await dovecot.deliver(
          user,
          'INBOX',
          rawMessage({
            from: `News ${i} <news${i}@list.example>`,
            subject: `Issue ${i}`,
            date: daysAgo(i + 1),
            listUnsubscribe: `<https://list.example/u/${i}>`,
          }),
        );
      }
    }
    silent = await startDoor(dovecot);
    stall = await startDoor(dovecot);
    fleet = await startFleet(url!, {
      MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(),
      IMAP_ALLOWED_HOSTS: '127.0.0.1',
      AUTH_RATE_LIMIT: '1000/1m',
      SCAN_INTERVAL: '2s',
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await silent?.close();
    await stall?.close();
    await dovecot?.stop();
  });

  const rows = () =>
    fleet.query<Row>('SELECT email, status, last_error, scan_complete, last_scanned_at FROM mailboxes');
  const row = async (email: string) => (await rows()).find((r) => r.email === email)!;

  it('ties up one slot for its timeouts, records why, and the others are checked meanwhile', async () => {
    // Mailboxes are added while the servers answer (adding one logs in), before any worker runs.
    const api = await fleet.start('api,live');
    const http = new HttpSession(api.origin!);
    expect(
      (await http.call('/auth/signup', 'POST', { email: `o-${tag}@example.com`, password: PASSWORD })).ok,
    ).toBe(true);
    for (const email of onDovecot) {
      expect((await http.call('/auth/yahoo', 'POST', { email, appPassword: PASSWORD })).status).toBe(200);
    }
    for (const [email, door] of [
      [quiet, silent],
      [stalled, stall],
    ] as const) {
      const added = await http.call('/auth/imap', 'POST', {
        email,
        appPassword: PASSWORD,
        host: door.host,
        port: door.port,
        secure: false,
      });
      expect(added.status).toBe(200);
    }
    silent.mode = 'silent';
    stall.mode = 'stall';
    await fleet.start('worker');
    await fleet.start('scheduler');

    // The four on Dovecot are scanned, and then checked again, while the stalled server still holds its
    // first connection (60 s).
    await until(
      'the first scans on Dovecot',
      async () =>
        (await rows()).filter((r) => onDovecot.includes(r.email) && r.scan_complete === 1).length === 4,
      45_000,
    );
    const scanned = new Map((await rows()).map((r) => [r.email, Number(r.last_scanned_at)]));
    await until(
      'a check of each mailbox on Dovecot after its scan',
      async () =>
        (await rows()).every(
          (r) => !onDovecot.includes(r.email) || Number(r.last_scanned_at) > scanned.get(r.email)!,
        ),
      30_000,
    );
    expect(stall.connections).toHaveLength(2);
    expect(stall.open()).toBe(1);
    expect((await row(stalled)).status).toBe('scanning');

    // Each hanging mailbox fails its check with what happened, within its timeout.
    await until(
      'the silent server named on its mailbox',
      async () => (await row(quiet)).last_error !== null,
      15_000 + 30_000,
    );
    // (Queued again at once, its next try shows it as scanning; the error stays until a check succeeds.)
    expect((await row(quiet)).last_error).toBe(
      `The mail server at 127.0.0.1:${silent.port} did not answer within 15 s (it took the connection but sent no greeting).`,
    );
    expect(['error', 'scanning']).toContain((await row(quiet)).status);
    await until(
      'the stalled server named on its mailbox',
      async () => (await row(stalled)).last_error !== null,
      90_000,
    );
    expect((await row(stalled)).last_error).toBe(
      `The mail server at 127.0.0.1:${stall.port} did not answer within 60 s.`,
    );
    expect(['error', 'scanning']).toContain((await row(stalled)).status);

    // One connection at a time each (its retries and the scheduler's new jobs wait for the running one),
    // each ended by the client at its timeout.
    expect(silent.mostOpen).toBe(1);
    expect(stall.mostOpen).toBe(1);
    for (const [door, timeoutMs] of [
      [silent, 15_000],
      [stall, 60_000],
    ] as const) {
      const ended = door.connections.slice(1).filter((c) => c.closed !== null);
      expect(ended.length).toBeGreaterThan(0);
      for (const c of ended) {
        expect(c.closed! - c.opened).toBeGreaterThanOrEqual(timeoutMs - 1000);
        expect(c.closed! - c.opened).toBeLessThan(timeoutMs + 10_000);
      }
    }
    // The mailboxes on Dovecot were checked all along, and are fine.
    const now = Date.now();
    for (const r of (await rows()).filter((x) => onDovecot.includes(x.email))) {
      expect(r.status === 'active' || r.status === 'scanning').toBe(true);
      expect(r.last_error).toBeNull();
      expect(now - Number(r.last_scanned_at)).toBeLessThan(20_000);
    }
  }, 240_000);
});
