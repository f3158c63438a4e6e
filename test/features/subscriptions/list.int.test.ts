import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Subscription,
  type SubscriptionSort,
  type SubscriptionsResponse,
  subscriptionsResponseSchema,
} from '#contract/api.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { readRank, seedSenders } from '#test/helpers/seed.js';

// GET /get-unsubscribe-emails in pages: the four orders (ties, undated mail, unknown read rates), walks
// of every page size that list each sender once, q, total, another user's rows and cursors, bad
// cursors and parameters, the unpaged answer, and how the read rate, the monthly rate and `via` are
// shown. Senders are written straight into the database (a scan is tested elsewhere), on SQLite and
// PostgreSQL.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);

interface Seed {
  n: string; // id suffix: ids are `${prefix}-${n}`, so their order is the same in both dialects
  name: string;
  address: string;
  count: number;
  last: number | null;
  readCount?: number;
  readKnown?: number;
  recent?: number;
  via?: string | null;
  category?: 'uncategorized' | 'kept' | 'unsubscribed';
}

interface Row {
  id: string;
  address: string;
  count: number;
  last: number | null;
  rank: number;
  recent: number;
}

/** The orders the contract names, computed here from the seeded values. */
function expectedOrder(rows: Row[], sort: SubscriptionSort): string[] {
  const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const sorted = [...rows];
  switch (sort) {
    case 'newest':
      sorted.sort((a, b) => {
        if (a.last === null || b.last === null) {
          if (a.last !== b.last) return a.last === null ? 1 : -1;
          return -byId(a, b);
        }
        return b.last - a.last || -byId(a, b);
      });
      break;
    case 'messages':
      sorted.sort((a, b) => b.count - a.count || -byId(a, b));
      break;
    case 'readRate':
      sorted.sort((a, b) => a.rank - b.rank || byId(a, b));
      break;
    case 'perMonth':
      sorted.sort((a, b) => b.recent - a.recent || -byId(a, b));
      break;
  }
  return sorted.map((r) => r.id);
}

/** The unpaged call's order (sort=newest without a limit), as it always was: ties by address. */
function wholeNewest(rows: Row[]): string[] {
  const sorted = [...rows].sort((a, b) => {
    if (a.last !== b.last) {
      if (a.last === null) return 1;
      if (b.last === null) return -1;
      return b.last - a.last;
    }
    return a.address < b.address ? -1 : a.address > b.address ? 1 : a.id < b.id ? 1 : -1;
  });
  return sorted.map((r) => r.id);
}

const SORTS: SubscriptionSort[] = ['newest', 'messages', 'readRate', 'perMonth'];

// 60 senders with ties on every sort value, undated ones, unknown read rates, and other categories.
const MAIN: Seed[] = Array.from({ length: 60 }, (_, i) => ({
  n: String(i).padStart(3, '0'),
  name: `Brand ${i} News`,
  address: `news${i}@brand${i}.example`,
  count: [5, 12, 12, 40, 1][i % 5]!,
  // Every sixth undated; the others on six distinct days, so days tie too.
  last: i % 6 === 5 ? null : NOW - (i % 6) * DAY,
  readCount: i % 4 === 0 ? 0 : i % 3,
  readKnown: i % 4 === 0 ? 0 : 4,
  recent: [0, 9, 9, 30][i % 4]!,
  category: i % 10 === 9 ? 'kept' : 'uncategorized',
}));

describe.each(DIALECTS)('the subscription list in pages on %s', (dialect) => {
  const t = withTestApp(dialect);
  let main: Awaited<ReturnType<typeof userWith>>;
  beforeAll(async () => {
    main = await userWith(MAIN, `a${dialect.slice(0, 2)}`);
  });

  /** A signed-in user with one mailbox holding `seeds`; rows as the orders read them. */
  async function userWith(
    seeds: Seed[],
    prefix: string,
  ): Promise<{ client: Client; userId: string; mailboxId: string; rows: Row[] }> {
    const client = new Client(t.app);
    const email = uniqueEmail('list');
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const { id: userId } = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const mailboxId = `mb-${prefix}`;
    await t.db
      .insertInto('mailboxes')
      .values({
        id: mailboxId,
        user_id: userId,
        email: `${prefix}@yahoo.com`,
        provider: 'yahoo',
        secret: null,
        created_at: NOW,
      })
      .execute();
    const rows: Row[] = [];
    const senders = seeds.map((s) => {
      const read = { count: s.readCount ?? 0, known: s.readKnown ?? 0 };
      const id = `${prefix}-${s.n}`;
      if ((s.category ?? 'uncategorized') === 'uncategorized') {
        const rank = readRank(read);
        rows.push({ id, address: s.address, count: s.count, last: s.last, rank, recent: s.recent ?? 0 });
      }
      return {
        id,
        userId,
        mailboxId,
        address: s.address,
        name: s.name,
        messageCount: s.count,
        listMessageCount: s.count,
        lastMessageAt: s.last,
        category: s.category,
        read,
        recentCount: s.recent,
        via: s.via,
        createdAt: NOW,
      };
    });
    await seedSenders(t.db, senders);
    return { client, userId, mailboxId, rows };
  }

  async function list(client: Client, query: string): Promise<SubscriptionsResponse> {
    return client.call('GET /get-unsubscribe-emails', { query });
  }

  /** Every page of the walk, following nextCursor; the ids in the order they came, and each page's total. */
  async function walk(client: Client, query: string, limit: number) {
    const ids: string[] = [];
    const totals = new Set<number | undefined>();
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const c = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await list(client, `?limit=${limit}${query}${c}`);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      // A page is full unless it is the last.
      if (page.nextCursor) expect(page.data.length).toBe(limit);
      ids.push(...page.data.map((s) => s.id));
      totals.add(page.total);
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(500);
    } while (cursor);
    return { ids, totals: [...totals], pages };
  }

  it('orders each sort as the contract says, ties by id, undated mail and unknown read rates last', async () => {
    expect(main.rows.some((r) => r.last === null)).toBe(true);
    expect(main.rows.some((r) => r.rank === 1001)).toBe(true);
    for (const sort of SORTS) {
      const expected = expectedOrder(main.rows, sort);
      const page = await list(main.client, `?sort=${sort}&limit=200`);
      expect(
        page.data.map((s) => s.id),
        sort,
      ).toEqual(expected);
      expect(page.nextCursor).toBeNull();
      expect(page.total).toBe(main.rows.length);
      // The whole category without a limit: the same order, but for ties of newest, which the unpaged
      // call breaks by address as it always did.
      const whole = await list(main.client, `?sort=${sort}`);
      expect(
        whole.data.map((s) => s.id),
        sort,
      ).toEqual(sort === 'newest' ? wholeNewest(main.rows) : expected);
    }
    // newest: the dated rows by date then the undated ones; readRate: 1001 (unknown) at the end.
    const newest = (await list(main.client, '?sort=newest&limit=200')).data;
    const firstUndated = newest.findIndex((s) => s.lastMessageAt === null);
    expect(firstUndated).toBeGreaterThan(0);
    expect(newest.slice(firstUndated).every((s) => s.lastMessageAt === null)).toBe(true);
    const byRate = (await list(main.client, '?sort=readRate&limit=200')).data;
    const firstUnknown = byRate.findIndex((s) => s.readRate === null);
    expect(byRate.slice(firstUnknown).every((s) => s.readRate === null)).toBe(true);
    expect(byRate.slice(0, firstUnknown).map((s) => s.readRate)).toEqual(
      byRate
        .slice(0, firstUnknown)
        .map((s) => s.readRate)
        .sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
  });

  it('walks every sender exactly once in every order and page size, with the same total on each page', async () => {
    for (const sort of SORTS) {
      const expected = expectedOrder(main.rows, sort);
      for (const size of [1, 2, 7, 25, 54, 200]) {
        const { ids, totals, pages } = await walk(main.client, `&sort=${sort}`, size);
        expect(ids, `${sort} by ${size}`).toEqual(expected);
        expect(new Set(ids).size).toBe(ids.length);
        expect(totals).toEqual([main.rows.length]);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / size)));
      }
    }
  });

  it('answers the unpaged call as before: the whole category, newest first, nothing but data', async () => {
    const res = await main.client.get('/get-unsubscribe-emails');
    expect(res.statusCode).toBe(200);
    const body = main.client.json(res, subscriptionsResponseSchema);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((s) => s.id)).toEqual(wholeNewest(main.rows));
    // Which differs from the pages' id order only within a day.
    expect(wholeNewest(main.rows)).not.toEqual(expectedOrder(main.rows, 'newest'));
    expect(body.data.every((s) => s.category === 'uncategorized')).toBe(true);
    const kept = await list(main.client, '?category=kept');
    expect(kept.data.map((s) => s.id).sort()).toEqual(
      MAIN.filter((s) => s.category === 'kept').map((s) => `a${dialect.slice(0, 2)}-${s.n}`),
    );
    // A page of another category: its own rows and total.
    const keptPage = await list(main.client, '?category=kept&limit=2&sort=messages');
    expect(keptPage.total).toBe(kept.data.length);
    expect(keptPage.data.every((s) => s.category === 'kept')).toBe(true);
  });

  it('searches name and address, case-insensitively, with % and _ and ! taken literally', async () => {
    const { client, rows } = await userWith(
      [
        { n: '01', name: '100% Deals', address: 'deals@shop.example', count: 3, last: NOW },
        { n: '02', name: 'Weekly', address: 'a_b@news.example', count: 2, last: NOW - DAY },
        { n: '03', name: 'Axb Weekly', address: 'axb@news.example', count: 9, last: null },
        { n: '04', name: 'Gardening TIPS', address: 'hello@garden.example', count: 4, last: NOW },
        { n: '05', name: 'Tips!', address: 'tips@other.example', count: 1, last: NOW - 2 * DAY },
        { n: '06', name: 'ÉCLAIR Club', address: 'club@eclair.example', count: 1, last: NOW },
        { n: '07', name: 'Shop', address: 'SALES@SHOP.EXAMPLE', count: 7, last: NOW, category: 'kept' },
      ],
      `q${dialect.slice(0, 2)}`,
    );
    const ids = async (q: string, extra = '') => {
      const page = await list(client, `?limit=50&q=${encodeURIComponent(q)}${extra}`);
      const whole = await list(client, `?q=${encodeURIComponent(q)}${extra}`);
      expect(whole.data.map((s) => s.id).sort()).toEqual(page.data.map((s) => s.id).sort());
      expect(page.total).toBe(page.data.length);
      return page.data.map((s) => s.id.slice(4)).sort();
    };
    expect(await ids('tips')).toEqual(['04', '05']); // names, either case
    expect(await ids('GARDEN.EX')).toEqual(['04']); // addresses
    expect(await ids('@news.')).toEqual(['02', '03']);
    expect(await ids('%')).toEqual(['01']); // not "anything"
    expect(await ids('a_b')).toEqual(['02']); // not "a, any one character, b"
    expect(await ids('_')).toEqual(['02']);
    expect(await ids('!')).toEqual(['05']); // the escape character itself
    expect(await ids('  weekly  ')).toEqual(['02', '03']); // trimmed by the contract
    expect(await ids('nothing like it')).toEqual([]);
    // Only ASCII letters fold, the same in both databases.
    expect(await ids('éclair club')).toEqual([]);
    expect(await ids('ÉCLAIR')).toEqual(['06']);
    expect(await ids('eclair')).toEqual(['06']); // the address
    // The category still applies.
    expect(await ids('sales@shop', '&category=kept')).toEqual(['07']);
    expect(await ids('sales@shop')).toEqual([]);
    // A search walked in pages, in an order, lists each match once.
    const { ids: walked, totals } = await walk(client, `&q=weekly&sort=messages`, 1);
    expect(walked).toEqual(
      expectedOrder(
        rows.filter((r) => ['02', '03'].includes(r.id.slice(4))),
        'messages',
      ),
    );
    expect(totals).toEqual([2]);
    // An empty q is no filter.
    expect((await list(client, '?limit=1&q=')).total).toBe(rows.length);
  });

  it("never shows another user's senders, and another user's cursor only positions the caller's own walk", async () => {
    const other = await userWith(
      MAIN.slice(0, 20).map((s) => ({ ...s, category: 'uncategorized' as const })),
      `o${dialect.slice(0, 2)}`,
    );
    const mine = await list(main.client, '?limit=200');
    expect(mine.data.some((s) => s.id.startsWith('o'))).toBe(false);
    const theirs = await walk(other.client, '&sort=messages', 3);
    expect(theirs.ids).toEqual(expectedOrder(other.rows, 'messages'));
    expect(theirs.totals).toEqual([20]);
    expect((await list(other.client, '?q=brand&limit=200')).data.every((s) => s.id.startsWith('o'))).toBe(
      true,
    );

    // The other user's cursor (after their 3rd row by message count) in the main user's walk: the main
    // user's rows after that position, nothing of the other user's.
    const first = await list(other.client, '?sort=messages&limit=3');
    const cursor = first.nextCursor!;
    const page = await list(main.client, `?sort=messages&limit=200&cursor=${encodeURIComponent(cursor)}`);
    expect(page.data.every((s) => s.id.startsWith('a'))).toBe(true);
    expect(page.total).toBe(main.rows.length);
    const last = first.data[2]!;
    const expected = expectedOrder(main.rows, 'messages').filter((id) => {
      const r = main.rows.find((x) => x.id === id)!;
      return r.count < last.messageCount || (r.count === last.messageCount && id < last.id);
    });
    expect(page.data.map((s) => s.id)).toEqual(expected);
  });

  it('refuses bad parameters and garbled or forged cursors with 400 and a message', async () => {
    const good = (await list(main.client, '?sort=messages&limit=5')).nextCursor!;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const cases: Array<[string, string | RegExp]> = [
      ['?sort=oldest', 'Unknown sort oldest.'],
      ['?category=spam', 'Unknown category spam.'],
      ['?limit=0', /./],
      ['?limit=201', /./],
      ['?limit=ten', /./],
      ['?limit=2.5', /./],
      [`?limit=5&cursor=${'A'.repeat(513)}`, /./],
      ['?limit=5&cursor=not%20a%20cursor', /cursor is not valid/],
      ['?limit=5&cursor=!!!!', /cursor is not valid/],
      ['?limit=5&cursor=AAAA', /cursor is not valid/],
      [`?limit=5&cursor=${b64('text')}`, /cursor is not valid/],
      [`?limit=5&cursor=${b64([1, 2])}`, /cursor is not valid/],
      [`?limit=5&cursor=${b64(null)}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: '1', i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1.5, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: null, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: -1, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1e300, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 2 ** 31, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=newest&cursor=${b64({ s: 'newest', v: 2 ** 53, i: 'x' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1, i: 'a\u0000b' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1, i: '' })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1, i: 7 })}`, /cursor is not valid/],
      [
        `?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1, i: 'x'.repeat(129) })}`,
        /cursor is not valid/,
      ],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'messages', v: 1, i: 'x', w: 1 })}`, /cursor is not valid/],
      [`?limit=5&sort=messages&cursor=${b64({ s: 'newest', v: 1, i: 'x' })}`, /cursor is not valid/],
      // A cursor of one order in another.
      [`?limit=5&sort=readRate&cursor=${good}`, /cursor is not valid/],
      [`?limit=5&cursor=${good}`, /cursor is not valid/],
      [`?sort=messages&cursor=${good}`, 'A cursor needs a limit.'],
    ];
    for (const [query, message] of cases) {
      const body = await main.client.call('GET /get-unsubscribe-emails', { query, status: 400 });
      if (typeof message === 'string') expect(body.message, query).toBe(message);
      else expect(body.message, query).toMatch(message);
    }
    // A well-formed cursor holding any id is only a position: quotes and SQL in it are data.
    for (const id of ["' OR 1=1 --", 'zzz', '\uffff', 'é', '\ud800']) {
      for (const [sort, v] of [
        ['messages', 12],
        ['newest', null],
        ['newest', NOW],
      ] as const) {
        const cursor = b64({ s: sort, v, i: id });
        const page = await list(main.client, `?sort=${sort}&limit=200&cursor=${cursor}`);
        expect(
          page.data.every((s) => s.id.startsWith('a')),
          `${sort} ${id}`,
        ).toBe(true);
      }
    }
  });

  it('shows the read rate, the messages a month and the list a poster came through', async () => {
    const { client } = await userWith(
      [
        {
          n: '1',
          name: 'Known',
          address: 'k@x.example',
          count: 8,
          last: NOW,
          readCount: 3,
          readKnown: 4,
          recent: 10,
        },
        { n: '2', name: 'Unknown', address: 'u@x.example', count: 8, last: NOW, recent: 0 },
        {
          n: '3',
          name: 'All read',
          address: 'r@x.example',
          count: 2,
          last: NOW,
          readCount: 2,
          readKnown: 2,
          recent: 2,
        },
        {
          n: '4',
          name: 'Poster',
          address: 'p@x.example',
          count: 1,
          last: NOW,
          via: 'dev@lists.example',
          recent: 1,
        },
      ],
      `p${dialect.slice(0, 2)}`,
    );
    const byName = new Map<string, Subscription>(
      (await list(client, '?limit=10')).data.map((s) => [s.senderName, s]),
    );
    expect(byName.get('Known')).toMatchObject({ readRate: 0.75, messagesPerMonth: 3.3, via: null });
    expect(byName.get('Unknown')).toMatchObject({ readRate: null, messagesPerMonth: 0, via: null });
    expect(byName.get('All read')).toMatchObject({ readRate: 1, messagesPerMonth: 0.7 });
    expect(byName.get('Poster')).toMatchObject({
      readRate: null,
      messagesPerMonth: 0.3,
      via: 'dev@lists.example',
    });
    // The unpaged answer shows them too.
    const whole = (await list(client, '')).data.find((s) => s.senderName === 'Known');
    expect(whole).toMatchObject({ readRate: 0.75, messagesPerMonth: 3.3 });
  });

  it('pages the unsubscribed list with how each was unsubscribed, and keeps the 401 of a mailbox to sign in to again', async () => {
    const { client, userId, mailboxId } = await userWith(
      Array.from({ length: 5 }, (_, i) => ({
        n: String(i),
        name: `Gone ${i}`,
        address: `gone${i}@x.example`,
        count: 10 - i,
        last: NOW - i * DAY,
        category: 'unsubscribed' as const,
      })),
      `u${dialect.slice(0, 2)}`,
    );
    const prefix = `u${dialect.slice(0, 2)}`;
    await t.db
      .insertInto('unsubscribe_receipts')
      .values([
        {
          id: `${prefix}-r0`,
          user_id: userId,
          sender_id: `${prefix}-0`,
          method: 'one-click',
          target: 'https://x.example/u',
          ok: 1,
          created_at: NOW,
        },
        {
          id: `${prefix}-r1`,
          user_id: userId,
          sender_id: `${prefix}-1`,
          method: 'mailto',
          target: 'u@x.example',
          ok: 0,
          created_at: NOW,
        },
        {
          id: `${prefix}-r2`,
          user_id: userId,
          sender_id: `${prefix}-1`,
          method: 'manual',
          target: 'https://x.example/m',
          ok: 1,
          created_at: NOW - 1,
        },
        {
          id: `${prefix}-r3`,
          user_id: userId,
          sender_id: `${prefix}-2`,
          method: 'block',
          target: 'gone2@x.example',
          ok: 1,
          created_at: NOW - 2,
        },
        {
          id: `${prefix}-r4`,
          user_id: userId,
          sender_id: `${prefix}-2`,
          method: 'unblock',
          target: 'gone2@x.example',
          ok: 1,
          created_at: NOW,
        },
      ])
      .execute();
    const { ids } = await walk(client, '&category=unsubscribed&sort=messages', 2);
    expect(ids).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}-${i}`));
    const page = await list(client, '?category=unsubscribed&sort=messages&limit=3');
    expect(page.data.map((s) => s.unsubscribeMethod)).toEqual(['one-click', 'manual', null]);
    expect(page.total).toBe(5);

    await t.db.updateTable('mailboxes').set({ status: 'reauth' }).where('id', '=', mailboxId).execute();
    const refused = await client.call('GET /get-unsubscribe-emails', { query: { limit: 5 }, status: 401 });
    expect(refused).toMatchObject({ message: `Please sign in to ${prefix}@yahoo.com again.` });
    expect(refused.redirectUrl).toBeTruthy();
  });

  it('refuses a signed-out call before reading anything', async () => {
    const res = await new Client(t.app).get('/get-unsubscribe-emails?limit=5&cursor=garbage');
    expect(res.statusCode).toBe(403);
  });
});
