import { generateKeyPairSync } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/index.js';
import { createMailer } from '#server/email/mailer.js';
import { MONTH_MS } from '#server/features/report/content.js';
import { createReportRepository } from '#server/features/report/repository.js';
import { createReportService } from '#server/features/report/service.js';
import { reportedWeek } from '#server/features/report/week.js';
import { verifyOneClickSignature } from '#server/features/unsubscribe/dkim.js';
import { ONE_CLICK_BODY, oneClickUnsubscribe } from '#server/features/unsubscribe/one-click-request.js';
import { parseHostList } from '#server/lib/address-policy.js';
import type { DnsResolver } from '#server/lib/dns-resolver.js';
import { detectSubscription } from '#server/mail/headers/detect.js';
import { parseHeaderBlock } from '#server/mail/headers/headers.js';
import {
  Client,
  createTestApp,
  DIALECTS,
  type Dialect,
  type TestApp,
  uniqueEmail,
} from '#test/helpers/app.js';
import { type SenderSeed, seedSender } from '#test/helpers/seed.js';
import { type HttpsFront, startHttpsFront } from './https-front.js';

// The weekly report by mail (docs/decisions/084-weekly-report.md), on both databases: what it says about a
// seeded week with known dates, its two MIME parts and its headers as the outbox file holds them, its own
// RFC 8058 unsubscribe driven by our unsubscribe engine (the same header parsing, DKIM check and one-click
// POST the product applies to senders), the DKIM signature verified by mailauth against a key served by a
// resolver function, the opt-in (off: no mail), and exactly one mail from two runs at once.

const DAY = 86_400_000;
/** The reported week's Monday: 17 November 2025 (2025-W47, to Sunday 23 November), away from today's week. */
const MONDAY = Date.UTC(2025, 10, 17);
/** Days and hours from that Monday 00:00 UTC. */
const at = (day: number, hour = 12) => MONDAY + day * DAY + hour * 3_600_000;
/** The next Monday, 06:00 UTC: when the report of 2025-W47 goes out. */
const NOW = at(7, 6);
const JOINED = Date.UTC(2025, 5, 1);
const REPORT_SUBJECT = /^Your Inbox Genie week, /;

/** A DKIM key of our own and the DNS answers that publish it (a resolver function, as mailauth takes). */
function dkimSetup(domain: string, selector: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const txt = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const lookups: string[] = [];
  const resolver: DnsResolver = async (name, rrtype) => {
    lookups.push(`${rrtype} ${name}`);
    if (rrtype === 'TXT' && name === `${selector}._domainkey.${domain}`) return [[txt]];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  return { pem, resolver, lookups };
}

interface OutboxFile {
  raw: Buffer;
  parsed: Awaited<ReturnType<typeof simpleParser>>;
}

/** The weekly reports in the app's outbox, oldest first, as bytes and parsed. */
async function reportsInOutbox(dataDir: string): Promise<OutboxFile[]> {
  const dir = path.join(dataDir, 'outbox');
  const out: OutboxFile[] = [];
  for (const name of (await readdir(dir).catch(() => [])).sort()) {
    const raw = await readFile(path.join(dir, name));
    const parsed = await simpleParser(raw);
    if (REPORT_SUBJECT.test(parsed.subject ?? '')) out.push({ raw, parsed });
  }
  return out;
}

describe.each(DIALECTS)('weekly report on %s', (dialect: Dialect) => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function app(env: Record<string, string> = {}): Promise<TestApp> {
    const t = await createTestApp(dialect, env);
    open.push(t);
    return t;
  }

  async function signedUp(t: TestApp) {
    const client = new Client(t.app);
    const email = uniqueEmail('report');
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // Joined in June 2025, long before the weeks reported here, with the address proven.
    await t.db
      .updateTable('users')
      .set({ created_at: JOINED, email_verified: 1 })
      .where('id', '=', user.id)
      .execute();
    return { client, email, userId: user.id };
  }

  async function turnOn(client: Client) {
    const settings = (await client.get('/get-settings')).json();
    const res = await client.put('/update-settings', { ...settings, weeklyReport: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ weeklyReport: true });
  }

  /** A service on the app's database that reports as of NOW into the app's outbox. */
  function reportAt(t: TestApp, now = NOW, db = t.db) {
    return createReportService({
      repo: createReportRepository(db),
      mailer: createMailer({
        smtpUrl: null,
        from: t.config.mailFrom,
        dataDir: t.dataDir,
        dkim: t.config.dkim,
      }),
      publicUrl: t.config.publicUrl,
      now: () => now,
    });
  }

  /**
   * A week of the user's mail with known dates: subscriptions found in and around 2025-W47, a rule's and
   * the Screener's moves, an unsubscribed sender still sending, one that went quiet, and another user's
   * rows that must not show.
   */
  async function seedWeek(t: TestApp, userId: string) {
    const mailbox = `mbx-${userId}`;
    await t.db
      .insertInto('mailboxes')
      .values({
        id: mailbox,
        user_id: userId,
        email: `box-${userId}@example.com`,
        provider: 'yahoo',
        created_at: NOW - 200 * DAY,
      })
      .execute();
    const sender = (
      id: string,
      address: string,
      name: string,
      createdAt: number,
      extra: Partial<SenderSeed> = {},
    ) =>
      seedSender(t.db, {
        id: `${id}-${userId}`,
        userId,
        mailboxId: mailbox,
        address,
        name,
        createdAt,
        ...extra,
      });
    // Found in the week (Monday 00:00 counts, Sunday 23:59 counts), before it, after it; a personal sender.
    await sender('deals', 'deals@shop.example', 'Shop <Deals> & "Offers"', at(1), { messageCount: 5 });
    await sender('paper', 'news@paper.example', 'The Paper', at(6, 23), { messageCount: 2 });
    await sender('monday', 'hello@monday.example', '', at(0, 0), { messageCount: 1 });
    await sender('older', 'old@letters.example', 'Old Letters', at(-1, 23));
    await sender('later', 'late@later.example', 'Later', at(7, 1));
    await sender('friend', 'friend@people.example', 'A Friend', at(2), { subscription: false });
    // Unsubscribed two average months before NOW, mail still coming: 6 messages in the 90 days before (2 a
    // month: 4 expected since), 2 since, flagged still sending. Avoided: 4 - 2 = 2.
    const stubbornAt = NOW - 2 * MONTH_MS;
    await sender('stubborn', 'stubborn@spam.example', 'Stubborn', NOW - 300 * DAY, {
      category: 'unsubscribed',
      unsubscribedAt: stubbornAt,
      stillSending: true,
      lastMessageAt: at(4),
    });
    // Unsubscribed three months before NOW and quiet since: 9 messages in the 90 days before (3 a month: 9
    // expected), one older than the window (not counted). Avoided: 9.
    const quietAt = NOW - 3 * MONTH_MS;
    await sender('quiet', 'quiet@gone.example', 'Gone Quiet', NOW - 300 * DAY, {
      category: 'unsubscribed',
      unsubscribedAt: quietAt,
    });
    // Kept: its mail is not avoided.
    await sender('kept', 'kept@keep.example', 'Kept', NOW - 300 * DAY, { category: 'kept' });
    let n = 0;
    const message = (senderId: string, date: number) =>
      t.db
        .insertInto('messages')
        .values({
          mailbox_id: mailbox,
          provider_id: `INBOX/1/${++n}`,
          sender_id: `${senderId}-${userId}`,
          folder: 'INBOX',
          subject: `Message ${n}`,
          date,
          seen: 0,
        })
        .execute();
    for (let i = 1; i <= 6; i++) await message('stubborn', stubbornAt - i * 14 * DAY);
    await message('stubborn', stubbornAt + 10 * DAY);
    await message('stubborn', at(4));
    for (let i = 1; i <= 9; i++) await message('quiet', quietAt - i * 9 * DAY);
    await message('quiet', quietAt - 100 * DAY);
    for (let i = 1; i <= 4; i++) await message('kept', NOW - i * 7 * DAY);
    const move = (senderId: string, cause: 'rule' | 'screener', destination: object, createdAt: number) =>
      t.db
        .insertInto('moved_messages')
        .values({
          mailbox_id: mailbox,
          sender_id: `${senderId}-${userId}`,
          cause,
          destination: JSON.stringify(destination),
          moved_id: `moved/${++n}`,
          origin: 'INBOX',
          created_at: createdAt,
        })
        .execute();
    // In the week: a rule filed 3 of Deals into Deals and trashed 1; the Screener held 2 of The Paper.
    for (const day of [1, 2, 3]) await move('deals', 'rule', { kind: 'folder', path: 'Deals' }, at(day));
    await move('deals', 'rule', { kind: 'trash' }, at(3));
    await move('paper', 'screener', { kind: 'folder', path: 'Screener' }, at(6, 23));
    await move('paper', 'screener', { kind: 'folder', path: 'Screener' }, at(6, 23));
    // Outside the week: not this report's.
    await move('older', 'rule', { kind: 'archive' }, at(-1, 23));
    await move('older', 'rule', { kind: 'archive' }, at(7, 2));
  }

  /** Another user of the same server with a subscription found in the same week. */
  async function otherUser(t: TestApp) {
    await t.db
      .insertInto('users')
      .values({
        id: 'other-user',
        email: uniqueEmail('other'),
        created_at: JOINED,
        weekly_report: 1,
        email_verified: 1,
      })
      .execute();
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'other-mbx',
        user_id: 'other-user',
        email: 'other@yahoo.com',
        provider: 'yahoo',
        created_at: NOW,
      })
      .execute();
    await seedSender(t.db, {
      id: 'other-sender',
      userId: 'other-user',
      mailboxId: 'other-mbx',
      address: 'not-yours@elsewhere.example',
      createdAt: at(2),
    });
  }

  it('is off by default: nobody is due, the job sends nothing, and the switch turns it on', async () => {
    const t = await app();
    const { client, userId } = await signedUp(t);
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: false });
    const service = reportAt(t);
    expect(await service.dueUsers()).toEqual([]);
    expect(await service.sendWeekly(userId)).toBe('off');
    // The app's own job, as the scheduler queues it.
    await t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` });
    await t.app.jobs.idle();
    expect(await reportsInOutbox(t.dataDir)).toEqual([]);
    expect(await t.db.selectFrom('weekly_reports').selectAll().execute()).toEqual([]);

    await turnOn(client);
    expect(await service.dueUsers()).toEqual([userId]);
    // A user who joined after the reported week ended gets their first report a week later.
    await t.db
      .updateTable('users')
      .set({ created_at: at(7, 1) })
      .where('id', '=', userId)
      .execute();
    expect(await service.dueUsers()).toEqual([]);
    expect(await service.sendWeekly(userId)).toBe('too-new');
    // An address nobody proved gets no report: whoever signed up with it cannot mail its owner weekly.
    await t.db
      .updateTable('users')
      .set({ created_at: JOINED, email_verified: 0 })
      .where('id', '=', userId)
      .execute();
    expect(await service.dueUsers()).toEqual([]);
    expect(await service.sendWeekly(userId)).toBe('unproven');
    expect(await reportsInOutbox(t.dataDir)).toEqual([]);
  });

  it('reports the week: new subscriptions, rules and the Screener, still sending, mail avoided', async () => {
    const t = await app();
    const { client, email, userId } = await signedUp(t);
    await seedWeek(t, userId);
    await otherUser(t);
    await turnOn(client);
    const service = reportAt(t);
    expect((await service.dueUsers()).sort()).toEqual(['other-user', userId].sort());

    const content = await service.content(userId, reportedWeek(NOW), NOW);
    expect(content.week).toEqual({ name: '2025-W47', start: MONDAY, end: MONDAY + 7 * DAY });
    expect(content.newSubscriptions.total).toBe(3);
    expect(content.newSubscriptions.listed.map((s) => s.address)).toEqual([
      'deals@shop.example',
      'news@paper.example',
      'hello@monday.example',
    ]);
    expect(content.moves).toEqual([
      { cause: 'rule', destination: { kind: 'folder', path: 'Deals' }, messages: 3, senders: 1 },
      { cause: 'rule', destination: { kind: 'trash' }, messages: 1, senders: 1 },
      { cause: 'screener', destination: { kind: 'folder', path: 'Screener' }, messages: 2, senders: 1 },
    ]);
    expect(content.movedSenders).toEqual([
      { cause: 'rule', name: 'Shop <Deals> & "Offers"', address: 'deals@shop.example', messages: 4 },
      { cause: 'screener', name: 'The Paper', address: 'news@paper.example', messages: 2 },
    ]);
    expect(content.stillSending).toEqual({
      total: 1,
      listed: [
        {
          name: 'Stubborn',
          address: 'stubborn@spam.example',
          unsubscribedAt: NOW - 2 * MONTH_MS,
          lastMessageAt: at(4),
        },
      ],
    });
    // 9 from the quiet sender, 4 expected less 2 that came from the stubborn one.
    expect(content.avoided).toEqual({ messages: 11, senders: 2 });

    expect(await service.sendWeekly(userId)).toBe('sent');
    const [mail, ...more] = await reportsInOutbox(t.dataDir);
    expect(more).toEqual([]);
    const { parsed, raw } = mail!;
    expect(parsed.subject).toBe(
      'Your Inbox Genie week, 17 Nov – 23 Nov 2025: 3 new subscriptions, 6 messages sorted, 1 still sending',
    );
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe(email);
    // Two parts: text and HTML, as multipart/alternative.
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    const text = parsed.text ?? '';
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    expect(text).toContain('New subscriptions found: 3');
    expect(text).toContain('- Shop <Deals> & "Offers" <deals@shop.example> (5 messages)');
    expect(text).toContain('- hello@monday.example (1 message)');
    expect(text).toContain('Sender rules moved 4 messages: 3 filed into “Deals”, 1 moved to the trash.');
    expect(text).toContain(
      'Hold new senders kept 2 messages of new senders out of your inbox: 2 filed into “Screener”.',
    );
    expect(text).toContain('Still sending after you unsubscribed: 1');
    expect(text).toMatch(
      /- Stubborn <stubborn@spam\.example> \(unsubscribed \d+ \w+ 2025, last mail 21 Nov 2025\)/,
    );
    expect(text).toContain('About 11 messages from the 2 senders you unsubscribed from or blocked.');
    expect(text).toContain('This is an estimate');
    for (const gone of [
      'old@letters.example',
      'late@later.example',
      'friend@people.example',
      'not-yours@',
      'kept@',
    ]) {
      expect(text).not.toContain(gone);
      expect(html).not.toContain(gone);
    }
    // Links back into the app, and the report's own way out.
    const origin = t.config.publicUrl;
    expect(text).toContain(`Review them: ${origin}/genie/subscriptions`);
    expect(text).toContain(`Block them in one click: ${origin}/genie/unsubscribed`);
    expect(text).toContain(`${origin}/genie/rules`);
    expect(text).toContain(`${origin}/genie/settings`);
    const unsubscribe = /Stop these reports: (\S+)/.exec(text)?.[1] ?? '';
    expect(unsubscribe).toMatch(new RegExp(`^${origin}/report/unsubscribe\\?token=[A-Za-z0-9_-]{43}$`));
    // The HTML part says the same, with the sender's name escaped.
    expect(html).toContain('Shop &lt;Deals&gt; &amp; &quot;Offers&quot; &lt;deals@shop.example&gt;');
    expect(html).not.toContain('<Deals>');
    expect(html).toContain(`href="${origin}/genie/unsubscribed"`);
    expect(html).toContain(`href="${unsubscribe}"`);
    expect(html).toContain('About 11 messages');

    // Headers: RFC 2369 / 8058 as our scanner reads them (the same parser as for every sender's mail).
    const fields = parseHeaderBlock(raw);
    expect(fields.listUnsubscribe).toEqual([`<${unsubscribe}>`]);
    expect(fields.listUnsubscribePost).toEqual(['List-Unsubscribe=One-Click']);
    expect(fields.listId).toBe('Inbox Genie weekly report <weekly-report.localhost>');
    const detection = detectSubscription(fields);
    expect(detection).toMatchObject({ isSubscription: true, isNewsletter: true, mailto: [] });
    expect(detection.httpsUrls).toEqual([unsubscribe]);
    // Plain http (this app's PUBLIC_URL) is never one-click to our engine; the https test below is.
    expect(detection.oneClick).toBe(false);
    // Unsigned: no key configured.
    expect(parsed.headers.has('dkim-signature')).toBe(false);

    // The claim and the stored token: a hash, never the token itself.
    const rows = await t.db.selectFrom('weekly_reports').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({ user_id: userId, week: '2025-W47', claimed_at: expect.anything() }),
    ]);
    expect(rows[0]!.sent_at).not.toBeNull();
    const token = new URL(unsubscribe).searchParams.get('token')!;
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);

    // The same week again: claimed, nothing sent. The next week: a new report with a new token.
    expect(await service.sendWeekly(userId)).toBe('claimed');
    expect(await reportsInOutbox(t.dataDir)).toHaveLength(1);
    expect(await service.dueUsers()).toEqual(['other-user']);
    expect(await reportAt(t, NOW + 7 * DAY).sendWeekly(userId)).toBe('sent');
    const mails = await reportsInOutbox(t.dataDir);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.parsed.subject).toMatch(/^Your Inbox Genie week, 24 Nov – 30 Nov 2025: /);
    expect(mails[1]!.parsed.text).not.toContain(token);

    // Deleting the account deletes its reports.
    expect((await client.delete('/delete-account')).statusCode).toBe(200);
    expect(
      await t.db.selectFrom('weekly_reports').selectAll().where('user_id', '=', userId).execute(),
    ).toEqual([]);
  });

  it('unsubscribes through our own RFC 8058 endpoint, as our engine unsubscribes from a sender, under our DKIM signature', async () => {
    const front: HttpsFront = await startHttpsFront();
    open.push(front);
    const dkim = dkimSetup('genie.example', 'report2026');
    const t = await app({
      PUBLIC_URL: front.origin,
      MAIL_FROM: 'Inbox Genie <report@genie.example>',
      DKIM_PRIVATE_KEY: dkim.pem.replaceAll('\n', '\\n'),
      DKIM_SELECTOR: 'report2026',
    });
    front.serve(t.app);
    expect(t.config.dkim).toMatchObject({ domain: 'genie.example', selector: 'report2026' });
    const { client, userId } = await signedUp(t);
    await turnOn(client);

    // Sent by the app's own job with the real clock, as the scheduler would have it.
    await t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` });
    await t.app.jobs.idle();
    const [mail] = await reportsInOutbox(t.dataDir);
    expect(mail).toBeDefined();
    const { raw, parsed } = mail!;
    const week = reportedWeek(Date.now());
    expect(await t.db.selectFrom('weekly_reports').select('week').execute()).toEqual([{ week: week.name }]);

    // DKIM: mailauth verifies our signature with the key from the resolver; aligned with From; the
    // List-Unsubscribe fields are among the signed ones.
    const { results } = await dkimVerify(raw, { resolver: dkim.resolver });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ signingDomain: 'genie.example', selector: 'report2026' });
    expect(results[0]!.status).toMatchObject({ result: 'pass', aligned: 'genie.example' });
    const signed = (results[0] as { signingHeaders?: { keys?: string } }).signingHeaders?.keys?.toLowerCase();
    expect(signed).toContain('list-unsubscribe');
    expect(signed).toContain('list-unsubscribe-post');
    expect(dkim.lookups).toContain('TXT report2026._domainkey.genie.example');

    // Our engine's checks of a sender's one-click link (features/unsubscribe): the header parsing, and the
    // DKIM verdict that must vouch for the link before any POST is made.
    const fields = parseHeaderBlock(raw);
    const detection = detectSubscription(fields);
    expect(detection.oneClick).toBe(true);
    expect(detection.sender?.address).toBe('report@genie.example');
    const [uri] = detection.httpsUrls;
    expect(uri).toMatch(new RegExp(`^${front.origin}/report/unsubscribe\\?token=[A-Za-z0-9_-]{43}$`));
    expect(parsed.text).toContain(`Stop these reports: ${uri}`);
    const verdict = await verifyOneClickSignature(raw, 'report@genie.example', uri!, dkim.resolver);
    expect(verdict).toEqual({ ok: true, domain: 'genie.example', result: 'pass' });
    // A tampered link is not vouched for.
    const forged = Buffer.from(
      raw.toString('latin1').replace(/token=[A-Za-z0-9_-]{43}/, `token=${'A'.repeat(43)}`),
      'latin1',
    );
    expect((await verifyOneClickSignature(forged, 'report@genie.example', uri!, dkim.resolver)).ok).toBe(
      false,
    );

    // GET (a person's click, a link scanner) changes nothing: a page with the button.
    const path = uri!.slice(front.origin.length);
    const page = await new Client(t.app).get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Stop the weekly report');
    expect(page.body).toContain(`action="${path}"`);
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: true });

    // The one-click POST exactly as our engine makes it to senders (https, form-encoded, no cookies).
    const receipt = await oneClickUnsubscribe(uri!, { allowedHosts: parseHostList('127.0.0.1') });
    expect(receipt).toMatchObject({ ok: true, httpStatus: 200, error: null });
    expect(front.requests).toContainEqual({ method: 'POST', url: path });
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: false });
    // A second POST is harmless: still 2xx, still off.
    expect(await oneClickUnsubscribe(uri!, { allowedHosts: parseHostList('127.0.0.1') })).toMatchObject({
      ok: true,
      httpStatus: 200,
    });
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: false });
    // Off: nobody is due and the job sends nothing more.
    await t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` });
    await t.app.jobs.idle();
    expect(await reportsInOutbox(t.dataDir)).toHaveLength(1);

    // Bad tokens and bodies get a clear 4xx and change nothing.
    await turnOn(client);
    const stranger = new Client(t.app);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const post = (url: string, payload: string, headers: Record<string, string> = form) =>
      stranger.request({ method: 'POST', url, payload, headers, csrf: false });
    const unknown = await post(`/report/unsubscribe?token=${'A'.repeat(43)}`, ONE_CLICK_BODY);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/not one of ours/);
    const malformed = await post('/report/unsubscribe?token=nope', ONE_CLICK_BODY);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/incomplete/);
    expect((await post('/report/unsubscribe', ONE_CLICK_BODY)).statusCode).toBe(400);
    const noBody = await post(path, 'List-Unsubscribe=Something-Else');
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().message).toMatch(/List-Unsubscribe=One-Click/);
    expect(
      (await post(path, '{"List-Unsubscribe":"One-Click"}', { 'content-type': 'application/json' }))
        .statusCode,
    ).toBe(400);
    const badPage = await stranger.get(`/report/unsubscribe?token=${'B'.repeat(43)}`);
    expect(badPage.statusCode).toBe(404);
    expect(badPage.body).toContain('This link is not valid');
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: true });
    // The page's own button: a form POST (multipart too is RFC 8058's) turns it off.
    const boundary = 'xyz';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const byForm = await post(path, multipart, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(byForm.statusCode).toBe(200);
    expect(byForm.body).toContain('The weekly report is off');
    expect((await client.get('/get-settings')).json()).toMatchObject({ weeklyReport: false });
  });

  it('sends exactly one mail when two instances and two jobs run the same week at once', async () => {
    const t = await app();
    const { client, userId } = await signedUp(t);
    await seedWeek(t, userId);
    await turnOn(client);
    // A second process's connection to the same database (PostgreSQL schema, or SQLite file).
    const schema = dialect === 'postgres' ? t.config.jobSchema.replace(/_jobs$/, '') : undefined;
    const second = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.dataDir, schema });
    open.push(second);
    const runs = await Promise.all([
      reportAt(t, NOW).sendWeekly(userId),
      reportAt(t, NOW, second.db).sendWeekly(userId),
      reportAt(t, NOW).sendWeekly(userId),
      reportAt(t, NOW, second.db).sendWeekly(userId),
    ]);
    expect(runs.filter((r) => r === 'sent')).toHaveLength(1);
    expect(runs.filter((r) => r === 'claimed')).toHaveLength(3);
    expect(await reportsInOutbox(t.dataDir)).toHaveLength(1);
    const rows = await t.db.selectFrom('weekly_reports').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sent_at).not.toBeNull();

    // The app's own jobs for the real week, queued twice at once from the scheduler's side: one mail more.
    await Promise.all([
      t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` }),
      t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` }),
    ]);
    await t.app.jobs.idle();
    await t.app.jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` });
    await t.app.jobs.idle();
    const weeks = await t.db.selectFrom('weekly_reports').select('week').orderBy('week').execute();
    expect(weeks.map((w) => w.week)).toEqual(['2025-W47', reportedWeek(Date.now()).name]);
    expect(await reportsInOutbox(t.dataDir)).toHaveLength(2);
  });

  it('gives the week back when the send fails, so the next run sends it once', async () => {
    const t = await app();
    const { client, userId } = await signedUp(t);
    await turnOn(client);
    let fail = true;
    const outbox = createMailer({ smtpUrl: null, from: t.config.mailFrom, dataDir: t.dataDir });
    const service = createReportService({
      repo: createReportRepository(t.db),
      mailer: {
        target: 'flaky',
        async send(mail) {
          if (fail) throw new Error('SMTP 451 try again later');
          await outbox.send(mail);
        },
      },
      publicUrl: t.config.publicUrl,
      now: () => NOW,
    });
    await expect(service.sendWeekly(userId)).rejects.toThrow(/451/);
    expect(await t.db.selectFrom('weekly_reports').selectAll().execute()).toEqual([]);
    expect(await service.dueUsers()).toEqual([userId]);
    fail = false;
    expect(await service.sendWeekly(userId)).toBe('sent');
    expect(await reportsInOutbox(t.dataDir)).toHaveLength(1);
  });
});
