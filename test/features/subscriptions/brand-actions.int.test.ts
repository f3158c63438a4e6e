import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandRow, BulkAction, BulkStatus, SubscriptionCategory } from '#contract/api.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, type Dialect, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { startHttpsSender } from '#test/helpers/https-sender.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// Acting on a brand (docs/decisions/082-brands.md) as the screen does it: the brand's row is read from
// GET /get-unsubscribe-emails?group=brand, and its senders' ids go to POST /bulk-action, which runs each
// sender through the single-sender path. On a Yahoo mailbox on a real Dovecot (SMTP on a local peer, the
// one-click endpoints on a local HTTPS server), on SQLite and PostgreSQL: every sender of the brand is
// acted on (category, receipts, the sender reached once), one failing sender of the brand (a one-click
// endpoint that never answers, a block that would need the user's yes) leaves the others done, and the
// other brands and another user are untouched.

const { dovecot, sender } = peersForThisFile({
  dovecot: () => startDovecot(),
  sender: () => startHttpsSender(),
});

const stamp = Date.now();
/** The one-click endpoints of one dialect's mailbox (the HTTPS sender serves the whole file). */
const pathsOf = (dialect: Dialect) => ({
  ok: `/brand/ok/${stamp}/${dialect}`,
  hang: `/brand/hang/${stamp}/${dialect}`,
  other: `/brand/other/${stamp}/${dialect}`,
});
const hits = (path: string) => sender.requests.filter((r) => r.path === path).length;

const mailto = (from: string, to: string, days: number, listId?: string) =>
  rawMessage({
    from,
    subject: `News ${days}`,
    date: daysAgo(days),
    listUnsubscribe: `<mailto:${to}>`,
    ...(listId ? { listId } : {}),
  });
const oneClick = (from: string, path: string, days: number) =>
  rawMessage({
    from,
    subject: `Offers ${days}`,
    date: daysAgo(days),
    listUnsubscribe: `<${sender.origin}${path}>`,
    listUnsubscribePost: 'List-Unsubscribe=One-Click',
  });

/** A list without an unsubscribe link (two issues), and one personal-looking message from the same address. */
const listed = (from: string, listId: string, personal: string) => [
  rawMessage({ from, subject: 'Issue 1', date: daysAgo(4), listId }),
  rawMessage({ from, subject: 'Issue 2', date: daysAgo(5), listId }),
  rawMessage({ from, subject: personal, date: daysAgo(6) }),
];

// shop.example (unsubscribed): one-click, mailto, a one-click endpoint that hangs, and a list without a
// way out whose mail is partly personal (a bulk never confirms that block). other.example: untouched.
// club.example (kept): one List-Id from two providers' domains. blockme.example (blocked): two listed
// senders and one with a personal message among its mail. (Built once the HTTPS sender has started.)
const mailbox = (PATHS: ReturnType<typeof pathsOf>) => [
  oneClick('Shop News <news@news.shop.example>', PATHS.ok, 1),
  mailto('Shop Deals <deals@offers.shop.example>', 'leave@shop.example', 2),
  oneClick('Shop Alerts <alerts@shop.example>', PATHS.hang, 3),
  ...listed('Shop Team <team@shop.example>', '<t.shop.example>', 'Lunch?'),
  mailto('Other Letters <letters@other.example>', 'leave@other.example', 1),
  oneClick('Other News <news@mail.other.example>', PATHS.other, 2),
  mailto('Weekly Club <bounce@mailer.esp-one.example>', 'leave@club.example', 3, '<weekly.club.example>'),
  mailto('Weekly Club <bounce@send.esp-two.example>', 'leave@club.example', 4, '<weekly.club.example>'),
  mailto('Block A <a@blockme.example>', 'leave@blockme.example', 1),
  mailto('Block A <a@blockme.example>', 'leave@blockme.example', 2),
  mailto('Block B <b@news.blockme.example>', 'leave@blockme.example', 3),
  ...listed('Block C <c@blockme.example>', '<c.blockme.example>', 'Dinner?'),
];

describe.each(DIALECTS)('acting on a brand on %s', (dialect: Dialect) => {
  let user: YahooUser;
  let client: Client;
  const PATHS = pathsOf(dialect);

  beforeAll(async () => {
    sender.respond(PATHS.ok, { status: 200 });
    sender.respond(PATHS.hang, { hang: true });
    sender.respond(PATHS.other, { status: 200 });
    user = await yahooUser(dovecot, dialect, mailbox(PATHS), { UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1' });
    client = user.client;
  });
  afterAll(async () => {
    await user?.close();
  });

  /** The brand's row as the screen reads it (its first page, newest first). */
  async function brandRow(category: SubscriptionCategory, brand: string): Promise<BrandRow | undefined> {
    const { data } = await client.call('GET /get-unsubscribe-emails?group=brand', {
      query: { category, sort: 'newest', limit: 50 },
    });
    return data.find((b) => b.brand === brand);
  }

  /** The screen's brand button: a bulk action on every sender of the row, followed to its end. */
  async function actOnBrand(action: BulkAction, row: BrandRow): Promise<BulkStatus> {
    const { bulkId } = await client.call('POST /bulk-action', {
      body: { action, subscriptionIds: row.senders.map((s) => s.id) },
      status: 202,
    });
    let status = await client.call('GET /bulk-action/:bulkId', { params: { bulkId } });
    await expect
      .poll(
        async () => {
          status = await client.call('GET /bulk-action/:bulkId', { params: { bulkId } });
          return status.done;
        },
        { timeout: 40_000, interval: 100 },
      )
      .toBe(row.senders.length);
    return status;
  }

  const byAddress = (status: BulkStatus, row: BrandRow) => {
    const address = new Map(row.senders.map((s) => [s.id, s.address]));
    return Object.fromEntries(status.results.map((r) => [address.get(r.subscriptionId), r.outcome]));
  };
  async function categoryOf(address: string): Promise<SubscriptionCategory | null> {
    for (const category of ['uncategorized', 'kept', 'unsubscribed'] as const) {
      const { data: list } = await client.call('GET /get-unsubscribe-emails', { query: { category } });
      if (list.some((s) => s.address === address)) return category;
    }
    return null;
  }
  async function receipts(address: string) {
    const rows = await user.t.db
      .selectFrom('unsubscribe_receipts')
      .innerJoin('senders', 'senders.id', 'unsubscribe_receipts.sender_id')
      .select(['unsubscribe_receipts.method', 'unsubscribe_receipts.ok', 'unsubscribe_receipts.detail'])
      .where('senders.address', '=', address)
      .orderBy('unsubscribe_receipts.created_at')
      .execute();
    return rows.map((r) => ({ method: r.method, ok: Number(r.ok), detail: r.detail }));
  }
  const OTHERS = ['letters@other.example', 'news@mail.other.example'];

  it('unsubscribes every sender of a brand, each by its own way, the failing ones leaving the others done', async () => {
    const shop = await brandRow('uncategorized', 'shop.example');
    expect(shop?.senders.map((s) => s.address).sort()).toEqual([
      'alerts@shop.example',
      'deals@offers.shop.example',
      'news@news.shop.example',
      'team@shop.example',
    ]);
    const status = await actOnBrand('unsubscribe', shop!);
    expect(byAddress(status, shop!)).toEqual({
      'news@news.shop.example': 'one-click',
      'deals@offers.shop.example': 'mailto',
      // Its endpoint never answered: the single path gave up at its timeout and offers the link.
      'alerts@shop.example': 'manual',
      // No way out but a block, and some of its mail looks personal: only the user may confirm that.
      'team@shop.example': 'failed',
    });

    // The done ones left the list; the failing ones are still to review.
    expect(await categoryOf('news@news.shop.example')).toBe('unsubscribed');
    expect(await categoryOf('deals@offers.shop.example')).toBe('unsubscribed');
    expect(await categoryOf('alerts@shop.example')).toBe('uncategorized');
    expect(await categoryOf('team@shop.example')).toBe('uncategorized');
    expect(await receipts('news@news.shop.example')).toMatchObject([{ method: 'one-click', ok: 1 }]);
    expect(await receipts('deals@offers.shop.example')).toMatchObject([{ method: 'mailto', ok: 1 }]);
    const hung = await receipts('alerts@shop.example');
    expect(hung).toMatchObject([{ method: 'one-click', ok: 0 }]);
    expect(hung[0]?.detail).toMatch(/timed out/i);
    expect(await receipts('team@shop.example')).toEqual([]);
    // Each sender reached once, by its own way; the brand's row now holds only the two left.
    expect([hits(PATHS.ok), hits(PATHS.hang)]).toEqual([1, 1]);
    expect(user.smtp.received.map((m) => m.rcptTo)).toEqual([['leave@shop.example']]);
    expect((await brandRow('uncategorized', 'shop.example'))?.senders.map((s) => s.address).sort()).toEqual([
      'alerts@shop.example',
      'team@shop.example',
    ]);
    expect((await brandRow('unsubscribed', 'shop.example'))?.senders.map((s) => s.address).sort()).toEqual([
      'deals@offers.shop.example',
      'news@news.shop.example',
    ]);

    // The other brand: nothing asked of its senders.
    expect(hits(PATHS.other)).toBe(0);
    for (const address of OTHERS) {
      expect(await categoryOf(address)).toBe('uncategorized');
      expect(await receipts(address)).toEqual([]);
    }
    expect((await brandRow('uncategorized', 'other.example'))?.senders).toHaveLength(2);
  }, 60_000);

  it('keeps every sender of a brand grouped by its List-Id', async () => {
    const club = await brandRow('uncategorized', 'club.example');
    expect(club?.senders).toHaveLength(2);
    const status = await actOnBrand('keep', club!);
    expect(Object.values(byAddress(status, club!))).toEqual(['kept', 'kept']);
    for (const address of ['bounce@mailer.esp-one.example', 'bounce@send.esp-two.example']) {
      expect(await categoryOf(address)).toBe('kept');
      // Keep contacts no one and writes no receipt.
      expect(await receipts(address)).toEqual([]);
    }
    expect(await brandRow('uncategorized', 'club.example')).toBeUndefined();
    expect((await brandRow('kept', 'club.example'))?.senders).toHaveLength(2);
    expect(user.smtp.received).toHaveLength(1);
    for (const address of OTHERS) expect(await categoryOf(address)).toBe('uncategorized');
  });

  it('blocks every sender of a brand, moving their mail to the trash, except the one needing the user’s yes', async () => {
    const trash = () => dovecot.count({ user: user.email, password: user.password }, 'Trash');
    const before = await trash();
    const blockme = await brandRow('uncategorized', 'blockme.example');
    expect(blockme?.senders).toHaveLength(3);
    const status = await actOnBrand('block', blockme!);
    expect(byAddress(status, blockme!)).toEqual({
      'a@blockme.example': 'blocked',
      'b@news.blockme.example': 'blocked',
      'c@blockme.example': 'failed',
    });
    const moved = Object.fromEntries(
      status.results.map((r) => [
        blockme!.senders.find((s) => s.id === r.subscriptionId)?.address,
        r.movedToTrash,
      ]),
    );
    expect(moved).toMatchObject({ 'a@blockme.example': 2, 'b@news.blockme.example': 1 });
    expect(await trash()).toBe(before + 3);
    expect(await receipts('a@blockme.example')).toMatchObject([{ method: 'block', ok: 1 }]);
    expect(await receipts('b@news.blockme.example')).toMatchObject([{ method: 'block', ok: 1 }]);
    expect(await categoryOf('a@blockme.example')).toBe('unsubscribed');
    expect(await categoryOf('b@news.blockme.example')).toBe('unsubscribed');
    expect(await categoryOf('c@blockme.example')).toBe('uncategorized');
    expect(await receipts('c@blockme.example')).toEqual([]);
    for (const address of OTHERS) {
      expect(await categoryOf(address)).toBe('uncategorized');
      expect(await receipts(address)).toEqual([]);
    }
  });

  it('acts on the caller’s own senders only: another user naming the brand’s ids changes nothing', async () => {
    const other = new Client(user.t.app);
    await other.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const row = await brandRow('uncategorized', 'other.example');
    const { bulkId } = await other.call('POST /bulk-action', {
      body: { action: 'keep', subscriptionIds: row!.senders.map((s) => s.id) },
      status: 202,
    });
    await expect
      .poll(async () => (await other.call('GET /bulk-action/:bulkId', { params: { bulkId } })).done)
      .toBe(2);
    const status = await other.call('GET /bulk-action/:bulkId', { params: { bulkId } });
    expect(status.results.map((r) => r.outcome)).toEqual(['not-found', 'not-found']);
    for (const address of OTHERS) expect(await categoryOf(address)).toBe('uncategorized');
  });
});
