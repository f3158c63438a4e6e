import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPhase } from '#server/jobs/scheduler.js';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type Door, type Fleet, startDoor, startFleet, until } from './fleet.js';

// Six mailboxes added within seconds of each other, checked by a split deployment on PostgreSQL with two
// scheduler processes, every 90 s: each is scanned at once when added, then checked at its own time in the
// interval (its phase, from its id), not all at the same moment, and once (the two schedulers enqueue it at
// the same tick; pg-boss merges the two). Each mailbox has its own server address (a door in front of
// Dovecot), so the connections say when each was checked.

const url = process.env.TEST_DATABASE_URL;
const PASSWORD = 'app password';
const INTERVAL = 90_000;
/** From a mailbox's phase to its check's connection: the tick (1.5 s), the worker's poll (2 s), slack. */
const LATE = 12_000;

describe.skipIf(!url)('checks spread over the interval, on PostgreSQL', () => {
  let dovecot: Dovecot;
  let fleet: Fleet;
  const tag = randomBytes(3).toString('hex');
  const users = [1, 2, 3, 4, 5, 6].map((i) => `spread${i}-${tag}@example.net`);
  const doors = new Map<string, Door>();

  beforeAll(async () => {
    dovecot = await startDovecot();
    for (const user of users) {
      await dovecot.addUser({ user, password: PASSWORD });
      await dovecot.deliver(
        user,
        'INBOX',
        rawMessage({
          from: 'News <news@list.example>',
          subject: 'Issue',
          date: daysAgo(1),
          listUnsubscribe: '<https://list.example/u>',
        }),
      );
      doors.set(user, await startDoor(dovecot));
    }
    fleet = await startFleet(url!, {
      IMAP_ALLOWED_HOSTS: '127.0.0.1',
      AUTH_RATE_LIMIT: '1000/1m',
      SCAN_INTERVAL: '90s',
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    for (const door of doors.values()) await door.close();
    await dovecot?.stop();
  });

  it('scans a new mailbox at once, then checks each at its own time, once per interval', async () => {
    const api = await fleet.start('api,live');
    await fleet.start('worker');
    await fleet.start('scheduler');
    await fleet.start('scheduler');
    const http = new HttpSession(api.origin!);
    expect(
      (await http.call('/auth/signup', 'POST', { email: `o-${tag}@example.com`, password: PASSWORD })).ok,
    ).toBe(true);
    const addedAt = new Map<string, number>();
    for (const user of users) {
      const door = doors.get(user)!;
      const added = await http.call('/auth/imap', 'POST', {
        email: user,
        appPassword: PASSWORD,
        host: door.host,
        port: door.port,
        secure: false,
      });
      expect(added.status).toBe(200);
      addedAt.set(user, Date.now());
    }
    const rows = () =>
      fleet.query<{ id: string; email: string; scan_complete: number; last_scanned_at: string }>(
        'SELECT id, email, scan_complete, last_scanned_at FROM mailboxes',
      );
    await until(
      'the first scans',
      async () => (await rows()).filter((r) => r.scan_complete === 1).length === users.length,
      45_000,
    );
    // The first scan did not wait for the mailbox's phase (the connection after the one that added it).
    for (const user of users) {
      expect(doors.get(user)!.connections[1]!.opened - addedAt.get(user)!).toBeLessThan(10_000);
    }
    const scannedAt = new Map((await rows()).map((r) => [r.email, Number(r.last_scanned_at)]));
    const phase = new Map((await rows()).map((r) => [r.email, checkPhase(r.id, INTERVAL)]));

    // Settled: the first scans and what was queued during them are over. From now, each check comes at
    // the mailbox's phase, within an interval of its scan.
    await new Promise((r) => setTimeout(r, 10_000));
    const settled = Date.now();
    const checks = (user: string) =>
      doors
        .get(user)!
        .connections.filter((c) => c.opened > settled)
        .map((c) => c.opened);
    await until(
      'a check of every mailbox',
      () => users.every((u) => checks(u).length > 0),
      INTERVAL + LATE + 10_000,
    );
    // A second enqueue of the same tick (the other scheduler) would run right after the first.
    await new Promise((r) => setTimeout(r, 8000));

    const report: Array<[number, string]> = [];
    for (const user of users) {
      const times = checks(user);
      const lateBy = (t: number) => (((t - phase.get(user)!) % INTERVAL) + INTERVAL) % INTERVAL;
      for (const t of times)
        expect(lateBy(t), `${user} checked ${lateBy(t)} ms after its phase`).toBeLessThan(LATE);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(INTERVAL / 2);
      expect(times[0]! - scannedAt.get(user)!).toBeLessThan(INTERVAL + LATE);
      report.push([
        phase.get(user)!,
        `${Math.round(phase.get(user)! / 1000)} s: checked ${lateBy(times[0]!)} ms after`,
      ]);
    }
    const lines = report.sort(([a], [b]) => a - b).map(([, line]) => line);
    console.info(`phases in the 90 s interval, and each check:\n${lines.join('\n')}`);
  }, 240_000);
});
