import { afterEach, describe, expect, it } from 'vitest';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox, folderRule, listNews } from '#test/fixtures/sender-rules.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { startStripeFake } from '#test/helpers/stripe-fake/index.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// Sender rules and the Screener through the API, on a real Dovecot (the adapters' own files test every
// provider path and server profile): each rule kind applied at once and undone, a check applying the
// rules to new mail without counting moved mail twice, the Screener taking a new sender and giving its
// mail back on Keep or when switched off, ownership, validation, Premium and a block ending a rule.

const { dovecot, stripe } = peersForThisFile({
  dovecot: () => startDovecot(),
  stripe: () => startStripeFake(),
});

const news = listNews;

/** Folder names of the user's mailbox, as its IMAP server lists them. */
const folderNames = (user: { email: string; password: string }): Promise<string[]> =>
  dovecot.withClient({ user: user.email, password: user.password }, async (client) =>
    (await client.list()).map((f) => f.path),
  );

describe.each(DIALECTS)('sender rules and the Screener on %s (Dovecot)', (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function connected(messages: string[], env: Record<string, string> = {}) {
    const user = await yahooUser(dovecot, dialect, messages, env);
    open.push(user);
    const { client, t } = user;
    const list = async (category = 'uncategorized') =>
      (await client.call('GET /get-unsubscribe-emails', { query: { category } })).data;
    const row = async (address: string) => {
      for (const category of ['uncategorized', 'kept', 'unsubscribed']) {
        const found = (await list(category)).find((s) => s.address === address);
        if (found) return found;
      }
      throw new Error(`${address} is not listed`);
    };
    const count = (folder: string) => dovecot.count({ user: user.email, password: user.password }, folder);
    /** Runs the check for new mail once, as the scheduler would. */
    const check = () => checkMailbox(t);
    const deliver = (raw: string, folder = 'INBOX') => dovecot.deliver(user.email, folder, raw);
    return { ...user, list, row, count, check, deliver };
  }

  it('files a sender in a new folder at once, lists the rule, and puts the mail back on remove', async () => {
    const u = await connected([
      news('deals@shop.example', 'A', 1),
      news('deals@shop.example', 'B', 2),
      news('other@shop.example', 'C', 1),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Newsletters' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      rule: folderRule('Newsletters', 'Newsletters'),
      applied: { moved: 2, trashed: 0, archived: 0 },
    });
    expect([await u.count('INBOX'), await u.count('Newsletters')]).toEqual([1, 2]);
    expect(await folderNames(u)).toContain('Newsletters');

    const rules = (await u.client.get('/sender-rules')).json();
    expect(rules.data).toEqual([
      expect.objectContaining({ subscriptionId: id, address: 'deals@shop.example', account: u.email }),
    ]);
    expect((await u.row('deals@shop.example')).rule).toMatchObject({
      folder: 'Newsletters',
      keepNewest: null,
    });
    // The folder picker offers it, and never the inbox or the trash.
    const folders = (await u.client.get(`/mailbox-folders?email=${encodeURIComponent(u.email)}`)).json();
    const paths = folders.data.map((f: { path: string }) => f.path);
    expect(paths).toContain('Newsletters');
    expect(paths).not.toContain('INBOX');
    expect(paths).not.toContain('Trash');

    const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
    expect(removed.json()).toEqual({ restored: 2 });
    expect([await u.count('INBOX'), await u.count('Newsletters')]).toEqual([3, 0]);
    expect((await u.client.get('/sender-rules')).json().data).toEqual([]);
    expect(await u.t.db.selectFrom('moved_messages').selectAll().execute()).toEqual([]);
    // Counts are unchanged by the round trip, and stay so after a check reads the folders again.
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(2);
  });

  it('keeps only the newest N, and undo brings the trashed back', async () => {
    const u = await connected([1, 2, 3, 4, 5].map((d) => news('daily@paper.example', `Day ${d}`, d)));
    const id = (await u.row('daily@paper.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 2 } });
    expect(put.json().applied).toEqual({ moved: 0, trashed: 3, archived: 0 });
    expect([await u.count('INBOX'), await u.count('Trash')]).toEqual([2, 3]);
    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 3 });
    expect([await u.count('INBOX'), await u.count('Trash')]).toEqual([5, 0]);
  });

  it('archives what is older than N days, creating Archive, and knows when the next one ages', async () => {
    const u = await connected([
      news('weekly@mag.example', 'Old 1', 50),
      news('weekly@mag.example', 'Old 2', 40),
      news('weekly@mag.example', 'Recent', 10),
    ]);
    const id = (await u.row('weekly@mag.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, {
      rule: { expireAfterDays: 30, expireAction: 'archive' },
    });
    expect(put.json().applied).toEqual({ moved: 0, trashed: 0, archived: 2 });
    expect([await u.count('INBOX'), await u.count('Archive')]).toEqual([1, 2]);
    const stored = await u.t.db.selectFrom('sender_rules').select('next_due_at').executeTakeFirstOrThrow();
    // The recent message ages past 30 days 30 days after its date.
    expect(Number(stored.next_due_at)).toBe(daysAgo(10).getTime() + 30 * 86_400_000);
    // Applying again moves nothing more (the archived are not archived twice).
    const again = await u.client.put(`/sender-rules/${id}`, {
      rule: { expireAfterDays: 30, expireAction: 'archive' },
    });
    expect(again.json().applied).toEqual({ moved: 0, trashed: 0, archived: 0 });
    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 2 });
    expect([await u.count('INBOX'), await u.count('Archive')]).toEqual([3, 0]);
  });

  it('files new mail at the next check, counting it once, and trashes what a keepNewest leaves', async () => {
    const u = await connected([news('deals@shop.example', 'A', 3), news('deals@shop.example', 'B', 2)]);
    const id = (await u.row('deals@shop.example')).id;
    await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals', keepNewest: 2 } });
    expect([await u.count('INBOX'), await u.count('Deals')]).toEqual([0, 2]);

    await u.deliver(news('deals@shop.example', 'C', 0));
    await u.check();
    // C filed, then the oldest (A) trashed: two kept in Deals.
    expect([await u.count('INBOX'), await u.count('Deals'), await u.count('Trash')]).toEqual([0, 2, 1]);
    await u.check();
    // Counted once, and the trashed one out of the count at once (it follows the mail).
    expect((await u.row('deals@shop.example')).messageCount).toBe(2);
    // Removing the rule with restore puts everything it moved back in the inbox, the trashed one too.
    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 3 });
    expect([await u.count('INBOX'), await u.count('Deals'), await u.count('Trash')]).toEqual([3, 0, 0]);
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
  });

  it('refuses others’ senders, bad rules, and blocked senders; a block ends a rule', async () => {
    const u = await connected([news('deals@shop.example', 'A', 1), news('promo@shop.example', 'B', 1)]);
    const id = (await u.row('deals@shop.example')).id;
    const stranger = new Client(u.t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await stranger.put(`/sender-rules/${id}`, { rule: { keepNewest: 3 } })).statusCode).toBe(404);
    expect((await stranger.delete(`/sender-rules/${id}`)).statusCode).toBe(404);
    expect((await u.client.delete(`/sender-rules/${id}`)).statusCode).toBe(404);

    for (const [rule, field] of [
      [{}, 'Choose at least one thing'],
      [{ keepNewest: 0 }, 'Keep between 1 and 100'],
      [{ keepNewest: 101 }, 'Keep between 1 and 100'],
      [{ expireAfterDays: 3651, expireAction: 'trash' }, 'Choose between 1 and 3650'],
      [{ expireAfterDays: 5 }, 'trash or the archive'],
      [{ folder: 'INBOX' }, 'Choose a folder'],
      [{ folder: 'Trash' }, 'Choose a folder'],
    ] as const) {
      const res = await u.client.put(`/sender-rules/${id}`, { rule });
      expect(res.statusCode, JSON.stringify(rule)).toBe(400);
      expect(res.json().message).toContain(field);
    }

    await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Shop' } });
    expect((await u.client.post('/block-subscription', { subscriptionId: id })).statusCode).toBe(200);
    expect((await u.client.get('/sender-rules')).json().data).toEqual([]);
    const refused = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 1 } });
    expect(refused.statusCode).toBe(409);
  });

  it('counts mail once after undoing a block or a rule moved it back under new ids', async () => {
    const u = await connected([news('deals@shop.example', 'A', 1), news('deals@shop.example', 'B', 2)]);
    const id = (await u.row('deals@shop.example')).id;
    expect((await u.client.post('/block-subscription', { subscriptionId: id })).statusCode).toBe(200);
    expect((await u.client.post('/unblock-subscription', { subscriptionId: id })).json()).toMatchObject({
      restoredFromTrash: 2,
    });
    await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals' } });
    await u.client.delete(`/sender-rules/${id}?restore=true`);
    await u.check();
    expect(await u.count('INBOX')).toBe(2);
    expect((await u.row('deals@shop.example')).messageCount).toBe(2);
  });

  it('answers 402 on the free trial when billing is on', async () => {
    const u = await connected([news('deals@shop.example', 'A', 1)], stripe.env());
    const id = (await u.row('deals@shop.example')).id;
    const res = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 1 } });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toContain('Premium');
    expect(await u.count('INBOX')).toBe(1);
  });

  it('screens a new sender at a check, and gives its mail back on Keep', async () => {
    const u = await connected([news('known@shop.example', 'A', 2)]);
    const accounts = (await u.client.call('GET /get-email-accounts')).data;
    expect(accounts[0]!.screener).toBe(false);
    const on = await u.client.put('/screener', { email: u.email, enabled: true });
    expect(on.json()).toEqual({ enabled: true, restored: 0 });
    expect((await u.client.call('GET /get-email-accounts')).data[0]!.screener).toBe(true);
    const knownId = (await u.row('known@shop.example')).id;
    await u.client.post('/keep-subscription', { subscriptionId: knownId });

    await u.deliver(news('fresh@new.example', 'Hello', 0));
    await u.deliver(news('fresh@new.example', 'Again', 0));
    await u.deliver(news('known@shop.example', 'Kept one', 0));
    await u.deliver(
      rawMessage({ from: 'Friend <friend@mail.example>', subject: 'Lunch?', date: daysAgo(0) }),
    );
    await u.check();

    const fresh = await u.row('fresh@new.example');
    expect(fresh).toMatchObject({ category: 'uncategorized', screened: true, messageCount: 2 });
    expect((await u.row('known@shop.example')).screened).toBe(false);
    // The new sender's two messages wait in Screener; the kept sender's and the personal mail stay.
    expect([await u.count('Screener'), await u.count('INBOX')]).toEqual([2, 3]);

    const kept = await u.client.post('/keep-subscription', { subscriptionId: fresh.id });
    expect(kept.json()).toMatchObject({ category: 'kept', screened: false, restoredFromScreener: 2 });
    expect([await u.count('Screener'), await u.count('INBOX')]).toEqual([0, 5]);
    await u.check();
    expect((await u.row('fresh@new.example')).messageCount).toBe(2);
  });

  it('keeps screening a waiting sender, and turning the Screener off puts everything back', async () => {
    const u = await connected([news('known@shop.example', 'A', 2)]);
    await u.client.put('/screener', { email: u.email, enabled: true });
    await u.deliver(news('first@new.example', 'One', 0));
    await u.check();
    await u.deliver(news('first@new.example', 'Two', 0));
    await u.deliver(news('second@new.example', 'Three', 0));
    await u.check();
    expect(await u.count('Screener')).toBe(3);

    const off = await u.client.put('/screener', { email: u.email, enabled: false });
    expect(off.json()).toEqual({ enabled: false, restored: 3 });
    expect([await u.count('Screener'), await u.count('INBOX')]).toEqual([0, 4]);
    expect((await u.row('first@new.example')).screened).toBe(false);
    // Off means off: the next new sender stays in the inbox.
    await u.deliver(news('third@new.example', 'Four', 0));
    await u.check();
    expect([await u.count('Screener'), await u.count('INBOX')]).toEqual([0, 5]);
    expect((await u.client.put('/screener', { email: 'nobody@yahoo.com', enabled: true })).statusCode).toBe(
      404,
    );
  });
});
