import { beforeAll, describe, expect, it } from 'vitest';
import type { BrandRow } from '#contract/api.js';
import { withTestApp } from '#test/fixtures/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { startSmtpPeer } from '#test/helpers/smtp-peer.js';

// The subscription list grouped by brand (group=brand) on a real Dovecot mailbox scanned through the API:
// Public Suffix List brands (co.uk, github.io, an IDN in both spellings), senders sharing a List-Id across
// sending domains, the four orders, search, keyset pages with totals, and another user's senders kept out.

const { dovecot } = peersForThisFile({ dovecot: () => startDovecot() });

interface Mail {
  from: string;
  days: number;
  listId?: string;
  seen?: boolean;
}

const mail = (m: Mail) => ({
  raw: rawMessage({
    from: `News <${m.from}>`,
    subject: `From ${m.from}`,
    date: daysAgo(m.days),
    listUnsubscribe: `<mailto:leave@unsubscribe.example>`,
    ...(m.listId ? { listId: m.listId } : {}),
  }),
  flags: m.seen ? 'S' : '',
});

// shop.co.uk: 4 messages, 2 read; club.example (one List-Id, two provider domains): 3, 0 read;
// xn--bcher-kva.example: 2, 1 read; alice.github.io, bob.github.io and esp-one.example: 1 each.
const MAILBOX: Mail[] = [
  { from: 'news@news.shop.co.uk', days: 1, seen: true },
  { from: 'news@news.shop.co.uk', days: 11 },
  { from: 'news@news.shop.co.uk', days: 12 },
  { from: 'deals@offers.shop.co.uk', days: 3, seen: true },
  { from: 'me@alice.github.io', days: 4, seen: true },
  { from: 'me@bob.github.io', days: 5 },
  { from: 'a@news.bücher.example', days: 6, seen: true },
  { from: 'b@xn--bcher-kva.example', days: 7 },
  { from: 'bounce@mailer.esp-one.example', days: 8, listId: 'Weekly club <weekly.club.example>' },
  { from: 'bounce@mailer.esp-one.example', days: 13, listId: '<weekly.club.example>' },
  { from: 'bounce@send.esp-two.example', days: 9, listId: '<weekly.club.example>' },
  { from: 'info@esp-one.example', days: 10 },
];

describe.each(DIALECTS)('subscriptions grouped by brand on %s (Dovecot)', (dialect) => {
  const { smtp } = peersForThisFile({
    smtp: () => startSmtpPeer({ user: 'unused@yahoo.com', password: 'unused' }),
  });
  const t = withTestApp(dialect, () => ({
    MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(smtp.port),
    SCAN_INTERVAL: '1s',
  }));
  let client: Client;
  let other: Client;

  async function connect(c: Client, mails: Mail[]) {
    const email = uniqueEmail('yahoo').replace('@example.com', '@yahoo.com');
    const password = 'app password';
    await dovecot.addUser({ user: email, password });
    for (const m of mails.map(mail)) await dovecot.deliver(email, 'INBOX', m.raw, m.flags);
    await c.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await c.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
  }

  beforeAll(async () => {
    client = new Client(t.app);
    other = new Client(t.app);
    await connect(client, MAILBOX);
    // Another user with a sender of the same brand and one of a brand of their own.
    await connect(other, [
      { from: 'secret@news.shop.co.uk', days: 2 },
      { from: 'private@elsewhere.example', days: 2 },
    ]);
  });

  const brands = (query: string) => client.call('GET /get-unsubscribe-emails?group=brand', { query });
  const names = (rows: BrandRow[]) => rows.map((b) => b.brand);
  const addresses = (row: BrandRow | undefined) => (row?.senders ?? []).map((s) => s.address).sort();

  it('groups senders by registrable domain and by shared List-Id, newest brand first', async () => {
    const { data, total } = await brands('limit=50');
    expect(names(data)).toEqual([
      'shop.co.uk',
      'alice.github.io',
      'bob.github.io',
      'xn--bcher-kva.example',
      'club.example',
      'esp-one.example',
    ]);
    expect(total).toBe(6);
    // Named by the name their senders write (every mail here is from "News"), the domain beside it.
    expect(data.map((b) => b.name)).toEqual(data.map(() => 'News'));
    const by = new Map(data.map((b) => [b.brand, b]));
    expect(addresses(by.get('shop.co.uk'))).toEqual(['deals@offers.shop.co.uk', 'news@news.shop.co.uk']);
    expect(by.get('shop.co.uk')).toMatchObject({ messageCount: 4, readRate: 0.5 });
    expect(by.get('shop.co.uk')?.lastMessageAt).toBe(daysAgo(1).toISOString());
    expect(by.get('xn--bcher-kva.example')?.senders).toHaveLength(2);
    expect(by.get('xn--bcher-kva.example')).toMatchObject({ messageCount: 2, readRate: 0.5 });
    // The List-Id's senders go with the list, the provider's own sender stays with the provider.
    expect(addresses(by.get('club.example'))).toEqual([
      'bounce@mailer.esp-one.example',
      'bounce@send.esp-two.example',
    ]);
    expect(by.get('club.example')).toMatchObject({ messageCount: 3, readRate: 0 });
    expect(addresses(by.get('esp-one.example'))).toEqual(['info@esp-one.example']);
    // The senders of a brand are the list's own rows, newest first.
    expect(by.get('shop.co.uk')?.senders.map((s) => s.address)).toEqual([
      'news@news.shop.co.uk',
      'deals@offers.shop.co.uk',
    ]);
  });

  it('never shows another user’s senders or brands', async () => {
    const { data } = await brands('limit=50');
    const all = data.flatMap((b) => b.senders.map((s) => s.address));
    expect(all).not.toContain('secret@news.shop.co.uk');
    expect(names(data)).not.toContain('elsewhere.example');
    const theirs = await other.call('GET /get-unsubscribe-emails?group=brand', { query: { limit: 50 } });
    expect(theirs.total).toBe(2);
    expect(addresses(theirs.data.find((b) => b.brand === 'shop.co.uk'))).toEqual(['secret@news.shop.co.uk']);
  });

  it('orders brands by their messages, read rate and messages a month', async () => {
    const byMessages = await brands('sort=messages&limit=50');
    expect(names(byMessages.data).slice(0, 3)).toEqual([
      'shop.co.uk',
      'club.example',
      'xn--bcher-kva.example',
    ]);
    const counts = byMessages.data.map((b) => b.messageCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));

    const byRead = await brands('sort=readRate&limit=50');
    const rates = byRead.data.map((b) => b.readRate ?? 2);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
    expect(byRead.data.at(-1)?.brand).toBe('alice.github.io');

    const perMonth = await brands('sort=perMonth&limit=50');
    const monthly = perMonth.data.map((b) => b.messagesPerMonth);
    expect(monthly).toEqual([...monthly].sort((a, b) => b - a));
    expect(perMonth.data[0]?.brand).toBe('shop.co.uk');
  });

  it('searches brand names and the names and addresses of their senders', async () => {
    const byAddress = await brands('q=ESP-TWO&limit=50');
    expect(names(byAddress.data)).toEqual(['club.example']);
    expect(byAddress.total).toBe(1);
    // A matching sender brings its whole brand.
    expect(byAddress.data[0]?.senders).toHaveLength(2);
    const byBrand = await brands('q=github.io&limit=50');
    expect(names(byBrand.data)).toEqual(['alice.github.io', 'bob.github.io']);
    expect(byBrand.total).toBe(2);
    expect((await brands('q=100%25&limit=50')).data).toEqual([]);
  });

  it('pages whole brands of at most `limit` senders in every order, each brand once, with the total', async () => {
    for (const sort of ['newest', 'messages', 'readRate', 'perMonth']) {
      const whole = (await brands(`sort=${sort}&limit=50`)).data;
      const seen: string[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const page = await brands(
          `sort=${sort}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.total).toBe(6);
        const senders = page.data.reduce((n, b) => n + b.senders.length, 0);
        expect(senders).toBeLessThanOrEqual(4);
        // Full: the next brand would not have fitted.
        const next = whole[seen.length + page.data.length];
        if (next) expect(senders + next.senders.length).toBeGreaterThan(4);
        seen.push(...names(page.data));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      // 9 senders in brands of 2, 2, 2 and 1, 1, 1: three pages whatever the order.
      expect(pages).toBe(3);
      expect(seen).toEqual(names(whole));
    }
    // A brand with more senders than the limit is a page of its own.
    const one = await brands('limit=1');
    expect(names(one.data)).toEqual(['shop.co.uk']);
    expect(one.data[0]?.senders).toHaveLength(2);
    expect(one.nextCursor).toEqual(expect.any(String));
  });

  it('shows a brand as its senders are now, right after an action on one of them', async () => {
    const before = (await brands('limit=50')).data.find((b) => b.brand === 'xn--bcher-kva.example');
    const kept = before?.senders.find((s) => s.address === 'b@xn--bcher-kva.example');
    expect(kept).toBeDefined();
    expect((await client.post('/keep-subscription', { subscriptionId: kept?.id })).statusCode).toBe(200);
    const after = await brands('limit=50');
    const row = after.data.find((b) => b.brand === 'xn--bcher-kva.example');
    expect(row?.senders.map((s) => s.id)).toEqual(
      before?.senders.filter((s) => s.id !== kept?.id).map((s) => s.id),
    );
    expect(row).toMatchObject({ messageCount: 1, readRate: 1 });
    const keptList = await brands('category=kept&limit=50');
    expect(names(keptList.data)).toEqual(['xn--bcher-kva.example']);
    // Back to review, for the tests after this one.
    expect((await client.post('/review-subscription', { subscriptionId: kept?.id })).statusCode).toBe(200);
    expect(
      addresses((await brands('limit=50')).data.find((b) => b.brand === 'xn--bcher-kva.example')),
    ).toHaveLength(2);
  });

  it('refuses a sender cursor, a cursor of another order and an unknown group', async () => {
    const first = await brands('sort=messages&limit=2');
    expect(first.nextCursor).toEqual(expect.any(String));
    const wrongOrder = await client.get(
      `/get-unsubscribe-emails?group=brand&sort=newest&limit=2&cursor=${first.nextCursor}`,
    );
    expect(wrongOrder.statusCode).toBe(400);
    const senders = await client.call('GET /get-unsubscribe-emails', { query: { limit: 2 } });
    const senderCursor = await client.get(
      `/get-unsubscribe-emails?group=brand&limit=2&cursor=${senders.nextCursor}`,
    );
    expect(senderCursor.statusCode).toBe(400);
    expect((await client.get('/get-unsubscribe-emails?group=domain')).statusCode).toBe(400);
  });

  it('answers the whole category without a limit, and the sender list unchanged without group', async () => {
    const whole = await brands('');
    expect(names(whole.data)).toHaveLength(6);
    expect(whole.nextCursor).toBeUndefined();
    const senders = await client.call('GET /get-unsubscribe-emails');
    expect(senders.data).toHaveLength(9);
    expect(senders.data[0]).toMatchObject({ address: 'news@news.shop.co.uk' });
  });
});
