import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { killProduct } from '#test/helpers/product-process.js';
import { type Door, type Fleet, startDoor, startFleet, until } from './fleet.js';

// Two worker processes on PostgreSQL; one is killed with SIGKILL in the middle of two checks (their mail
// servers are slow to answer at that moment). The other worker takes both checks over, with the product's
// own settings (pg-boss's expiry would have held them for 15 minutes), and counts the new mail they found.

const url = process.env.TEST_DATABASE_URL;
const PASSWORD = 'app password';

interface Row {
  id: string;
  email: string;
  status: string;
  scan_complete: number;
  last_scanned_at: string | null;
}

describe.skipIf(!url)('a worker killed mid-check, on PostgreSQL', () => {
  let dovecot: Dovecot;
  let fleet: Fleet;
  const tag = randomBytes(3).toString('hex');
  const users = [1, 2, 3].map((i) => `box${i}-${tag}@example.net`);
  const doors = new Map<string, Door>();

  const news = (i: number, sender: string) =>
    rawMessage({
      from: `${sender} <${sender.toLowerCase()}@list.example>`,
      subject: `Issue ${i}`,
      date: daysAgo(i + 1),
      listUnsubscribe: `<https://list.example/u/${sender}>`,
    });

  beforeAll(async () => {
    dovecot = await startDovecot();
    for (const user of users) {
      await dovecot.addUser({ user, password: PASSWORD });
      for (let i = 0; i < 3; i++) await dovecot.deliver(user, 'INBOX', news(i, 'Weekly'));
      doors.set(user, await startDoor(dovecot));
    }
    fleet = await startFleet(url!, {
      IMAP_ALLOWED_HOSTS: '127.0.0.1',
      AUTH_RATE_LIMIT: '1000/1m',
      SCAN_INTERVAL: '2s',
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    for (const door of doors.values()) await door.close();
    await dovecot?.stop();
  });

  const rows = () =>
    fleet.query<Row>('SELECT id, email, status, scan_complete, last_scanned_at FROM mailboxes');

  it('has its checks taken over by the other worker within a minute', async () => {
    const api = await fleet.start('api,live,scheduler');
    const http = new HttpSession(api.origin!);
    expect(
      (await http.call('/auth/signup', 'POST', { email: `o-${tag}@example.com`, password: PASSWORD })).ok,
    ).toBe(true);
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
    }
    const first = await fleet.start('worker');
    await until(
      'the first scans',
      async () => (await rows()).filter((r) => r.scan_complete === 1).length === users.length,
      45_000,
    );

    // New mail for two mailboxes, whose servers now greet and then keep the checks waiting (60 s before a
    // timeout would end them): the only worker takes both checks and is killed in their middle.
    const slow = users.slice(0, 2);
    for (const user of slow) {
      await dovecot.deliver(user, 'INBOX', news(0, 'Fresh'));
      const door = doors.get(user)!;
      door.mode = 'stall';
    }
    const opened = new Map(slow.map((u) => [u, doors.get(u)!.connections.length]));
    await until(
      'the checks of the slow mailboxes under way',
      () =>
        slow.every((u) => doors.get(u)!.open() === 1 && doors.get(u)!.connections.length > opened.get(u)!),
      30_000,
    );
    await fleet.start('worker');
    expect(slow.every((u) => doors.get(u)!.open() === 1)).toBe(true);
    await killProduct(first.child);
    const killedAt = Date.now();
    for (const user of slow) doors.get(user)!.mode = 'forward';

    // The other worker checks both, with the new mail counted.
    const byEmail = async () => new Map((await rows()).map((r) => [r.email, r]));
    await until(
      'both checks done by the other worker',
      async () => {
        const now = await byEmail();
        return slow.every(
          (u) => now.get(u)!.status === 'active' && Number(now.get(u)!.last_scanned_at) > killedAt,
        );
      },
      60_000,
    );
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(60_000);
    for (const user of slow) {
      const id = (await byEmail()).get(user)!.id;
      const senders = await fleet.query<{ address: string; message_count: number }>(
        'SELECT address, message_count FROM senders WHERE mailbox_id = $1 ORDER BY address',
        [id],
      );
      expect(senders.map((s) => [s.address, Number(s.message_count)])).toEqual([
        ['fresh@list.example', 1],
        ['weekly@list.example', 3],
      ]);
    }
    console.info(`checks taken over ${Math.round(tookMs / 1000)} s after the kill`);
  }, 180_000);
});
