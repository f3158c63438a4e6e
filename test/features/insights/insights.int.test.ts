import { beforeAll, describe, expect, it } from 'vitest';
import type { InsightsResponse, Subscription } from '#contract/api.js';
import { weekStart } from '#server/features/insights/service.js';
import { withTestApp } from '#test/fixtures/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { rawMessage } from '#test/helpers/mail.js';

// GET /insights on a real Dovecot mailbox scanned through the API, with mail at known dates: the weekly
// series by category (mail older than the 26 weeks and personal mail left out), the top senders with
// their read rates, and "Quieter since" for an unsubscribed and a blocked sender, one of which still
// sends. The actions are taken through the API; how long ago they were is then set in the database, as the
// passing of time cannot be waited for.

const { dovecot } = peersForThisFile({ dovecot: () => startDovecot() });

const DAY = 86_400_000;
// Noon of today, so a message "n days ago" never crosses into another day while the file runs.
const TODAY = Math.floor(Date.now() / DAY) * DAY + DAY / 2;
const ago = (days: number) => TODAY - days * DAY;

interface Mail {
  from: string;
  days: number;
  seen?: boolean;
  list?: boolean;
}

const REVIEW = 'news@review.example';
const KEPT = 'digest@kept.example';
const GONE = 'offers@gone.example';
const QUIET = 'weekly@quiet.example';

const MAILBOX: Mail[] = [
  // To review: 4 in the window and in the last 90 days (days 1, 8, 9, 40), 1 before the window (220 days).
  { from: REVIEW, days: 1, seen: true },
  { from: REVIEW, days: 8, seen: true },
  { from: REVIEW, days: 9 },
  { from: REVIEW, days: 40 },
  { from: REVIEW, days: 220 },
  // Kept: days 2, 3 (the last 90 days) and 100, all read.
  { from: KEPT, days: 2, seen: true },
  { from: KEPT, days: 3, seen: true },
  { from: KEPT, days: 100, seen: true },
  // Blocked 20 days ago: 3 messages in the 90 days before (30, 50, 95), one since and late (10 days ago).
  { from: GONE, days: 10 },
  { from: GONE, days: 30 },
  { from: GONE, days: 50 },
  { from: GONE, days: 95 },
  // Unsubscribed 30 days ago: 4 in the 90 days before (35, 100, 105, 110), 1 older (200), none since.
  { from: QUIET, days: 35 },
  { from: QUIET, days: 100 },
  { from: QUIET, days: 105 },
  { from: QUIET, days: 110 },
  { from: QUIET, days: 200 },
  // Personal mail: not a subscription, in no figure.
  { from: 'friend@people.example', days: 2, list: false },
  { from: 'friend@people.example', days: 5, list: false },
];

describe.each(DIALECTS)('insights on %s (Dovecot)', (dialect) => {
  const t = withTestApp(dialect, () => ({
    MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(),
    SCAN_INTERVAL: '1h',
  }));
  let client: Client;
  let body: InsightsResponse;

  async function connect(c: Client, mails: Mail[]): Promise<Subscription[]> {
    const email = uniqueEmail('yahoo').replace('@example.com', '@yahoo.com');
    const password = 'app password';
    await dovecot.addUser({ user: email, password });
    for (const m of mails) {
      const raw = rawMessage({
        from: `Sender <${m.from}>`,
        subject: `From ${m.from}`,
        date: new Date(ago(m.days)),
        ...(m.list === false
          ? {}
          : { listUnsubscribe: `<mailto:leave-${m.from.split('@')[0]}@lists.example>` }),
      });
      await dovecot.deliver(email, 'INBOX', raw, m.seen ? 'S' : '');
    }
    await c.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await c.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
    return (await c.call('GET /get-unsubscribe-emails')).data;
  }

  const insights = (c: Client = client): Promise<InsightsResponse> => c.call('GET /insights');

  const actedAgo = async (id: string, days: number) => {
    await t.db
      .updateTable('senders')
      .set({ unsubscribed_at: ago(days) })
      .where('id', '=', id)
      .execute();
  };

  beforeAll(async () => {
    client = new Client(t.app);
    const rows = await connect(client, MAILBOX);
    const id = (address: string) => {
      const row = rows.find((r) => r.address === address);
      if (!row) throw new Error(`${address} is not listed`);
      return row.id;
    };
    expect((await client.post('/keep-subscription', { subscriptionId: id(KEPT) })).statusCode).toBe(200);
    expect((await client.post('/block-subscription', { subscriptionId: id(GONE) })).statusCode).toBe(200);
    expect((await client.post('/manual-unsubscribe', { subscriptionId: id(QUIET) })).statusCode).toBe(200);
    await actedAgo(id(GONE), 20);
    await actedAgo(id(QUIET), 30);
    // Another user's mail, in the same weeks, must not show.
    await connect(new Client(t.app), [
      { from: REVIEW, days: 1 },
      { from: 'other@elsewhere.example', days: 3 },
    ]);
    body = await insights();
  });

  it('counts each week of the last 26 by the category the sender is in now', () => {
    expect(body.weeks).toHaveLength(26);
    const first = weekStart(Date.now()) - 25 * 7 * DAY;
    expect(body.weeks.map((w) => Date.parse(w.start))).toEqual(
      Array.from({ length: 26 }, (_, i) => first + i * 7 * DAY),
    );
    // Expected: every message of the mailbox dated inside the window, in its week and its category.
    const category: Record<string, 'toReview' | 'kept' | 'unsubscribed'> = {
      [REVIEW]: 'toReview',
      [KEPT]: 'kept',
      [GONE]: 'unsubscribed',
      [QUIET]: 'unsubscribed',
    };
    const expected = body.weeks.map((w) => ({ start: w.start, toReview: 0, kept: 0, unsubscribed: 0 }));
    for (const m of MAILBOX) {
      const key = category[m.from];
      const week = Math.floor((ago(m.days) - first) / (7 * DAY));
      if (key && week >= 0 && week < 26) expected[week]![key] += 1;
    }
    expect(body.weeks).toEqual(expected);
    const total = (k: 'toReview' | 'kept' | 'unsubscribed') => body.weeks.reduce((s, w) => s + w[k], 0);
    // Days 1, 8, 9, 40 · 2, 3, 100 · 10, 30, 50, 95, 35, 100, 105, 110 (220 and 200 are older than 26 weeks).
    expect([total('toReview'), total('kept'), total('unsubscribed')]).toEqual([4, 3, 8]);
    expect(body.undatedMessages).toBe(0);
  });

  it('lists the senders with the most mail a month, with their read rates', () => {
    expect(body.topSenders.map((s) => [s.address, s.category, s.messagesPerMonth, s.readRate])).toEqual([
      // Mail of the last 90 days, a third of it.
      [REVIEW, 'uncategorized', 1.3, 0.4],
      [GONE, 'unsubscribed', 1, 0],
      [KEPT, 'kept', 0.7, 1],
      [QUIET, 'unsubscribed', 0.3, 0],
    ]);
  });

  it('shows each unsubscribed or blocked sender before and since, still-sending first', () => {
    expect(body.quieter.total).toBe(2);
    expect(body.quieter.stillSending).toBe(1);
    const [gone, quiet] = body.quieter.senders;
    expect(gone).toMatchObject({
      address: GONE,
      blocked: true,
      actedAt: new Date(ago(20)).toISOString(),
      perMonthBefore: 1,
      // One message in the 20 days since, counted over at least 30 days.
      perMonthSince: 1,
      messagesSince: 1,
      stillSending: true,
    });
    expect(quiet).toMatchObject({
      address: QUIET,
      blocked: false,
      perMonthBefore: 1.3,
      perMonthSince: 0,
      messagesSince: 0,
      stillSending: false,
    });
    expect(body.quieter.perMonthBefore).toBe(2.3);
    expect(body.quieter.perMonthSince).toBe(1);
  });

  it("answers another user's own figures only, and a fresh answer after an action", async () => {
    const stranger = new Client(t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const empty = await insights(stranger);
    expect(empty.weeks.every((w) => w.toReview + w.kept + w.unsubscribed === 0)).toBe(true);
    expect(empty.topSenders).toEqual([]);
    expect(empty.quieter).toEqual({
      senders: [],
      total: 0,
      stillSending: 0,
      known: 0,
      nextKnownInDays: null,
      perMonthBefore: 0,
      perMonthSince: 0,
    });

    // Blocking the sender to review moves its mail to the unsubscribed part at once (no stale answer).
    const review = body.topSenders.find((s) => s.address === REVIEW)!;
    expect((await client.post('/block-subscription', { subscriptionId: review.id })).statusCode).toBe(200);
    const after = await insights();
    expect(after.weeks.reduce((s, w) => s + w.toReview, 0)).toBe(0);
    expect(after.weeks.reduce((s, w) => s + w.unsubscribed, 0)).toBe(12);
    expect(after.quieter.total).toBe(3);
    expect(after.quieter.senders.find((s) => s.address === REVIEW)).toMatchObject({
      blocked: true,
      messagesSince: 0,
      stillSending: false,
    });
  });

  it('claims nothing about mail since until 14 days after the action, and says how long is left', async () => {
    // REVIEW was blocked a moment ago (the test before): its mail since is not known for 14 days.
    const fresh = await insights();
    const review = fresh.quieter.senders.find((s) => s.address === REVIEW)!;
    expect(review).toMatchObject({ perMonthSince: null, knownInDays: 14, perMonthBefore: 1.3 });
    // The totals cover the two senders acted on 20 and 30 days ago only: no "went from 3.6 to 1".
    expect(fresh.quieter).toMatchObject({
      total: 3,
      known: 2,
      nextKnownInDays: 14,
      perMonthBefore: 2.3,
      perMonthSince: 1,
    });

    // Two days short of the threshold: 2 days left, still no figure.
    const actedAt = async (days: number) => {
      await t.db
        .updateTable('senders')
        .set({ unsubscribed_at: Date.now() - days * DAY, updated_at: Date.now() })
        .where('id', '=', review.id)
        .execute();
      return (await insights()).quieter;
    };
    const soon = await actedAt(12);
    expect(soon.senders.find((s) => s.id === review.id)).toMatchObject({
      perMonthSince: null,
      knownInDays: 2,
    });
    expect(soon.nextKnownInDays).toBe(2);

    // At 14 days it is known (its mail of days 9, 8 and 1 came since): every sender counts, none waits.
    const known = await actedAt(14);
    expect(known.senders.find((s) => s.id === review.id)).toMatchObject({
      knownInDays: 0,
      perMonthSince: 3,
      messagesSince: 3,
    });
    expect(known).toMatchObject({ known: 3, nextKnownInDays: null });
  });

  it('refuses a signed-out call', async () => {
    expect((await new Client(t.app).get('/insights')).statusCode).toBe(403);
  });
});
