import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type SenderTally, tallyBatch } from '#server/features/scans/aggregate.js';
import {
  createGmailProvider,
  type GmailProvider,
  type GmailProviderOptions,
} from '#server/mail/gmail/adapter.js';
import { detectSubscription, parseFrom } from '#server/mail/headers/detect.js';
import { parseHeaderBlock } from '#server/mail/headers/headers.js';
import {
  type HeaderBatch,
  MailAuthError,
  MailConnectionError,
  type MessageHeaders,
  type SyncState,
} from '#server/mail/provider.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import type { MessageSpec, SeededMessage } from '#test/helpers/google-emulator.js';

// The Gmail adapter against @emulators/google (patched to be faithful, see the helper), one user per test.

const emu = withGoogleEmulator();

interface Mailbox {
  email: string;
  refreshToken: string;
  seeded: SeededMessage[];
  provider(overrides?: Partial<GmailProviderOptions>): GmailProvider;
  insert(specs: MessageSpec[]): SeededMessage[];
}

async function newMailbox(label: string): Promise<Mailbox> {
  const { email, refreshToken } = await emu.addUser(`${label}-${randomBytes(4).toString('hex')}@gmail.test`);
  const seeded: SeededMessage[] = [];
  return {
    email,
    refreshToken,
    seeded,
    provider: (overrides = {}) =>
      createGmailProvider({
        email,
        refreshToken,
        clientId: emu.clientId,
        clientSecret: emu.clientSecret,
        baseUrl: emu.baseUrl,
        ...overrides,
      }),
    insert(specs) {
      const added = emu.insert(email, specs);
      seeded.push(...added);
      return added;
    },
  };
}

let clock = Date.UTC(2025, 5, 1, 8);
function nextDate(): Date {
  clock += 5 * 3_600_000;
  return new Date(clock);
}

interface SenderSpec extends Omit<MessageSpec, 'date' | 'subject'> {
  subject: (n: number) => string;
  count: number;
}

/** Senders' messages interleaved in time, as a real inbox has them. */
function interleave(senders: SenderSpec[]): MessageSpec[] {
  const queues = senders.map((s) =>
    Array.from({ length: s.count }, (_, n) => {
      const { count: _count, subject, ...rest } = s;
      return { ...rest, subject: subject(n + 1) };
    }),
  );
  const out: MessageSpec[] = [];
  while (queues.some((q) => q.length > 0)) {
    for (const q of queues) {
      const spec = q.shift();
      if (spec) out.push({ ...spec, date: nextDate() });
    }
  }
  return out;
}

const DAILY = '"Daily Brief" <news@daily.example>';
const DAILY_LU = '<mailto:leave@daily.example?subject=unsubscribe>, <https://daily.example/u?id=1>';

/** ~47 messages from 10 senders: newsletters found by different searches, personal mail, spam, trash, sent. */
function seedStandard(box: Mailbox): void {
  box.insert(
    interleave([
      {
        from: DAILY,
        subject: (n) => `Daily #${n}`,
        body: "Today's news. Unsubscribe: https://daily.example/u?id=1",
        listUnsubscribe: DAILY_LU,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
        labels: ['INBOX', 'CATEGORY_UPDATES'],
        count: 9,
      },
      {
        // German newsletter: no "unsubscribe" anywhere, found by the promotions pass.
        from: 'Shop Deals <deals@shop.example>',
        subject: (n) => `Angebote ${n}`,
        body: 'Angebote der Woche. Abmelden: https://shop.example/abmelden',
        listUnsubscribe: '<https://shop.example/abmelden?u=7>',
        labels: ['INBOX', 'CATEGORY_PROMOTIONS'],
        count: 7,
      },
      {
        // A mailing list: List-Id and Precedence only, found by the forums pass.
        from: 'Forum Digest <digest@lists.forum.example>',
        subject: (n) => `Digest ${n}`,
        body: 'Seven new topics. Manage your settings on the forum.',
        listId: 'Forum Digest <digest.lists.forum.example>',
        precedence: 'list',
        labels: ['INBOX', 'CATEGORY_FORUMS'],
        count: 5,
      },
      {
        from: '=?UTF-8?Q?Caf=C3=A9_Weekly?= <weekly@letters.example>',
        subject: (n) => `=?UTF-8?Q?Caf=C3=A9_news_=23${n}?=`,
        body: 'Beans of the week. To unsubscribe, write to us.',
        listUnsubscribe: '<mailto:unsubscribe@letters.example>',
        count: 6,
      },
      {
        from: 'Friendly Network <notify@social.example>',
        subject: (n) => `You have ${n} new followers`,
        body: 'Someone followed you.',
        listUnsubscribe: '<https://social.example/unsub/abc>',
        labels: ['INBOX', 'CATEGORY_SOCIAL'],
        count: 3,
      },
      {
        // Transactional: found by "unsubscribe" but not a subscription.
        from: 'Bank Alerts <alerts@bank.example>',
        subject: (n) => `Statement ${n}`,
        body: 'Your statement is ready. To unsubscribe from alerts, visit your settings.',
        labels: ['INBOX', 'CATEGORY_UPDATES'],
        count: 4,
      },
      {
        from: 'Sam <sam@work.example>',
        subject: (n) => `Re: project ${n}`,
        body: 'How do I unsubscribe from that list?',
        count: 3,
      },
      {
        from: 'Alex <alex@people.example>',
        subject: (n) => `Lunch ${n}?`,
        body: 'Noon at the usual place?',
        labels: ['INBOX', 'CATEGORY_PERSONAL'],
        count: 4,
      },
      {
        from: 'Winner <win@junk.example>',
        subject: (n) => `You won ${n}`,
        body: 'Claim now. unsubscribe',
        listUnsubscribe: '<https://junk.example/u>',
        labels: ['SPAM'],
        count: 3,
      },
      {
        from: `Me <${box.email}>`,
        subject: (n) => `Sent ${n}`,
        body: 'Please unsubscribe me from the newsletter.',
        labels: ['SENT'],
        count: 2,
      },
    ]),
  );
  // One more of the daily newsletter, already thrown away.
  box.insert([{ ...standardDaily(), labels: ['TRASH'] }]);
}

function standardDaily(): MessageSpec {
  return {
    from: DAILY,
    subject: 'Daily extra',
    date: nextDate(),
    body: 'More news. Unsubscribe below.',
    listUnsubscribe: DAILY_LU,
  };
}

interface Expected {
  count: number;
  isSubscription: boolean;
}

/** The truth, computed message by message from the seeded raw mail with the product's own detection. */
function bruteForce(box: Mailbox): Map<string, Expected> {
  const out = new Map<string, Expected>();
  for (const m of box.seeded) {
    if (m.labels.some((l) => l === 'SPAM' || l === 'TRASH')) continue;
    const fields = parseHeaderBlock(m.raw);
    const address = parseFrom(fields.from)?.address;
    if (!address || address === box.email) continue;
    const e = out.get(address) ?? { count: 0, isSubscription: false };
    e.count += 1;
    e.isSubscription ||= detectSubscription(fields).isSubscription;
    out.set(address, e);
  }
  return out;
}

async function collect(batches: AsyncIterable<HeaderBatch>, limit = Number.POSITIVE_INFINITY) {
  const out: HeaderBatch[] = [];
  for await (const batch of batches) {
    out.push(batch);
    if (out.length >= limit) break;
  }
  return out;
}

const all = (batches: HeaderBatch[]): MessageHeaders[] => batches.flatMap((b) => b.messages);

function tallies(messages: MessageHeaders[]): Map<string, SenderTally> {
  return tallyBatch(messages);
}

function subscriptions(t: Map<string, SenderTally>): Record<string, number> {
  return Object.fromEntries(
    [...t.values()]
      .filter((s) => s.isSubscription)
      .map((s) => [s.address, s.count])
      .sort(),
  );
}

function expectedSubscriptions(truth: Map<string, Expected>): Record<string, number> {
  return Object.fromEntries(
    [...truth.entries()]
      .filter(([, e]) => e.isSubscription)
      .map(([a, e]) => [a, e.count])
      .sort(),
  );
}

function expectUnique(messages: MessageHeaders[]) {
  expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
}

type FetchHook = (
  url: URL,
  init: RequestInit | undefined,
  call: () => Promise<Response>,
) => Promise<Response>;

/** A fetch that lets a test see, count or replace each call. */
function hookedFetch(hook: FetchHook): typeof fetch {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return hook(url, init, () => fetch(input, init));
  };
}

/** Quota units per Google's table, recounted from the wire (batch parts counted one by one). */
function unitsOf(url: URL, init: RequestInit | undefined): number {
  const path = url.pathname;
  if (path.startsWith('/batch/'))
    return (String(init?.body).match(/^GET \/gmail\/v1\/users\/me\/messages\//gm) ?? []).length * 5;
  if (/\/messages$/.test(path)) return 5;
  if (/\/messages\/[^/]+$/.test(path)) return 5;
  if (path.endsWith('/history')) return 2;
  if (path.endsWith('/profile') || path.endsWith('/labels')) return 1;
  return 0;
}

describe('Gmail: sign-in', () => {
  it('verifies a valid grant and lists labels, with trash, spam, sent and drafts not scanned', async () => {
    const box = await newMailbox('verify');
    const provider = box.provider();
    await provider.verify();
    const folders = await provider.listFolders();
    expect(folders[0]).toMatchObject({ path: 'INBOX', specialUse: '\\Inbox', scanned: true });
    const byId = new Map(folders.map((f) => [f.path, f]));
    for (const id of ['TRASH', 'SPAM', 'SENT', 'DRAFT']) expect(byId.get(id)?.scanned).toBe(false);
    expect(byId.get('SPAM')?.specialUse).toBe('\\Junk');
    expect(byId.get('CATEGORY_PROMOTIONS')?.scanned).toBe(true);
    expect(provider.quotaUnitsSpent()).toBe(2); // getProfile 1 + labels.list 1
  });

  it('answers MailAuthError for an unknown or revoked refresh token', async () => {
    const box = await newMailbox('revoked');
    await expect(
      box.provider({ refreshToken: 'google_refresh_not-a-token' }).verify(),
    ).rejects.toBeInstanceOf(MailAuthError);
    const provider = box.provider();
    await provider.verify();
    await emu.revoke(box.refreshToken);
    await expect(box.provider().verify()).rejects.toBeInstanceOf(MailAuthError);
    await expect(collect(box.provider().scan(null))).rejects.toBeInstanceOf(MailAuthError);
  });

  it('does not blame the user for a wrong client secret, and reports an unreachable Google', async () => {
    const box = await newMailbox('config');
    const wrongSecret = box.provider({ clientSecret: 'GOCSPX-wrong' }).verify();
    await expect(wrongSecret).rejects.toThrow(/invalid_client/);
    await expect(wrongSecret).rejects.not.toBeInstanceOf(MailAuthError);
    await expect(box.provider({ baseUrl: 'http://127.0.0.1:1' }).verify()).rejects.toBeInstanceOf(
      MailConnectionError,
    );
  });

  it('refreshes the access token once when Gmail answers 401 mid-scan', async () => {
    const box = await newMailbox('expired');
    seedStandard(box);
    let refused = 0;
    let tokenCalls = 0;
    const fetchImpl = hookedFetch(async (url, _init, call) => {
      if (url.pathname === '/oauth2/token') tokenCalls++;
      if (url.pathname.endsWith('/messages') && refused === 0) {
        refused++;
        return Response.json(
          { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } },
          { status: 401 },
        );
      }
      return call();
    });
    const batches = await collect(box.provider({ fetchImpl }).scan(null));
    expect(refused).toBe(1);
    expect(tokenCalls).toBe(2);
    expect(subscriptions(tallies(all(batches)))).toEqual(expectedSubscriptions(bruteForce(box)));
  });
});

describe('Gmail: full scan', () => {
  it('finds exactly the subscription senders with exact counts, spending quota per sender', async () => {
    const box = await newMailbox('scan');
    seedStandard(box);
    const truth = bruteForce(box);
    let wireUnits = 0;
    const calls: string[] = [];
    const fetchImpl = hookedFetch(async (url, init, call) => {
      wireUnits += unitsOf(url, init);
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return call();
    });
    const provider = box.provider({ fetchImpl });
    const batches = await collect(provider.scan(null));
    const messages = all(batches);
    expectUnique(messages);
    const t = tallies(messages);

    expect(subscriptions(t)).toEqual(expectedSubscriptions(truth));
    expect(subscriptions(t)).toEqual({
      'deals@shop.example': 7,
      'digest@lists.forum.example': 5,
      'news@daily.example': 9,
      'notify@social.example': 3,
      'weekly@letters.example': 6,
    });
    // Senders found but not subscriptions are counted exactly too; personal mail never matched is not listed.
    for (const s of t.values()) expect(s.count).toBe(truth.get(s.address)?.count);
    expect(t.get('alerts@bank.example')?.isSubscription).toBe(false);
    expect(t.has('alex@people.example')).toBe(false);
    expect(t.has('win@junk.example')).toBe(false);
    expect(t.has(box.email)).toBe(false);

    // Header fields come from format=metadata, List-Unsubscribe included (the patched, faithful peer).
    const daily = t.get('news@daily.example')!;
    expect(daily.name).toBe('Daily Brief');
    expect(daily.unsubscribe).toEqual({
      http: ['https://daily.example/u?id=1'],
      mailto: ['mailto:leave@daily.example?subject=unsubscribe'],
      oneClick: true,
      seenAt: daily.lastMessageAt,
    });
    const newestDaily = box.seeded.filter((m) => m.from === DAILY && m.labels.includes('INBOX')).at(-1)!;
    expect(daily.lastMessageAt).toBe(newestDaily.date.getTime());
    expect(t.get('weekly@letters.example')?.name).toBe('Café Weekly');
    expect(t.get('digest@lists.forum.example')).toMatchObject({ listSignal: true, unsubscribe: null });
    const weekly = messages.filter((m) => m.fields.from?.includes('weekly@letters.example'));
    expect(weekly.filter((m) => m.fields.subject !== null).map((m) => m.fields.subject)).toContain(
      'Café news #6',
    );
    expect(messages.find((m) => m.id === newestDaily.id)?.fields).toMatchObject({
      subject: newestDaily.subject,
      listUnsubscribePost: ['List-Unsubscribe=One-Click'],
      messageId: `<${newestDaily.id}@seed.example>`,
    });
    // Metadata of the newest message and of a second with list evidence (more when discovery fetched them);
    // older ones are counted with the sender's From only.
    const dailyIds = new Set(
      box.seeded.filter((m) => m.from === DAILY && m.labels.includes('INBOX')).map((m) => m.id),
    );
    const dailyMessages = messages.filter((m) => dailyIds.has(m.id));
    expect(dailyMessages.filter((m) => m.fields.subject !== null).length).toBeGreaterThanOrEqual(2);
    expect(dailyMessages.filter((m) => m.fields.subject === null).length).toBeGreaterThan(0);
    for (const m of dailyMessages.filter((x) => x.fields.subject === null)) {
      expect(m).toMatchObject({ date: null, fields: { from: DAILY, listUnsubscribe: [] } });
    }

    expect(batches.at(-1)?.state).toMatchObject({ scan: null });
    expect(batches.at(-1)?.progress).toEqual({ scanned: messages.length, total: messages.length });
    expect(calls.some((c) => c.startsWith('GET /gmail/v1/users/me/messages/'))).toBe(false); // gets go batched
    const units = provider.quotaUnitsSpent();
    expect(units).toBe(wireUnits);
    console.info(
      `[gmail] seeded scan: ${box.seeded.length} messages, ${t.size} senders counted, ${units} quota units, ${calls.length} HTTP requests`,
    );
  });

  it('spends quota by sender, not by message', async () => {
    const senders = (count: number): SenderSpec[] =>
      ['alpha', 'beta', 'gamma'].map((name) => ({
        from: `${name} <${name}@news.example>`,
        subject: (n) => `${name} ${n}`,
        body: 'News. Unsubscribe at the bottom.',
        listUnsubscribe: `<https://news.example/${name}/u>`,
        count,
      }));
    const small = await newMailbox('small');
    small.insert(interleave(senders(8)));
    const large = await newMailbox('large');
    large.insert(interleave(senders(150)));

    const smallProvider = small.provider();
    await collect(smallProvider.scan(null));
    const largeProvider = large.provider();
    const t = tallies(all(await collect(largeProvider.scan(null))));
    expect(subscriptions(t)).toEqual({
      'alpha@news.example': 150,
      'beta@news.example': 150,
      'gamma@news.example': 150,
    });

    const a = smallProvider.quotaUnitsSpent();
    const b = largeProvider.quotaUnitsSpent();
    console.info(`[gmail] 3 senders: 24 messages cost ${a} units, 450 messages cost ${b} units`);
    // One metadata get per message would cost 5 units each (2,250 for the large mailbox).
    expect(b).toBeLessThanOrEqual(a + 10);
    expect(b).toBeLessThan(450);
  });
});

describe('Gmail: what the scan fetches', () => {
  it('keeps names, newest links, counts and read rates exact with metadata of a few messages per sender', async () => {
    const box = await newMailbox('exact');
    const letters = (n: number): SenderSpec => ({
      from: n <= 18 ? 'Old Letters <letters@news.example>' : 'New Letters <letters@news.example>',
      subject: () => `Letter ${n}`,
      body: 'This week. Unsubscribe below.',
      listUnsubscribe: `<https://news.example/u?n=${n}>`,
      labels: n % 3 === 0 ? ['INBOX'] : ['INBOX', 'UNREAD'],
      count: 1,
    });
    box.insert(
      interleave([
        ...Array.from({ length: 20 }, (_, k) => letters(k + 1)),
        {
          // A list without links (List-Id only), found by the forums pass: fetched to its fifth newest.
          from: 'Forum <forum@lists.example>',
          subject: (n) => `Topic ${n}`,
          body: 'New topics.',
          listId: '<forum.lists.example>',
          labels: ['INBOX', 'CATEGORY_FORUMS'],
          count: 8,
        },
        {
          // 620 messages, mostly read: more than a page of read ids, so the unread ones are listed instead.
          from: 'Big Sender <big@bulk.example>',
          subject: (n) => `Offer ${n}`,
          body: 'Offers. Unsubscribe here.',
          listUnsubscribe: '<https://bulk.example/u>',
          labels: ['INBOX'],
          count: 600,
        },
        {
          from: 'Big Sender <big@bulk.example>',
          subject: (n) => `Unread offer ${n}`,
          body: 'Offers. Unsubscribe here.',
          listUnsubscribe: '<https://bulk.example/u>',
          count: 20,
        },
      ]),
    );
    // The newest of Letters is a personal note without List-Unsubscribe: its name is the newest, its
    // links those of the newest message that has some.
    box.insert([
      {
        from: 'New Letters <letters@news.example>',
        subject: 'A note from the editor',
        date: nextDate(),
        body: 'Thanks for reading!',
        labels: ['INBOX', 'UNREAD'],
      },
    ]);

    const provider = box.provider({ pace: false });
    const messages = all(await collect(provider.scan(null)));
    expectUnique(messages);
    const t = tallies(messages);
    for (const address of ['letters@news.example', 'forum@lists.example', 'big@bulk.example']) {
      const mine = box.seeded.filter((m) => m.from.includes(`<${address}>`));
      const newestFirst = [...mine].sort((a, b) => b.date.getTime() - a.date.getTime());
      const linked = newestFirst.find((m) => m.listUnsubscribe);
      const got = t.get(address)!;
      expect(got.count).toBe(mine.length);
      expect(got.isSubscription).toBe(true);
      expect(got.name).toBe(newestFirst[0]!.from.replace(/ <.*$/, ''));
      expect(got.lastMessageAt).toBe(newestFirst[0]!.date.getTime());
      expect(got.unsubscribe?.http ?? []).toEqual(linked ? [linked.listUnsubscribe!.slice(1, -1)] : []);
      // Every message has its read state, equal to the mailbox's.
      const read = mine.filter((m) => !m.labels.includes('UNREAD')).length;
      expect(got.messages.filter((m) => m.seen === 1)).toHaveLength(read);
      expect(got.messages.filter((m) => m.seen === 0)).toHaveLength(mine.length - read);
    }
    expect(t.get('letters@news.example')).toMatchObject({
      name: 'New Letters',
      unsubscribe: { http: ['https://news.example/u?n=20'] },
    });
    // Exact without a get per message: most of the mail is counted from listings only.
    const fetched = messages.filter((m) => m.fields.subject !== null);
    expect(fetched.length).toBeLessThanOrEqual(25);
    const units = provider.quotaUnitsByKind();
    expect(units['sender: newest gets'] ?? 0).toBeLessThanOrEqual(5 * 10);
    // Read states: one listing per batch of senders (here at most one per sender, found on different
    // pages), and the big sender's first page of 500 read ids was enough to list its 20 unread instead.
    expect(units['senders: read-state listing']).toBeLessThanOrEqual(4 * 5);
  });
});

describe('Gmail: rate limits', () => {
  it('waits out a 429 with Retry-After, a rate-limited call inside a batch, and a 403 userRateLimitExceeded', async () => {
    const box = await newMailbox('ratelimit');
    seedStandard(box);
    const reference = tallies(all(await collect(box.provider().scan(null))));

    let listCalls = 0;
    let refused: { url: string; at: number } | null = null;
    let retriedAt = 0;
    let batchCalls = 0;
    let forbidden = 0;
    const sleeps: number[] = [];
    const fetchImpl = hookedFetch(async (url, _init, call) => {
      if (url.pathname.endsWith('/messages')) {
        listCalls++;
        if (refused && !retriedAt && url.href === refused.url) retriedAt = Date.now();
        if (listCalls === 2) {
          refused = { url: url.href, at: Date.now() };
          return Response.json(
            {
              error: {
                code: 429,
                message: 'Too many concurrent requests for user',
                errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }],
                status: 'RESOURCE_EXHAUSTED',
              },
            },
            { status: 429, headers: { 'Retry-After': '1' } },
          );
        }
        if (listCalls === 5) {
          forbidden++;
          return Response.json(
            {
              error: {
                code: 403,
                message: 'User-rate limit exceeded.',
                errors: [{ reason: 'userRateLimitExceeded', domain: 'usageLimits' }],
              },
            },
            { status: 403 },
          );
        }
      }
      if (url.pathname.startsWith('/batch/') && ++batchCalls === 1) {
        // The first call of the first batch is refused by Gmail, the others answered.
        const res = await call();
        const text = (await res.text()).replace(
          'HTTP/1.1 200 OK',
          'HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0',
        );
        return new Response(text, {
          status: 200,
          headers: { 'Content-Type': res.headers.get('content-type')! },
        });
      }
      return call();
    });
    const provider = box.provider({
      fetchImpl,
      retry: { baseDelayMs: 40, maxDelayMs: 200 },
      sleep: (ms) => {
        sleeps.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const batches = await collect(provider.scan(null));
    const t = tallies(all(batches));

    expect(retriedAt - refused!.at).toBeGreaterThanOrEqual(1000);
    expect(sleeps).toContain(1000);
    expect(sleeps).toContain(0); // the batch part's Retry-After: 0
    expect(forbidden).toBe(1);
    expect(sleeps.some((ms) => ms >= 20 && ms <= 40)).toBe(true); // backoff with jitter, first step
    expect([...t.entries()].map(([a, s]) => [a, s.count, s.isSubscription])).toEqual(
      [...reference.entries()].map(([a, s]) => [a, s.count, s.isSubscription]),
    );
    expectUnique(all(batches));
  });

  it('gives up with MailConnectionError when Gmail asks for a longer wait than allowed', async () => {
    const box = await newMailbox('patience');
    seedStandard(box);
    const fetchImpl = hookedFetch(async (url, _init, call) =>
      url.pathname.endsWith('/messages')
        ? Response.json(
            { error: { code: 429, message: 'slow down' } },
            { status: 429, headers: { 'Retry-After': '3600' } },
          )
        : call(),
    );
    await expect(collect(box.provider({ fetchImpl }).scan(null))).rejects.toBeInstanceOf(MailConnectionError);
  });
});

describe('Gmail: checkpoints', () => {
  it('resumes from the state of every batch without losing or recounting a message', async () => {
    const box = await newMailbox('resume');
    seedStandard(box);
    const full = await collect(box.provider().scan(null));
    const fullMessages = all(full);
    expect(full.length).toBeGreaterThanOrEqual(4);
    const expected = subscriptions(tallies(fullMessages));

    for (let k = 1; k < full.length; k++) {
      // A process killed after committing batch k: a new provider resumes from that batch's state.
      const first = await collect(box.provider().scan(null), k);
      const state = first.at(-1)!.state;
      const rest = await collect(box.provider().scan(JSON.parse(JSON.stringify(state)) as SyncState));
      const combined = [...all(first), ...all(rest)];
      expectUnique(combined);
      expect(new Set(combined.map((m) => m.id))).toEqual(new Set(fullMessages.map((m) => m.id)));
      expect(subscriptions(tallies(combined))).toEqual(expected);
      expect(rest.at(-1)?.state).toMatchObject({ scan: null });
    }
    // A finished scan has nothing left to do.
    expect(await collect(box.provider().scan(full.at(-1)!.state))).toEqual([]);
  });

  it('daily check: new mail via history.list, each message counted once even when it arrived mid-scan', async () => {
    const box = await newMailbox('changes');
    seedStandard(box);
    const scanBatches: HeaderBatch[] = [];
    let lateFromCounted: SeededMessage | undefined;
    let lateFromPending: SeededMessage | undefined;
    for await (const batch of box.provider().scan(null)) {
      scanBatches.push(batch);
      if (scanBatches.length === 1) {
        // Mail arrives mid-scan: one from a sender already counted, one from a sender counted later.
        const counted = parseFrom(batch.messages[0]!.fields.from)!.address;
        const countedSpec = box.seeded.find((m) => parseFrom(m.from)?.address === counted)!;
        [lateFromCounted] = box.insert([
          { ...countedSpec, subject: 'late 1', date: nextDate(), labels: ['INBOX'] },
        ]);
        const pending = box.seeded.find((m) => m.from.includes('deals@shop.example'))!;
        expect(counted).not.toBe('deals@shop.example');
        [lateFromPending] = box.insert([{ ...pending, subject: 'late 2', date: nextDate() }]);
      }
    }
    const scanned = all(scanBatches);
    const done = scanBatches.at(-1)!.state;
    expect(done).toMatchObject({ scan: null, skipIds: [lateFromPending!.id] });
    expect(scanned.map((m) => m.id)).toContain(lateFromPending!.id);
    expect(scanned.map((m) => m.id)).not.toContain(lateFromCounted!.id);

    const first = await collect(box.provider().changesSince(done));
    expect(all(first).map((m) => m.id)).toEqual([lateFromCounted!.id]);
    const afterScan = [...scanned, ...all(first)];
    expectUnique(afterScan);
    expect(subscriptions(tallies(afterScan))).toEqual(expectedSubscriptions(bruteForce(box)));

    // The next day: a new newsletter, another daily issue, spam, and the user's own sent mail.
    const [fresh, daily] = box.insert([
      {
        from: 'Fresh Letter <hello@fresh.example>',
        subject: 'Welcome!',
        date: nextDate(),
        body: 'Thanks for subscribing.',
        listUnsubscribe: '<https://fresh.example/u>',
      },
      standardDaily(),
      { ...standardDaily(), from: 'Winner <win@junk.example>', labels: ['SPAM'] },
      { ...standardDaily(), from: box.email, labels: ['SENT'] },
    ]);
    const provider = box.provider();
    const second = await collect(provider.changesSince(first.at(-1)!.state));
    expect(all(second).map((m) => m.id)).toEqual([fresh!.id, daily!.id]);
    expect(all(second)[0]!.fields.listUnsubscribe).toEqual(['<https://fresh.example/u>']);
    expect(subscriptions(tallies([...afterScan, ...all(second)]))).toEqual(
      expectedSubscriptions(bruteForce(box)),
    );
    console.info(`[gmail] daily check with 4 new messages: ${provider.quotaUnitsSpent()} quota units`);

    // Nothing new: nothing yielded, nothing counted twice.
    const third = await collect(box.provider().changesSince(second.at(-1)!.state));
    expect(all(third)).toEqual([]);
  });

  it('rescans in full when Gmail no longer has the history (404), ids unchanged', async () => {
    const box = await newMailbox('expiredhistory');
    seedStandard(box);
    const scan = await collect(box.provider().scan(null));
    const [fresh] = box.insert([{ ...standardDaily(), from: 'Fresh Letter <hello@fresh.example>' }]);
    let refused = 0;
    const fetchImpl = hookedFetch(async (url, _init, call) => {
      if (!url.pathname.endsWith('/history')) return call();
      refused++;
      return Response.json(
        { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } },
        { status: 404 },
      );
    });
    const rescan = await collect(box.provider({ fetchImpl }).changesSince(scan.at(-1)!.state));
    expect(refused).toBeGreaterThanOrEqual(1);
    const ids = new Set(all(rescan).map((m) => m.id));
    expectUnique(all(rescan));
    // Everything again under the same ids (the repository counts each id once), plus the new message.
    expect(ids).toEqual(new Set([...all(scan).map((m) => m.id), fresh!.id]));
    expect(subscriptions(tallies(all(rescan)))).toEqual(expectedSubscriptions(bruteForce(box)));
    expect(rescan.at(-1)?.state).toMatchObject({ scan: null });
  });
});
