import { describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startCourier } from '#test/helpers/courier.js';
import { startCyrus } from '#test/helpers/cyrus.js';
import { seedMailbox } from '#test/helpers/imap-seed.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

// The reported failure, end to end through the product: a custom IMAP mailbox on Courier IMAP 5 (no
// UIDNEXT on SELECT, `INBOX.` folders) or Cyrus IMAP 3.6 is added, scanned with exact counts, and its
// daily check finds a new sender; the mailbox stays active. Before the UIDNEXT fix, Add Account answered
// 200 and the scan on Courier ended in `error` with nothing listed. Adapter-level behaviour on these
// servers is in test/mail/imap/matrix.int.test.ts.

const { courier, cyrus } = peersForThisFile({
  courier: () => startCourier(),
  cyrus: () => startCyrus(),
});

const SERVERS = [
  { name: 'Courier IMAP 5', server: () => courier },
  { name: 'Cyrus IMAP 3.6', server: () => cyrus },
];

const NEWS = 'Daily News <news@daily.example>';
const UNSUB = '<https://daily.example/u/1>';

describe.each(DIALECTS)('on %s', (dialect) => {
  const t = withTestApp(dialect, () => ({ IMAP_ALLOWED_HOSTS: '127.0.0.1', SCAN_INTERVAL: '1s' }));

  it.each(SERVERS)(
    'adds a mailbox on $name, scans it exactly, and the daily check finds a new sender',
    async ({ server }) => {
      const imap = server();
      // The product logs in with the email address (Cyrus: virtdomains, helpers/cyrus.ts).
      const account = { user: uniqueEmail('reader'), password: 'app-password-1234' };
      await imap.addUser(account);
      const seed = await seedMailbox(imap, account);
      try {
        const news = (subject: string, days: number) =>
          rawMessage({ from: NEWS, subject, date: daysAgo(days), listUnsubscribe: UNSUB });
        await seed.append(seed.path(), news('News 1', 5), { seen: true });
        await seed.append(seed.path(), news('News 2', 4));
        await seed.append(
          seed.path(),
          rawMessage({ from: 'Friend <friend@example.org>', subject: 'Hi', date: daysAgo(3) }),
        );
        await seed.append(seed.path('Newsletters', 'Daily'), news('News 0', 9));
        await seed.append(
          seed.path('Shopping'),
          rawMessage({
            from: 'Shop <deals@shop.example>',
            subject: 'Sale',
            date: daysAgo(8),
            precedence: 'bulk',
          }),
        );
        await seed.append(seed.path('Trash'), news('Old', 1));

        const client = new Client(t.app);
        expect(
          (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
        ).toBe(200);
        const added = await client.post('/auth/imap', {
          email: account.user,
          appPassword: account.password,
          host: imap.host,
          port: imap.port,
          secure: false,
        });
        expect(added.statusCode, added.body).toBe(200);
        await t.app.jobs.idle();

        expect((await client.get('/get-email-accounts')).json().data).toEqual([
          expect.objectContaining({ status: 'active' }),
        ]);
        const list = (
          await client.call('GET /get-unsubscribe-emails', { query: { category: 'uncategorized' } })
        ).data;
        expect(list.map((s) => [s.address, s.messageCount])).toEqual([
          ['news@daily.example', 3],
          ['deals@shop.example', 1],
        ]);

        await seed.append(
          seed.path(),
          rawMessage({
            from: 'Weekly <weekly@new.example>',
            subject: 'Hello',
            date: daysAgo(0),
            listUnsubscribe: UNSUB,
          }),
        );
        await seed.append(seed.path('Newsletters', 'Daily'), news('News 3', 0));
        const scheduler = t.app.startScheduler();
        try {
          await expect
            .poll(
              async () =>
                (
                  await client.call('GET /get-unsubscribe-emails', { query: { category: 'uncategorized' } })
                ).data.map((s) => [s.address, s.messageCount]),
              { timeout: 15_000 },
            )
            .toEqual([
              ['news@daily.example', 4],
              ['weekly@new.example', 1],
              ['deals@shop.example', 1],
            ]);
        } finally {
          scheduler.stop();
        }
        await t.app.jobs.idle();
        expect((await client.get('/get-email-accounts')).json().data).toEqual([
          expect.objectContaining({ status: 'active' }),
        ]);
      } finally {
        await seed.close();
      }
    },
  );
});
