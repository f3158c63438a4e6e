import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Subscription } from '#contract/api.js';
import { GmailClient } from '#server/mail/gmail/client.js';
import { GraphClient, microsoftBaseUrls } from '#server/mail/graph/client.js';
import { withTestApp } from '#test/fixtures/app.js';
import {
  consentWithGoogle,
  consentWithMicrosoft,
  googleSignInEnv,
  MICROSOFT_CALLBACK,
  microsoftSignInEnv,
  signUpAndScan,
} from '#test/fixtures/oauth.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { type Client, DIALECTS } from '#test/helpers/app.js';
import { type MessageSpec, startGoogleEmulator } from '#test/helpers/google-emulator.js';
import { type FakeMessageInput, startGraphFake } from '#test/helpers/graph-fake.js';

// Sender rules and the Screener through the API on Gmail (@emulators/google) and Outlook (the Graph fake),
// as rules.int.test.ts does on Dovecot: a folder rule made at once with the provider's own filter filing
// later mail, keepNewest and expireAfterDays to the archive or the trash, each undone, and the Screener
// taking a new list sender's mail and giving it back on Keep or when switched off. Observed in the
// emulator's and the fake's mailboxes.

const { emu, fake } = peersForThisFile({
  emu: () => startGoogleEmulator(),
  fake: () => startGraphFake({ redirectUris: [MICROSOFT_CALLBACK] }),
});

const DAY = 86_400_000;
/** Rules age mail against the real clock, so messages are dated from now. */
const ago = (days: number) => new Date(Date.now() - days * DAY);

/** Finds a sender's row in whichever list it is in. */
async function rowOf(client: Client, address: string): Promise<Subscription> {
  for (const category of ['uncategorized', 'kept', 'unsubscribed']) {
    const list = (await client.get(`/get-unsubscribe-emails?category=${category}`)).json()
      .data as Subscription[];
    const found = list.find((s) => s.address === address);
    if (found) return found;
  }
  throw new Error(`${address} is not listed`);
}

describe.each(DIALECTS)('sender rules and the Screener on %s (Gmail)', (dialect) => {
  const t = withTestApp(dialect, () => googleSignInEnv(emu));

  const news = (address: string, subject: string, days: number): MessageSpec => ({
    from: `News <${address}>`,
    subject,
    date: ago(days),
    // The scan's first discovery search is for this word.
    body: 'This week. To unsubscribe, write to us.',
    listUnsubscribe: `<mailto:leave@${address.split('@')[1]}>`,
    labels: ['INBOX', 'UNREAD'],
  });

  /** A user signed up with Google whose Gmail holds `specs`, scanned; the emulator's own grant looks on. */
  async function connected(label: string, specs: MessageSpec[]) {
    const email = `${label}-${randomBytes(4).toString('hex')}@gmail.test`;
    const { refreshToken } = await emu.addUser(email);
    const observer = new GmailClient({
      refreshToken,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      baseUrl: emu.baseUrl,
      pace: false,
    });
    const seeded = emu.insert(email, specs);
    const { client } = await signUpAndScan(t.app, 'google', email, (url, who) =>
      consentWithGoogle(emu, url, who),
    );
    const ids = (address: string, from = seeded) =>
      from.filter((m) => m.from.includes(`<${address}>`)).map((m) => m.id);
    /** Each message's labels, sorted. */
    const labels = async (messageIds: string[]) => {
      const got = await observer.getMetadata(messageIds, ['From']);
      return messageIds.map((id) => [...(got.get(id)?.labelIds ?? [])].sort());
    };
    /** How many of the messages carry `label`. */
    const carrying = async (messageIds: string[], label: string) =>
      (await labels(messageIds)).filter((l) => l.includes(label)).length;
    const labelId = async (name: string) => (await observer.listLabels()).find((l) => l.name === name)?.id;
    const deliver = (...more: MessageSpec[]) => emu.insert(email, more);
    const check = async () => {
      const mailbox = await t.db
        .selectFrom('mailboxes')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox.id }, { key: `mailbox:${mailbox.id}` });
      await t.app.jobs.idle();
    };
    const row = (address: string) => rowOf(client, address);
    return { email, client, observer, seeded, ids, labels, carrying, labelId, deliver, check, row };
  }

  it('files a sender under a new label with a filter for later mail, and undoes it', async () => {
    const u = await connected('folder', [
      news('deals@shop.example', 'A', 2),
      news('deals@shop.example', 'B', 1),
      news('other@shop.example', 'C', 1),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Newsletters' } });
    expect(put.statusCode).toBe(200);
    const label = await u.labelId('Newsletters');
    expect(label).toMatch(/^Label_/);
    expect(put.json()).toEqual({
      rule: {
        folder: label,
        folderName: 'Newsletters',
        keepNewest: null,
        expireAfterDays: null,
        expireAction: null,
      },
      applied: { moved: 2, trashed: 0, archived: 0 },
    });
    const deals = u.ids('deals@shop.example');
    expect(await u.labels(deals)).toEqual([
      [label, 'UNREAD'],
      [label, 'UNREAD'],
    ]);
    expect(await u.carrying(u.ids('other@shop.example'), 'INBOX')).toBe(1);
    expect(await u.observer.listFilters()).toEqual([
      {
        id: expect.any(String),
        criteria: { from: 'deals@shop.example' },
        action: { addLabelIds: [label], removeLabelIds: ['INBOX'] },
      },
    ]);

    const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ restored: 2 });
    expect(await u.labels(deals)).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
    ]);
    expect(await u.observer.listFilters()).toEqual([]);
    expect((await u.client.get('/sender-rules')).json().data).toEqual([]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(2);
  });

  it('counts mail the filter filed once, and puts it back too when the rule is removed', async () => {
    const u = await connected('later', [
      news('deals@shop.example', 'A', 2),
      news('deals@shop.example', 'B', 1),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals' } });
    const label = await u.labelId('Deals');

    // Gmail's filter files the next message as it arrives; the check counts it once.
    const later = u.deliver(news('deals@shop.example', 'C', 0)).map((m) => m.id);
    expect(await u.labels(later)).toEqual([[label, 'UNREAD']]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);

    // "Remove rule and put mail back" means all of the rule's mail, as on IMAP where the check filed it.
    const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
    expect(removed.json()).toEqual({ restored: 3 });
    expect(await u.carrying([...u.ids('deals@shop.example'), ...later], 'INBOX')).toBe(3);
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
  });

  it('at a check, trashes what a keepNewest leaves once the filter filed new mail', async () => {
    const u = await connected('keepfolder', [
      news('deals@shop.example', 'A', 3),
      news('deals@shop.example', 'B', 2),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals', keepNewest: 2 } });
    expect(put.json().applied).toEqual({ moved: 2, trashed: 0, archived: 0 });
    const label = (await u.labelId('Deals'))!;
    const [a, b] = u.ids('deals@shop.example');

    const [c] = u.deliver(news('deals@shop.example', 'C', 0)).map((m) => m.id);
    await u.check();
    // C filed by the filter, then the oldest (A) trashed: two kept under Deals.
    expect(await u.carrying([a!], 'TRASH')).toBe(1);
    expect(await u.labels([b!, c!])).toEqual([
      [label, 'UNREAD'],
      [label, 'UNREAD'],
    ]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);

    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).statusCode).toBe(200);
    // A went under Deals and then to the trash: put back, it is in the inbox and under no rule's label.
    expect(await u.labels([a!, b!])).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
    ]);
  });

  it('keeps only the newest N, and undo takes the rest out of the trash', async () => {
    const u = await connected(
      'keep',
      [1, 2, 3, 4, 5].map((d) => news('daily@paper.example', `Day ${d}`, d)),
    );
    const id = (await u.row('daily@paper.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 2 } });
    expect(put.json().applied).toEqual({ moved: 0, trashed: 3, archived: 0 });
    const all = u.ids('daily@paper.example');
    // Seeded newest first (1 day ago first): the three oldest went to the trash.
    expect(await u.labels(all)).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
      ['TRASH', 'UNREAD'],
      ['TRASH', 'UNREAD'],
      ['TRASH', 'UNREAD'],
    ]);
    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 3 });
    expect([await u.carrying(all, 'INBOX'), await u.carrying(all, 'TRASH')]).toEqual([5, 0]);
  });

  it('archives, or trashes, what is older than N days, and undo brings it back to the inbox', async () => {
    const u = await connected('expire', [
      news('weekly@mag.example', 'Old 1', 50),
      news('weekly@mag.example', 'Old 2', 40),
      news('weekly@mag.example', 'Recent', 10),
      news('monthly@mag.example', 'Old', 60),
      news('monthly@mag.example', 'Recent', 5),
    ]);
    const weekly = u.ids('weekly@mag.example');
    const monthly = u.ids('monthly@mag.example');
    const weeklyId = (await u.row('weekly@mag.example')).id;
    const archive = await u.client.put(`/sender-rules/${weeklyId}`, {
      rule: { expireAfterDays: 30, expireAction: 'archive' },
    });
    expect(archive.json().applied).toEqual({ moved: 0, trashed: 0, archived: 2 });
    // Gmail's archive is mail without INBOX (and not in the trash).
    expect(await u.labels(weekly)).toEqual([['UNREAD'], ['UNREAD'], ['INBOX', 'UNREAD']]);

    const monthlyId = (await u.row('monthly@mag.example')).id;
    const trash = await u.client.put(`/sender-rules/${monthlyId}`, {
      rule: { expireAfterDays: 30, expireAction: 'trash' },
    });
    expect(trash.json().applied).toEqual({ moved: 0, trashed: 1, archived: 0 });
    expect(await u.labels(monthly)).toEqual([
      ['TRASH', 'UNREAD'],
      ['INBOX', 'UNREAD'],
    ]);

    expect((await u.client.delete(`/sender-rules/${weeklyId}?restore=true`)).json()).toEqual({ restored: 2 });
    expect((await u.client.delete(`/sender-rules/${monthlyId}?restore=true`)).json()).toEqual({
      restored: 1,
    });
    expect(await u.labels([...weekly, ...monthly])).toEqual(Array(5).fill(['INBOX', 'UNREAD']));
  });

  it('screens a new list sender under Screener, gives its mail back on Keep, and all of it when off', async () => {
    const u = await connected('screener', [news('known@shop.example', 'A', 2)]);
    const on = await u.client.put('/screener', { email: u.email, enabled: true });
    expect(on.json()).toEqual({ enabled: true, restored: 0 });

    const fresh = u
      .deliver(news('fresh@new.example', 'Hello', 0), news('fresh@new.example', 'Again', 0))
      .map((m) => m.id);
    const friend = u
      .deliver({ from: 'Friend <friend@mail.example>', subject: 'Lunch?', date: ago(0), body: 'Noon?' })
      .map((m) => m.id);
    await u.check();

    const row = await u.row('fresh@new.example');
    expect(row).toMatchObject({ category: 'uncategorized', screened: true, messageCount: 2 });
    expect((await u.row('known@shop.example')).screened).toBe(false);
    const screener = await u.labelId('Screener');
    expect(screener).toBeDefined();
    expect(await u.labels(fresh)).toEqual([
      [screener, 'UNREAD'],
      [screener, 'UNREAD'],
    ]);
    expect(await u.carrying([...friend, ...u.ids('known@shop.example')], 'INBOX')).toBe(2);

    const kept = await u.client.post('/keep-subscription', { subscriptionId: row.id });
    expect(kept.json()).toMatchObject({ category: 'kept', screened: false, restoredFromScreener: 2 });
    expect(await u.labels(fresh)).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
    ]);
    await u.check();
    expect((await u.row('fresh@new.example')).messageCount).toBe(2);

    const second = u.deliver(news('second@new.example', 'Three', 0)).map((m) => m.id);
    await u.check();
    expect((await u.row('second@new.example')).screened).toBe(true);
    expect(await u.labels(second)).toEqual([[screener, 'UNREAD']]);
    const off = await u.client.put('/screener', { email: u.email, enabled: false });
    expect(off.json()).toEqual({ enabled: false, restored: 1 });
    expect(await u.labels(second)).toEqual([['INBOX', 'UNREAD']]);
    expect((await u.row('second@new.example')).screened).toBe(false);
  });
});

describe.each(DIALECTS)('sender rules and the Screener on %s (Outlook)', (dialect) => {
  const t = withTestApp(dialect, () => microsoftSignInEnv(fake));

  const news = (address: string, subject: string, days: number): FakeMessageInput => {
    const at = ago(days);
    return {
      subject,
      from: { name: 'News', address },
      receivedDateTime: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      headers: [
        { name: 'From', value: `News <${address}>` },
        { name: 'Subject', value: subject },
        { name: 'Date', value: at.toUTCString() },
        { name: 'Message-ID', value: `<${randomBytes(6).toString('hex')}@mail.example>` },
        { name: 'List-Unsubscribe', value: `<mailto:leave@${address.split('@')[1]}>` },
      ],
    };
  };

  /** A user signed up with Microsoft whose Inbox holds `messages`, scanned. */
  async function connected(label: string, messages: FakeMessageInput[]) {
    const email = `${label}-${randomBytes(4).toString('hex')}@outlook.test`;
    const box = fake.addUser(email);
    for (const m of messages) box.addMessage('inbox', m);
    const { client } = await signUpAndScan(t.app, 'outlook', email, consentWithMicrosoft);
    // Another grant of the account, to look up folders as a mail client sees them.
    const graph = new GraphClient({
      refreshToken: box.issueRefreshToken(),
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      ...microsoftBaseUrls(fake.url),
    });
    /** The id of the top-level folder of that name, if there is one. */
    const folderId = async (displayName: string) => {
      const page = await graph.get<{ value: Array<{ id: string; displayName: string }> }>(
        '/me/mailFolders?$top=100&$select=id,displayName',
      );
      return page.value.find((f) => f.displayName === displayName)?.id;
    };
    /** Senders of a folder's mail, sorted. */
    const senders = (folder: string) =>
      box
        .sendersIn(folder)
        .map((a) => a.toLowerCase())
        .sort();
    /** Subjects of a folder's mail, sorted. */
    const subjects = (folder: string) =>
      box
        .messagesIn(folder)
        .map((m) => m.subject)
        .sort();
    const deliver = (...more: FakeMessageInput[]) => more.map((m) => box.addMessage('inbox', m));
    const check = async () => {
      const mailbox = await t.db
        .selectFrom('mailboxes')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox.id }, { key: `mailbox:${mailbox.id}` });
      await t.app.jobs.idle();
    };
    const row = (address: string) => rowOf(client, address);
    return { email, client, box, folderId, senders, subjects, deliver, check, row };
  }

  it('files a sender in a new folder with an Inbox rule for later mail, and undoes it', async () => {
    const u = await connected('folder', [
      news('deals@shop.example', 'A', 2),
      news('deals@shop.example', 'B', 1),
      news('other@shop.example', 'C', 1),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Newsletters' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      rule: {
        folder: 'Newsletters',
        folderName: 'Newsletters',
        keepNewest: null,
        expireAfterDays: null,
        expireAction: null,
      },
      applied: { moved: 2, trashed: 0, archived: 0 },
    });
    const folder = await u.folderId('Newsletters');
    expect(folder).toBeDefined();
    expect(u.subjects(folder!)).toEqual(['A', 'B']);
    expect(u.senders('inbox')).toEqual(['other@shop.example']);
    expect(u.box.rules()).toEqual([
      expect.objectContaining({
        isEnabled: true,
        conditions: { fromAddresses: [{ emailAddress: { address: 'deals@shop.example' } }] },
        actions: expect.objectContaining({ moveToFolder: folder }),
      }),
    ]);

    const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ restored: 2 });
    expect(u.subjects('inbox')).toEqual(['A', 'B', 'C']);
    expect(u.subjects(folder!)).toEqual([]);
    expect(u.box.rules()).toEqual([]);
    expect((await u.client.get('/sender-rules')).json().data).toEqual([]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(2);
  });

  it('counts mail the Inbox rule filed once, and puts it back too when the rule is removed', async () => {
    const u = await connected('later', [
      news('deals@shop.example', 'A', 2),
      news('deals@shop.example', 'B', 1),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals' } });
    const folder = await u.folderId('Deals');

    // The Inbox rule files the next message as it arrives; the check counts it once.
    u.deliver(news('deals@shop.example', 'C', 0));
    expect(u.subjects(folder!)).toEqual(['A', 'B', 'C']);
    expect(u.subjects('inbox')).toEqual([]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);

    // "Remove rule and put mail back" means all of the rule's mail, as on IMAP where the check filed it.
    const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
    expect(removed.json()).toEqual({ restored: 3 });
    expect(u.subjects('inbox')).toEqual(['A', 'B', 'C']);
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
  });

  it('at a check, trashes what a keepNewest leaves once the Inbox rule filed new mail', async () => {
    const u = await connected('keepfolder', [
      news('deals@shop.example', 'A', 3),
      news('deals@shop.example', 'B', 2),
    ]);
    const id = (await u.row('deals@shop.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals', keepNewest: 2 } });
    expect(put.json().applied).toEqual({ moved: 2, trashed: 0, archived: 0 });
    const folder = (await u.folderId('Deals'))!;

    u.deliver(news('deals@shop.example', 'C', 0));
    await u.check();
    // C filed by the Inbox rule, then the oldest (A) trashed: two kept in Deals.
    expect([u.subjects('inbox'), u.subjects(folder), u.subjects('deleteditems')]).toEqual([
      [],
      ['B', 'C'],
      ['A'],
    ]);
    await u.check();
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);

    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).statusCode).toBe(200);
    expect(u.subjects('inbox')).toEqual(expect.arrayContaining(['A', 'B']));
    expect(u.subjects('deleteditems')).toEqual([]);
  });

  it('keeps only the newest N, and undo takes the rest out of Deleted Items', async () => {
    const u = await connected(
      'keep',
      [1, 2, 3, 4, 5].map((d) => news('daily@paper.example', `Day ${d}`, d)),
    );
    const id = (await u.row('daily@paper.example')).id;
    const put = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 2 } });
    expect(put.json().applied).toEqual({ moved: 0, trashed: 3, archived: 0 });
    expect(u.subjects('inbox')).toEqual(['Day 1', 'Day 2']);
    expect(u.subjects('deleteditems')).toEqual(['Day 3', 'Day 4', 'Day 5']);
    expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 3 });
    expect(u.subjects('inbox')).toHaveLength(5);
    expect(u.subjects('deleteditems')).toEqual([]);
  });

  it('archives, or trashes, what is older than N days, and undo brings it back to the Inbox', async () => {
    const u = await connected('expire', [
      news('weekly@mag.example', 'Weekly old 1', 50),
      news('weekly@mag.example', 'Weekly old 2', 40),
      news('weekly@mag.example', 'Weekly recent', 10),
      news('monthly@mag.example', 'Monthly old', 60),
      news('monthly@mag.example', 'Monthly recent', 5),
    ]);
    const weeklyId = (await u.row('weekly@mag.example')).id;
    const archive = await u.client.put(`/sender-rules/${weeklyId}`, {
      rule: { expireAfterDays: 30, expireAction: 'archive' },
    });
    expect(archive.json().applied).toEqual({ moved: 0, trashed: 0, archived: 2 });
    expect(u.subjects('archive')).toEqual(['Weekly old 1', 'Weekly old 2']);

    const monthlyId = (await u.row('monthly@mag.example')).id;
    const trash = await u.client.put(`/sender-rules/${monthlyId}`, {
      rule: { expireAfterDays: 30, expireAction: 'trash' },
    });
    expect(trash.json().applied).toEqual({ moved: 0, trashed: 1, archived: 0 });
    expect(u.subjects('deleteditems')).toEqual(['Monthly old']);
    expect(u.subjects('inbox')).toEqual(['Monthly recent', 'Weekly recent']);

    expect((await u.client.delete(`/sender-rules/${weeklyId}?restore=true`)).json()).toEqual({ restored: 2 });
    expect((await u.client.delete(`/sender-rules/${monthlyId}?restore=true`)).json()).toEqual({
      restored: 1,
    });
    expect(u.subjects('inbox')).toHaveLength(5);
    expect([u.subjects('archive'), u.subjects('deleteditems')]).toEqual([[], []]);
  });

  it('screens a new list sender into Screener, gives its mail back on Keep, and all of it when off', async () => {
    const u = await connected('screener', [news('known@shop.example', 'A', 2)]);
    const on = await u.client.put('/screener', { email: u.email, enabled: true });
    expect(on.json()).toEqual({ enabled: true, restored: 0 });

    u.deliver(news('fresh@new.example', 'Hello', 0), news('fresh@new.example', 'Again', 0));
    const friend = { name: 'Friend', address: 'friend@mail.example' };
    u.deliver({
      subject: 'Lunch?',
      from: friend,
      receivedDateTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      headers: [{ name: 'From', value: 'Friend <friend@mail.example>' }],
    });
    await u.check();

    const row = await u.row('fresh@new.example');
    expect(row).toMatchObject({ category: 'uncategorized', screened: true, messageCount: 2 });
    expect((await u.row('known@shop.example')).screened).toBe(false);
    const screener = await u.folderId('Screener');
    expect(screener).toBeDefined();
    expect(u.subjects(screener!)).toEqual(['Again', 'Hello']);
    expect(u.senders('inbox')).toEqual(['friend@mail.example', 'known@shop.example']);

    const kept = await u.client.post('/keep-subscription', { subscriptionId: row.id });
    expect(kept.json()).toMatchObject({ category: 'kept', screened: false, restoredFromScreener: 2 });
    expect(u.subjects(screener!)).toEqual([]);
    expect(u.subjects('inbox')).toEqual(['A', 'Again', 'Hello', 'Lunch?']);
    await u.check();
    expect((await u.row('fresh@new.example')).messageCount).toBe(2);

    u.deliver(news('second@new.example', 'Three', 0));
    await u.check();
    expect((await u.row('second@new.example')).screened).toBe(true);
    expect(u.subjects(screener!)).toEqual(['Three']);
    const off = await u.client.put('/screener', { email: u.email, enabled: false });
    expect(off.json()).toEqual({ enabled: false, restored: 1 });
    expect(u.subjects(screener!)).toEqual([]);
    expect(u.subjects('inbox')).toContain('Three');
    expect((await u.row('second@new.example')).screened).toBe(false);
  });
});
