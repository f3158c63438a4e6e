import { randomBytes } from 'node:crypto';
import { ImapFlow, type Logger } from 'imapflow';
import { afterEach, describe, expect, it } from 'vitest';
import { createGmailProvider } from '#server/mail/gmail/adapter.js';
import { GmailClient } from '#server/mail/gmail/client.js';
import { syncMailbox } from '#server/mail/imap/scan.js';
import { emptyState } from '#server/mail/imap/state.js';
import { parseUidSet } from '#server/mail/imap/uid-set.js';
import type { HeaderBatch, MailProvider, ReadStateChange, SyncState } from '#server/mail/provider.js';
import { withTestApp } from '#test/fixtures/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import {
  consentOnGoogleEmulator,
  type MessageSpec,
  startGoogleEmulator,
} from '#test/helpers/google-emulator.js';
import { type FakeMessageInput, startGraphFake } from '#test/helpers/graph-fake.js';
import { newGraphMailbox } from '#test/helpers/graph-user.js';
import { newImapUser } from '#test/helpers/imap-user.js';
import { rawMessage } from '#test/helpers/mail.js';
import { consentOnGraphFake } from '#test/helpers/microsoft-consent.js';

// What each sender costs (read rates, messages a month, the list a poster came through): the read state
// a scan captures and the flag changes the daily check picks up, on each provider's real peer (Dovecot,
// @emulators/google, the Graph fake). First at the adapters (what each one asks of the server: flags, never
// the headers again), then end to end through the product on SQLite and PostgreSQL: a message read in the
// mail client changes the sender's rate at the next check.

const PUBLIC_URL = 'http://127.0.0.1:9';

const { dovecot, emu, fake } = peersForThisFile({
  dovecot: () => startDovecot(),
  emu: () => startGoogleEmulator(),
  fake: () => startGraphFake({ redirectUris: [`${PUBLIC_URL}/auth/outlook/callback`] }),
});
const opened: MailProvider[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
const NEWS = 'Daily News <news@daily.example>';
const UNSUB = '<https://daily.example/u/1>';

async function collect(batches: AsyncIterable<HeaderBatch>): Promise<HeaderBatch[]> {
  const out: HeaderBatch[] = [];
  for await (const b of batches) out.push(b);
  return out;
}
const lastState = (batches: HeaderBatch[]): SyncState => batches.at(-1)!.state;
const flagsOf = (batches: HeaderBatch[]): ReadStateChange[] => batches.flatMap((b) => b.flags ?? []);
const seenBySubject = (batches: HeaderBatch[]) =>
  Object.fromEntries(batches.flatMap((b) => b.messages).map((m) => [m.fields.subject, m.seen]));

/** ImapFlow's log of the commands it sends (debug entries from the client side). */
function commandLog(): { logger: Logger; commands: string[] } {
  const commands: string[] = [];
  const entry = (obj: unknown) => {
    const e = obj as { src?: string; msg?: string };
    if (e?.src === 'c' && typeof e.msg === 'string') commands.push(e.msg);
  };
  return { logger: { debug: entry, info: entry, warn: () => {}, error: () => {} }, commands };
}

/**
 * What the user does in their mail client to the INBOX messages with this subject: reads them (sets
 * \Seen) or deletes them for good.
 */
async function actInMailClient(
  user: string,
  password: string,
  subject: string,
  act: 'read' | 'expunge',
): Promise<void> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  await client.connect();
  const lock = await client.getMailboxLock('INBOX');
  try {
    const uids = await client.search({ subject }, { uid: true });
    expect(uids).not.toEqual([]);
    if (act === 'read') await client.messageFlagsAdd(uids || [], ['\\Seen'], { uid: true });
    else await client.messageDelete(uids || [], { uid: true });
  } finally {
    lock.release();
    await client.logout();
  }
}

const markSeenImap = (user: string, password: string, subject: string) =>
  actInMailClient(user, password, subject, 'read');
const expungeImap = (user: string, password: string, subject: string) =>
  actInMailClient(user, password, subject, 'expunge');

describe('read states at the adapters', () => {
  it('IMAP with CONDSTORE: the scan reads \\Seen with the headers, the check only the flags changed since', async () => {
    const user = await newImapUser(dovecot, 'condstore', opened);
    await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject: 'One', date: ago(3) }), 'S');
    await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject: 'Two', date: ago(2) }));
    await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject: 'Three', date: ago(1) }));
    const scanned = await collect(user.provider().scan(null));
    expect(seenBySubject(scanned)).toEqual({ One: true, Two: false, Three: false });
    const twoId = scanned.flatMap((b) => b.messages).find((m) => m.fields.subject === 'Two')!.id;

    // Nothing changed: the check reads nothing and hands out nothing.
    const quiet = commandLog();
    expect(await collect(user.provider({ logger: quiet.logger }).changesSince(lastState(scanned)))).toEqual(
      [],
    );
    expect(quiet.commands.filter((c) => c.includes('FETCH'))).toEqual([]);

    await markSeenImap(user.user, user.password, 'Two');
    const { logger, commands } = commandLog();
    const checked = await collect(user.provider({ logger }).changesSince(lastState(scanned)));
    expect(flagsOf(checked)).toEqual([{ id: twoId, seen: true }]);
    expect(checked.flatMap((b) => b.messages)).toEqual([]);
    const fetches = commands.filter((c) => c.includes('FETCH'));
    expect(fetches).toHaveLength(1);
    expect(fetches[0]).toMatch(/UID FETCH 1:3 \(UID FLAGS( MODSEQ)?\) \(CHANGEDSINCE \d+\)/);
    expect(fetches[0]).not.toContain('HEADER');

    // The stored modseq moved on: the next check has nothing to report again.
    expect(await collect(user.provider().changesSince(lastState(checked)))).toEqual([]);

    // A new UIDVALIDITY: no flags for ids that no longer mean anything; the folder is read afresh, each
    // message with its read state.
    const renumbered = structuredClone(lastState(checked)) as {
      folders: Record<string, { uidValidity: string }>;
    };
    renumbered.folders.INBOX!.uidValidity = '1';
    const reread = await collect(user.provider().changesSince(renumbered));
    expect(flagsOf(reread)).toEqual([]);
    expect(seenBySubject(reread)).toEqual({ One: true, Two: true, Three: false });

    // A message read and new mail in the same folder at one check: one batch, committed together.
    const threeId = scanned.flatMap((b) => b.messages).find((m) => m.fields.subject === 'Three')!.id;
    await markSeenImap(user.user, user.password, 'Three');
    await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject: 'Four', date: ago(0) }));
    const both = await collect(user.provider().changesSince(lastState(checked)));
    expect(both).toHaveLength(1);
    expect(flagsOf(both)).toEqual([{ id: threeId, seen: true }]);
    expect(seenBySubject(both)).toEqual({ Four: false });

    // New mail no wider than a batch is fetched whole, without asking first which of its UIDs exist (UID
    // SEARCH); one expunged meanwhile is simply not answered. Wider than a batch, the UIDs are searched
    // for and cut into batches as before.
    for (const subject of ['Five', 'Gone', 'Six'])
      await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject, date: ago(0) }));
    await expungeImap(user.user, user.password, 'Gone');
    const small = commandLog();
    const fresh = await collect(user.provider({ logger: small.logger }).changesSince(lastState(both)));
    expect(seenBySubject(fresh)).toEqual({ Five: false, Six: false });
    expect(small.commands.filter((c) => c.includes('SEARCH'))).toEqual([]);
    expect(small.commands.filter((c) => / UID FETCH \d+:\d+ .*HEADER/.test(c))).toHaveLength(1);
    const wide = commandLog();
    const batched = await collect(
      user.provider({ logger: wide.logger, batchSize: 1 }).changesSince(lastState(both)),
    );
    // One message per batch, highest UID first (the maildir's new mail gets its UIDs in no set order).
    expect(batched.map((b) => b.messages.length)).toEqual([1, 1]);
    const uids = batched.map((b) => Number(b.messages[0]!.id.split('/').at(-1)));
    expect(uids[0]).toBeGreaterThan(uids[1]!);
    expect(batched.map((b) => b.messages[0]!.fields.subject).sort()).toEqual(['Five', 'Six']);
    expect(wide.commands.filter((c) => c.includes('UID SEARCH'))).toHaveLength(1);
  });

  it('IMAP without CONDSTORE: the check fetches the flags of the known messages only', async () => {
    const user = await newImapUser(dovecot, 'nocondstore', opened);
    for (const [subject, days] of [
      ['Kept 1', 4],
      ['Other', 3],
      ['Kept 2', 2],
    ] as const) {
      await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject, date: ago(days) }));
    }
    const { logger, commands } = commandLog();
    // A server that does not enable CONDSTORE (ImapFlow asks for it only when told to enable extensions).
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: user.user, pass: user.password },
      logger,
      disableAutoEnable: true,
    });
    await client.connect();
    try {
      expect(client.enabled.has('CONDSTORE')).toBe(false);
      const state = emptyState();
      const scanned = await collect(syncMailbox({ client, mode: 'scan', state, batchSize: 100 }));
      expect(seenBySubject(scanned)).toEqual({ 'Kept 1': false, Other: false, 'Kept 2': false });
      expect(state.folders.INBOX?.modseq).toBeNull();
      const ids = Object.fromEntries(scanned.flatMap((b) => b.messages).map((m) => [m.fields.subject, m.id]));

      await markSeenImap(user.user, user.password, 'Kept 2');
      await markSeenImap(user.user, user.password, 'Other');
      commands.length = 0;
      const known = [ids['Kept 1']!, ids['Kept 2']!];
      const checked = await collect(
        syncMailbox({ client, mode: 'changes', state, batchSize: 100, knownMessages: async () => known }),
      );
      // The known messages' states as they are now (Other is not a reference the product keeps).
      expect(new Map(flagsOf(checked).map((f) => [f.id, f.seen]))).toEqual(
        new Map([
          [ids['Kept 1'], false],
          [ids['Kept 2'], true],
        ]),
      );
      expect(flagsOf(checked)).toHaveLength(2);
      const fetches = commands.filter((c) => c.includes('FETCH'));
      // One flags-only fetch naming exactly the known UIDs (maildir delivery does not fix their order).
      expect(fetches).toHaveLength(1);
      const set = /^\w+ UID FETCH ([\d:,]+) \(UID FLAGS\)$/.exec(fetches[0]!)?.[1] ?? '';
      const uids = parseUidSet(set).flatMap((r) => Array.from({ length: r.count }, (_, i) => r.lo + i));
      expect(uids).toEqual(known.map((id) => Number(id.split('/').at(-1))).sort((a, b) => a - b));
    } finally {
      // A connection that failed in the test is closed without LOGOUT, so its error is the one reported.
      if (client.usable) await client.logout();
      else client.close();
    }
  });

  it('IMAP: the check, on the scan thread, asks this thread for the known messages when it needs them', async () => {
    const user = await newImapUser(dovecot, 'known', opened);
    for (const [subject, days] of [
      ['Kept', 3],
      ['Other', 2],
    ] as const) {
      await dovecot.deliver(user.user, 'INBOX', rawMessage({ from: NEWS, subject, date: ago(days) }));
    }
    const scanned = await collect(user.provider().scan(null));
    const kept = scanned.flatMap((b) => b.messages).find((m) => m.fields.subject === 'Kept')!.id;
    // A folder scanned before read states were kept: no modseq to ask CHANGEDSINCE of.
    const before = structuredClone(lastState(scanned)) as SyncState & {
      folders: Record<string, { modseq: string | null }>;
    };
    before.folders.INBOX!.modseq = null;
    await markSeenImap(user.user, user.password, 'Kept');

    let asked = 0;
    const knownMessages = async () => {
      asked++;
      return [kept];
    };
    const { logger, commands } = commandLog();
    const checked = await collect(user.provider({ logger }).changesSince(before, { knownMessages }));
    expect(asked).toBe(1);
    expect(flagsOf(checked)).toEqual([{ id: kept, seen: true }]);
    const uid = kept.split('/').at(-1);
    expect(commands.filter((c) => c.includes('FETCH'))).toEqual([
      expect.stringMatching(new RegExp(` UID FETCH ${uid} \\(UID FLAGS( MODSEQ)?\\)$`)),
    ]);

    // The database failing to answer fails the check with its reason; the thread serves the next one.
    const failing = async (): Promise<string[]> => {
      throw new Error('database gone');
    };
    await expect(collect(user.provider().changesSince(before, { knownMessages: failing }))).rejects.toThrow(
      'database gone',
    );
    expect(flagsOf(await collect(user.provider().changesSince(before, { knownMessages })))).toEqual([
      { id: kept, seen: true },
    ]);
  });

  it('Gmail: the scan reads UNREAD from the metadata, the check the label changes from history', async () => {
    const email = `labels-${randomBytes(4).toString('hex')}@gmail.test`;
    const { refreshToken } = await emu.addUser(email);
    const spec = (subject: string, days: number, labels: string[]): MessageSpec => ({
      from: NEWS,
      subject,
      date: ago(days),
      // Discovery finds newsletters by search: the word in the body, as in real mail.
      body: 'Unsubscribe: https://daily.example/u/1',
      listUnsubscribe: UNSUB,
      labels,
    });
    const [one, two, three] = emu.insert(email, [
      spec('One', 3, ['INBOX']),
      spec('Two', 2, ['INBOX', 'UNREAD']),
      spec('Three', 1, ['INBOX', 'UNREAD']),
    ]);
    const urls: string[] = [];
    const provider = createGmailProvider({
      email,
      refreshToken,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      baseUrl: emu.baseUrl,
      pace: false,
      // Metadata of the newest message only: the two others are counted from the sender's listing.
      discoveryChunk: 1,
      detailPerSender: 1,
      fetchImpl: (input, init) => {
        urls.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    const scanned = await collect(provider.scan(null));
    const messages = scanned.flatMap((b) => b.messages);
    expect(messages.filter((m) => m.fields.subject === null)).toHaveLength(2);
    // Fetched or only counted, each message has its read state (the counted ones from `is:unread`).
    expect(Object.fromEntries(messages.map((m) => [m.id, m.seen]))).toEqual({
      [one!.id]: true,
      [two!.id]: false,
      [three!.id]: false,
    });

    // The user reads Two and marks One unread again, in Gmail.
    const user = new GmailClient({
      refreshToken,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      baseUrl: emu.baseUrl,
      pace: false,
    });
    await user.batchModify([two!.id], [], ['UNREAD']);
    await user.batchModify([one!.id], ['UNREAD'], []);
    urls.length = 0;
    const checked = await collect(provider.changesSince(lastState(scanned)));
    expect(flagsOf(checked)).toEqual([
      { id: two!.id, seen: true },
      { id: one!.id, seen: false },
    ]);
    expect(checked.flatMap((b) => b.messages)).toEqual([]);
    const paths = urls.filter((u) => !u.includes('/token')).map((u) => new URL(u));
    expect(paths.map((u) => u.pathname)).toEqual(['/gmail/v1/users/me/history']);
    expect(paths[0]!.searchParams.getAll('historyTypes')).toEqual([
      'messageAdded',
      'labelAdded',
      'labelRemoved',
    ]);
  });

  it('Graph: the scan reads isRead, the check follows an updated-only delta of id and isRead', async () => {
    const mailbox = newGraphMailbox(fake, 'isread');
    const inbox = mailbox.box.wellKnown('inbox');
    const add = (subject: string, days: number, isRead: boolean) =>
      mailbox.box.addMessage(inbox, {
        subject,
        from: { name: 'Daily News', address: 'news@daily.example' },
        receivedDateTime: ago(days)
          .toISOString()
          .replace(/\.\d+Z$/, 'Z'),
        headers: [
          { name: 'From', value: NEWS },
          { name: 'Subject', value: subject },
          { name: 'List-Unsubscribe', value: UNSUB },
        ],
        isRead,
      } satisfies FakeMessageInput);
    const one = add('One', 3, true);
    const two = add('Two', 2, false);
    add('Three', 1, false);
    const provider = mailbox.provider();
    opened.push(provider);
    const scanned = await collect(provider.scan(null));
    expect(seenBySubject(scanned)).toEqual({ One: true, Two: false, Three: false });

    // The first check starts the folder's flags query: every message with its state as it is now.
    const first = await collect(provider.changesSince(lastState(scanned)));
    expect(new Set(flagsOf(first).map((f) => `${f.id}:${f.seen}`))).toContain(`${one}:true`);
    expect(first.flatMap((b) => b.messages)).toEqual([]);

    mailbox.box.markRead(two);
    const before = fake.requests.length;
    const checked = await collect(provider.changesSince(lastState(first)));
    expect(flagsOf(checked)).toEqual([{ id: two, seen: true }]);
    expect(checked.flatMap((b) => b.messages)).toEqual([]);
    const asked = fake.requests.slice(before).map((r) => decodeURIComponent(r.url));
    expect(asked.some((u) => u.includes('/messages/delta') && u.includes('$deltatoken'))).toBe(true);
    // Flags only: no message was fetched with its headers again.
    expect(asked.filter((u) => u.includes('internetMessageHeaders'))).toEqual([]);
  });
});

describe.each(DIALECTS)('read rates, messages a month and "via" end to end on %s', (dialect) => {
  const t = withTestApp(dialect, () => ({
    PUBLIC_URL,
    MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(),
    IMAP_ALLOWED_HOSTS: '127.0.0.1',
    GOOGLE_CLIENT_ID: emu.clientId,
    GOOGLE_CLIENT_SECRET: emu.clientSecret,
    GOOGLE_BASE_URL: emu.baseUrl,
    MICROSOFT_CLIENT_ID: fake.clientId,
    MICROSOFT_CLIENT_SECRET: fake.clientSecret,
    MICROSOFT_BASE_URL: fake.url,
  }));

  async function mailboxOf(email: string): Promise<string> {
    const row = await t.db
      .selectFrom('mailboxes')
      .select(['id', 'status', 'scan_complete'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', scan_complete: 1 });
    return row.id;
  }

  /** The daily check of a mailbox, as the scheduler queues it. */
  async function check(mailboxId: string): Promise<void> {
    await t.app.jobs.enqueue('scan-mailbox', { mailboxId }, { key: `mailbox:${mailboxId}` });
    await t.app.jobs.idle();
  }

  async function sender(mailboxId: string, address: string) {
    const row = await t.db
      .selectFrom('senders')
      .select(['read_count', 'read_known', 'read_rank', 'recent_count', 'via', 'is_subscription'])
      .where('mailbox_id', '=', mailboxId)
      .where('address', '=', address)
      .executeTakeFirstOrThrow();
    return {
      read: Number(row.read_count),
      known: Number(row.read_known),
      rank: Number(row.read_rank),
      recent: Number(row.recent_count),
      via: row.via,
      subscription: Number(row.is_subscription),
    };
  }

  it('IMAP (Yahoo on Dovecot): \\Seen at the scan, a message read in the mail client at the next check', async () => {
    const email = uniqueEmail('rates').replace('@example.com', '@yahoo.com');
    const password = 'app-password-1234';
    await dovecot.addUser({ user: email, password });
    const news = (subject: string, days: number) =>
      rawMessage({ from: NEWS, subject, date: ago(days), listUnsubscribe: UNSUB });
    await dovecot.deliver(email, 'INBOX', news('Old', 200), 'S');
    await dovecot.deliver(email, 'INBOX', news('Read', 20), 'S');
    await dovecot.deliver(email, 'INBOX', news('Unread A', 10));
    await dovecot.deliver(email, 'INBOX', news('Unread B', 5));
    // A poster to a discussion list, and an announcement list that takes no posts.
    const post = (from: string, subject: string, days: number, listPost: string) =>
      rawMessage({ from, subject, date: ago(days), listId: '<lkml.vger.kernel.org>' }).replace(
        'MIME-Version',
        `List-Post: ${listPost}\r\nMIME-Version`,
      );
    await dovecot.deliver(
      email,
      'INBOX',
      post('Linus <linus@kernel.example>', '[GIT PULL] 1', 8, '<mailto:linux-kernel@vger.kernel.org>'),
    );
    await dovecot.deliver(email, 'INBOX', post('Linus <linus@kernel.example>', '[GIT PULL] 2', 7, 'NO'));
    await dovecot.deliver(email, 'INBOX', post('Announce <announce@news.example>', 'Release', 6, 'NO'));

    const client = new Client(t.app);
    expect(
      (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
    ).toBe(200);
    expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
    const mailboxId = await mailboxOf(email);

    // 2 of 4 read; 3 of them in the last 90 days.
    expect(await sender(mailboxId, 'news@daily.example')).toEqual({
      read: 2,
      known: 4,
      rank: 500,
      recent: 3,
      via: null,
      subscription: 1,
    });
    // The newest List-Post with an address wins over a newer "NO"; a list without one has no "via".
    expect(await sender(mailboxId, 'linus@kernel.example')).toMatchObject({
      via: 'linux-kernel@vger.kernel.org',
    });
    expect(await sender(mailboxId, 'announce@news.example')).toMatchObject({ via: null });

    await markSeenImap(email, password, 'Unread A');
    await check(mailboxId);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({ read: 3, known: 4, rank: 750 });
    const seen = await t.db
      .selectFrom('messages')
      .select(['subject', 'seen'])
      .where('mailbox_id', '=', mailboxId)
      .where('subject', 'in', ['Unread A', 'Unread B'])
      .orderBy('subject')
      .execute();
    expect(seen.map((m) => [m.subject, Number(m.seen)])).toEqual([
      ['Unread A', 1],
      ['Unread B', 0],
    ]);
  });

  it('Gmail (emulator): UNREAD at the scan, its removal from history at the next check', async () => {
    const email = `rates-${randomBytes(4).toString('hex')}@gmail.test`;
    const { refreshToken } = await emu.addUser(email);
    const spec = (subject: string, days: number, unread: boolean): MessageSpec => ({
      from: NEWS,
      subject,
      date: ago(days),
      // Discovery finds newsletters by search: the word in the body, as in real mail.
      body: 'Unsubscribe: https://daily.example/u/1',
      listUnsubscribe: UNSUB,
      labels: unread ? ['INBOX', 'UNREAD'] : ['INBOX'],
    });
    const [, unreadA] = emu.insert(email, [
      spec('Read', 30, false),
      spec('Unread A', 20, true),
      spec('Unread B', 10, true),
      spec('Unread C', 100, true),
      // Beyond the newest five: counted from the sender's listings, read state from `is:unread`, no date.
      spec('Archive 1', 150, false),
      spec('Archive 2', 160, false),
      spec('Archive 3', 170, true),
    ]);
    const client = new Client(t.app);
    const start = await client.get('/auth/google?intent=signup');
    expect(start.statusCode).toBe(302);
    await client.get(
      await consentOnGoogleEmulator(
        emu,
        start.headers.location as string,
        email,
        `${PUBLIC_URL}/auth/google/callback`,
      ),
    );
    await t.app.jobs.idle();
    const mailboxId = await mailboxOf(email);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({
      read: 3,
      known: 7,
      rank: 428,
      recent: 3,
    });

    const user = new GmailClient({
      refreshToken,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      baseUrl: emu.baseUrl,
      pace: false,
    });
    await user.batchModify([unreadA!.id], [], ['UNREAD']);
    await check(mailboxId);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({ read: 4, known: 7, rank: 571 });
  });

  it('Outlook (Graph fake): isRead at the scan, a message read in Outlook at the next check', async () => {
    const email = `rates-${randomBytes(4).toString('hex')}@outlook.test`;
    const box = fake.addUser(email);
    const inbox = box.wellKnown('inbox');
    const add = (subject: string, days: number, isRead: boolean) =>
      box.addMessage(inbox, {
        subject,
        from: { name: 'Daily News', address: 'news@daily.example' },
        receivedDateTime: ago(days)
          .toISOString()
          .replace(/\.\d+Z$/, 'Z'),
        headers: [
          { name: 'From', value: NEWS },
          { name: 'Subject', value: subject },
          { name: 'Date', value: ago(days).toUTCString() },
          { name: 'List-Unsubscribe', value: UNSUB },
        ],
        isRead,
      });
    add('Read', 40, true);
    const unread = add('Unread', 2, false);
    const old = add('Old', 120, false);
    const client = new Client(t.app);
    const start = await client.get('/auth/outlook?intent=signup');
    expect(start.statusCode).toBe(302);
    await client.get(
      await consentOnGraphFake(
        start.headers.location as string,
        email,
        `${PUBLIC_URL}/auth/outlook/callback`,
      ),
    );
    await t.app.jobs.idle();
    const mailboxId = await mailboxOf(email);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({
      read: 1,
      known: 3,
      rank: 333,
      recent: 2,
    });

    // The first check starts the flags query; nothing changed yet.
    await check(mailboxId);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({ read: 1, known: 3, rank: 333 });
    box.markRead(unread);
    const before = fake.requests.length;
    await check(mailboxId);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({ read: 2, known: 3, rank: 666 });
    expect(
      fake.requests.slice(before).filter((r) => decodeURIComponent(r.url).includes('internetMessageHeaders')),
    ).toEqual([]);

    // Graph dropped the folder's sync state (410): the folder is read again, and the messages it hands out
    // again bring their current state to the references the product already has.
    box.markRead(old);
    fake.invalidateDeltaTokens(inbox);
    await check(mailboxId);
    expect(await sender(mailboxId, 'news@daily.example')).toMatchObject({ read: 3, known: 3, rank: 1000 });
  });
});
