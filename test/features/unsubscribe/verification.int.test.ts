import { afterEach, describe, expect, it } from 'vitest';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, createTestApp, DIALECTS, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

// Verification after an unsubscribe (beyond the spec): mail from an unsubscribed sender
// dated more than 2 days after the unsubscribe marks it "still sending"; Block (or the auto-block
// setting) then trashes its mail. A Yahoo mailbox on a real Dovecot.

const dovecot = withDovecot();

describe.each(DIALECTS)('senders still sending on %s', (dialect) => {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  const news = (address: string, subject: string, n: number) =>
    rawMessage({
      from: `News <${address}>`,
      subject,
      date: daysAgo(n),
      listUnsubscribe: `<https://${address.split('@')[1]}/unsubscribe>`,
    });

  async function connected(messages: string[]) {
    const email = uniqueEmail('verify').replace('@example.com', '@yahoo.com');
    const password = 'app password';
    await dovecot.addUser({ user: email, password });
    for (const m of messages) await dovecot.deliver(email, 'INBOX', m);
    const t = await createTestApp(dialect, {
      MAIL_PROVIDER_OVERRIDES: JSON.stringify({
        yahoo: { imap: { host: '127.0.0.1', secure: false, port: dovecot.port } },
      }),
      SCAN_INTERVAL: '1s',
    });
    open.push(t);
    const client = new Client(t.app);
    await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
    const list = async (category: string) =>
      (await client.call('GET /get-unsubscribe-emails', { query: { category } })).data;
    const idOf = async (address: string) =>
      (await list('uncategorized')).find((s) => s.address === address)!.id;
    /** Confirms a manual unsubscribe, then dates it `n` days back (instead of waiting). */
    const unsubscribedDaysAgo = async (id: string, n: number) => {
      expect((await client.post('/manual-unsubscribe', { subscriptionId: id })).statusCode).toBe(200);
      await t.db
        .updateTable('senders')
        .set({ unsubscribed_at: daysAgo(n).getTime() })
        .where('id', '=', id)
        .execute();
    };
    /** Runs the daily check until `done` holds. */
    const check = async (done: () => Promise<boolean>) => {
      const scheduler = t.app.startScheduler();
      try {
        await expect.poll(done, { timeout: 15_000 }).toBe(true);
      } finally {
        scheduler.stop();
      }
      await t.app.jobs.idle();
    };
    const imapCount = (folder: string) => dovecot.count({ user: email, password }, folder);

    return { t, client, email, list, idOf, unsubscribedDaysAgo, check, imapCount };
  }

  it('marks a sender still sending after the grace period, and Block trashes its mail', async () => {
    const { client, email, list, idOf, unsubscribedDaysAgo, check, imapCount } = await connected([
      news('late@verify.example', 'Before', 6),
      news('polite@verify.example', 'Before', 6),
    ]);
    const late = await idOf('late@verify.example');
    const polite = await idOf('polite@verify.example');
    await unsubscribedDaysAgo(late, 5);
    await unsubscribedDaysAgo(polite, 2);
    const [before] = (await list('unsubscribed')).filter((s) => s.id === late);
    expect(before).toMatchObject({ unsubscribeMethod: 'manual', stillSending: false });
    expect(before!.unsubscribedAt).toBe(daysAgo(5).toISOString());

    // 4 days after the first unsubscribe (past the grace), 1 day after the second (within it).
    await dovecot.deliver(email, 'INBOX', news('late@verify.example', 'Still here', 1));
    await dovecot.deliver(email, 'INBOX', news('polite@verify.example', 'Last one', 1));
    const byId = async (id: string) => (await list('unsubscribed')).find((s) => s.id === id);
    await check(async () => (await byId(late))?.stillSending === true);
    expect((await byId(polite))?.stillSending).toBe(false);
    expect(await imapCount('Trash')).toBe(0);

    const blocked = await client.post('/block-subscription', { subscriptionId: late });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({
      id: late,
      category: 'unsubscribed',
      unsubscribeMethod: 'block',
      stillSending: false,
    });
    expect(await imapCount('Trash')).toBe(2);
    expect(await byId(late)).toMatchObject({ unsubscribeMethod: 'block', stillSending: false });
  });

  it('blocks such senders at the next check when the setting is on', async () => {
    const { client, email, list, idOf, unsubscribedDaysAgo, check, imapCount } = await connected([
      news('stubborn@verify.example', 'Before', 6),
    ]);
    const id = await idOf('stubborn@verify.example');
    await unsubscribedDaysAgo(id, 5);
    await client.put('/update-settings', {
      alertManualUnsubscribe: true,
      alertAfterUnsubscribe: true,
      autoBlockStillSending: true,
    });
    await dovecot.deliver(email, 'INBOX', news('stubborn@verify.example', 'Still here', 1));
    await check(async () => (await imapCount('Trash')) === 2);
    expect((await list('unsubscribed')).find((s) => s.id === id)).toMatchObject({
      unsubscribeMethod: 'block',
      stillSending: false,
    });
    expect(await imapCount('INBOX')).toBe(0);
  });

  it('clears the unsubscribe date when the sender is kept, and refuses another user’s Block', async () => {
    const { t, client, idOf, unsubscribedDaysAgo, list } = await connected([
      news('kept@verify.example', 'Hello', 3),
    ]);
    const id = await idOf('kept@verify.example');
    await unsubscribedDaysAgo(id, 1);
    const stranger = new Client(t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await stranger.post('/block-subscription', { subscriptionId: id })).statusCode).toBe(404);
    await client.post('/keep-subscription', { subscriptionId: id });
    expect((await list('kept')).find((s) => s.id === id)).toMatchObject({
      unsubscribedAt: null,
      unsubscribeMethod: null,
      stillSending: false,
    });
  });
});
