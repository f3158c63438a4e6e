import { describe, expect, it } from 'vitest';
import { microsoftBaseUrls } from '#server/mail/graph/client.js';
import { detectSubscription } from '#server/mail/headers/detect.js';
import {
  type HeaderBatch,
  MailAuthError,
  MailConnectionError,
  type MessageHeaders,
  type SyncState,
} from '#server/mail/provider.js';
import { RetryLaterError } from '#server/mail/shared/retry.js';
import { withGraphFake } from '#test/fixtures/peers.js';
import type { FakeMessageInput } from '#test/helpers/graph-fake.js';
import { type GraphTestMailbox, newGraphMailbox } from '#test/helpers/graph-user.js';

// The Outlook adapter against a fake of Microsoft Graph and the identity platform written from their
// documentation (test/helpers/graph-fake.ts): one fake for the file, one mailbox per test.

const fake = withGraphFake();

interface TestMailbox extends GraphTestMailbox {
  inbox: string;
  junk: string;
}

function newMailbox(label: string): TestMailbox {
  const mailbox = newGraphMailbox(fake, label);
  return { ...mailbox, inbox: mailbox.box.wellKnown('inbox'), junk: mailbox.box.wellKnown('junkemail') };
}

/** Minute `n` of 1 July 2025: larger n, newer message. */
const at = (n: number) =>
  new Date(Date.UTC(2025, 6, 1, 8, 0) + n * 60_000).toISOString().replace('.000Z', 'Z');

function plain(label: string, n: number): FakeMessageInput {
  const address = `s${n}@news.example`;
  return {
    subject: `${label} #${n}`,
    from: { name: `Sender ${n}`, address },
    receivedDateTime: at(n),
    headers: [
      { name: 'Received', value: 'from mx.news.example by mail.protection.outlook.com' },
      { name: 'From', value: `Sender ${n} <${address}>` },
      { name: 'Subject', value: `${label} #${n}` },
      { name: 'Date', value: new Date(Date.parse(at(n)) - 5000).toUTCString() },
      { name: 'Message-ID', value: `<${label.replace(/\W/g, '')}-${n}@news.example>` },
    ],
  };
}

async function collect(batches: AsyncIterable<HeaderBatch>): Promise<HeaderBatch[]> {
  const out: HeaderBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

const all = (batches: HeaderBatch[]): MessageHeaders[] => batches.flatMap((b) => b.messages);
const ids = (messages: MessageHeaders[]) => messages.map((m) => m.id);
const sorted = (list: string[]) => [...list].sort();

function expectUnique(messages: MessageHeaders[]) {
  expect(new Set(ids(messages)).size).toBe(messages.length);
}

/** Within each folder, dates strictly descending across the whole sequence of batches. */
function expectNewestFirst(messages: MessageHeaders[]) {
  const last = new Map<string, number>();
  for (const m of messages) {
    const prev = last.get(m.folder);
    if (prev !== undefined) expect(m.date!).toBeLessThan(prev);
    last.set(m.folder, m.date!);
  }
}

/** Only a scan's last batch may come without messages (it carries the final checkpoint). */
function expectOnlyLastEmpty(batches: HeaderBatch[]) {
  expect(batches.slice(0, -1).every((b) => b.messages.length > 0)).toBe(true);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Requests listing one folder's messages (decoded path + query). */
const listingOf = (folderId: string) =>
  new RegExp(`^GET /v1\\.0/me/mailFolders/${escapeRegExp(folderId)}/messages\\?`);

const finalState = (batches: HeaderBatch[]) => JSON.parse(JSON.stringify(batches.at(-1)!.state)) as SyncState;

/** The fake's log of one mailbox's requests since a moment, by method and decoded path + query. */
function requestsFor(mailbox: TestMailbox, since: number, pattern: RegExp) {
  return fake.requests.filter(
    (r) =>
      r.userId === mailbox.box.id &&
      r.at >= since &&
      pattern.test(`${r.method} ${decodeURIComponent(r.url)}`),
  );
}

describe('verify', () => {
  it('gets a token from the refresh token and reads the Inbox', async () => {
    const m = newMailbox('verify');
    const since = Date.now();
    await expect(m.provider().verify()).resolves.toBeUndefined();
    expect(requestsFor(m, since, /^POST \/common\/oauth2\/v2\.0\/token$/).map((r) => r.status)).toEqual([
      200,
    ]);
    expect(requestsFor(m, since, /^GET \/v1\.0\/me\/mailFolders\/inbox/).map((r) => r.status)).toEqual([200]);
  });

  it('reports a revoked or unknown grant as MailAuthError', async () => {
    const m = newMailbox('revoked');
    m.box.revokeGrants();
    const revoked = m.provider().verify();
    await expect(revoked).rejects.toBeInstanceOf(MailAuthError);
    await expect(revoked).rejects.toThrow(/Connect the Outlook account again/);
    await expect(m.provider({ refreshToken: 'rt-never-issued' }).verify()).rejects.toBeInstanceOf(
      MailAuthError,
    );
  });

  it('reports a 401 that a fresh token does not cure as MailAuthError', async () => {
    const m = newMailbox('refused');
    m.box.refuseGraph(true);
    const since = Date.now();
    await expect(m.provider().verify()).rejects.toBeInstanceOf(MailAuthError);
    // Tried once more with a newly refreshed token before giving up.
    expect(requestsFor(m, since, /^GET \/v1\.0\/me\/mailFolders\/inbox/).map((r) => r.status)).toEqual([
      401, 401,
    ]);
    expect(requestsFor(m, since, /^POST .*\/token$/)).toHaveLength(2);
  });

  it('reports an account without a reachable mailbox as MailAuthError', async () => {
    const m = newMailbox('no-mailbox');
    m.box.removeMailbox();
    await expect(m.provider().verify()).rejects.toThrow(/no Outlook mailbox/);
    await expect(m.provider().verify()).rejects.toBeInstanceOf(MailAuthError);
  });

  it('does not blame the user for a wrong client secret', async () => {
    const m = newMailbox('client');
    const err = await m
      .provider({ clientSecret: 'wrong' })
      .verify()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(MailAuthError);
    expect((err as Error).message).toMatch(/invalid_client/);
  });

  it('reports a server that never answers as MailConnectionError within the timeout', async () => {
    const m = newMailbox('hang');
    fake.fault({ kind: 'hang', count: 1, match: /mailFolders\/inbox/ });
    const started = Date.now();
    await expect(m.provider({ timeoutMs: 400 }).verify()).rejects.toBeInstanceOf(MailConnectionError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an unreachable service as MailConnectionError', async () => {
    const m = newMailbox('unreachable');
    const provider = m.provider({ ...microsoftBaseUrls('http://127.0.0.1:9'), timeoutMs: 1000 });
    await expect(provider.verify()).rejects.toBeInstanceOf(MailConnectionError);
  });

  it('retries a 500 and gives up with MailConnectionError when it persists', async () => {
    const m = newMailbox('errors');
    fake.fault({ kind: 'error', count: 2, match: /mailFolders\/inbox/ });
    await expect(m.provider({ retry: { backoffMs: 20 } }).verify()).resolves.toBeUndefined();
    fake.fault({ kind: 'error', count: 3, match: /mailFolders\/inbox/ });
    await expect(m.provider({ retry: { backoffMs: 20, attempts: 3 } }).verify()).rejects.toBeInstanceOf(
      MailConnectionError,
    );
  });

  it('gives up at once with a retryable error when Graph asks for a longer wait than allowed', async () => {
    const m = newMailbox('patience');
    fake.fault({ kind: 'throttle', count: 1, retryAfter: 3600, match: /mailFolders\/inbox/ });
    const started = Date.now();
    const err = await m
      .provider()
      .verify()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toBeInstanceOf(MailConnectionError);
    expect((err as RetryLaterError).retryAfterMs).toBe(3_600_000);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('refresh tokens', () => {
  it('reports each rotated refresh token, and keeps working when the access token expires', async () => {
    const m = newMailbox('rotate');
    const reported: string[] = [];
    const provider = m.provider({ onRefreshToken: (t) => void reported.push(t) });
    await provider.verify();
    expect(reported).toHaveLength(1);
    expect(reported[0]).not.toBe(m.refreshToken);
    expect(m.box.refreshTokens()).toContain(reported[0]);

    // Graph answers 401 InvalidAuthenticationToken; the adapter refreshes (with the newest token) and goes on.
    fake.expireAccessTokens();
    await expect(provider.listFolders()).resolves.not.toHaveLength(0);
    expect(reported).toHaveLength(2);
    expect(reported[1]).not.toBe(reported[0]);

    // What the caller stored is enough for the next connection.
    await expect(m.provider({ refreshToken: reported[1]! }).verify()).resolves.toBeUndefined();
  });
});

describe('listFolders', () => {
  it('lists every folder with its children, marking the ones a scan skips', async () => {
    const m = newMailbox('folders');
    const news = m.box.addFolder('Newsletters', m.inbox);
    m.box.addFolder('Weekly', news);
    m.box.addFolder('Receipts');
    m.box.addFolder('Old stuff', 'deleteditems');
    m.box.addFolder('Hidden', undefined, { hidden: true });
    const folders = await m.provider().listFolders();
    const byPath = Object.fromEntries(folders.map((f) => [f.path, f]));

    expect(folders[0]).toEqual({ path: 'Inbox', name: 'Inbox', specialUse: '\\Inbox', scanned: true });
    expect(byPath['Inbox/Newsletters']).toEqual({
      path: 'Inbox/Newsletters',
      name: 'Newsletters',
      specialUse: null,
      scanned: true,
    });
    expect(byPath['Inbox/Newsletters/Weekly']?.scanned).toBe(true);
    expect(byPath.Receipts?.scanned).toBe(true);
    expect(byPath.Archive).toMatchObject({ specialUse: '\\Archive', scanned: true });
    for (const [path, use] of [
      ['Junk Email', '\\Junk'],
      ['Deleted Items', '\\Trash'],
      ['Sent Items', '\\Sent'],
      ['Drafts', '\\Drafts'],
      ['Outbox', null],
      ['Conversation History', null],
      ['Sync Issues', null],
    ] as const) {
      expect(byPath[path]).toMatchObject({ specialUse: use, scanned: false });
    }
    // Below a skipped folder, everything is skipped.
    expect(byPath['Deleted Items/Old stuff']?.scanned).toBe(false);
    expect(byPath['Sync Issues/Conflicts']?.scanned).toBe(false);
    expect(byPath.Hidden).toBeUndefined();
  });
});

describe('scan', () => {
  it('reads every message of the scanned folders once, newest first, with List-Unsubscribe', async () => {
    const m = newMailbox('scan');
    const news = m.box.addFolder('Newsletters', m.inbox);
    for (let n = 1; n <= 4; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    const weeklyId = m.box.addMessage(m.inbox, {
      subject: 'Weekly news – Übersicht',
      from: { name: 'Daily Café', address: 'daily@cafe.example' },
      receivedDateTime: at(30),
      headers: [
        { name: 'From', value: '"Daily =?UTF-8?Q?Caf=C3=A9?=" <daily@cafe.example>' },
        { name: 'Subject', value: '=?UTF-8?B?V2Vla2x5IG5ld3Mg4oCTIMOcYmVyc2ljaHQ=?=' },
        { name: 'Date', value: 'Tue, 01 Jul 2025 10:29:00 +0200' },
        { name: 'Message-ID', value: '<weekly-1@cafe.example>' },
        // Graph hands values over with their folds still in them.
        {
          name: 'List-Unsubscribe',
          value: '<mailto:leave@cafe.example?subject=unsub>,\r\n <https://cafe.example/u/abc>',
        },
        { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
        { name: 'List-Id', value: 'Cafe weekly <weekly.cafe.example>' },
      ],
    });
    // Mail from inside the organisation can arrive without internet headers.
    const internalId = m.box.addMessage(m.inbox, {
      subject: 'Lunch?',
      from: { name: 'Colleague, Dear', address: 'colleague@contoso.example' },
      receivedDateTime: at(20),
      headers: null,
    });
    for (let n = 1; n <= 3; n++) m.box.addMessage(news, plain('Newsletters', n));
    for (let n = 1; n <= 2; n++) m.box.addMessage(m.junk, plain('Junk', n));
    m.box.addMessage('deleteditems', plain('Deleted', 1));

    const since = Date.now();
    const batches = await collect(m.provider({ pageSize: 2 }).scan(null));
    const messages = all(batches);

    expect(messages).toHaveLength(9);
    expectUnique(messages);
    expectNewestFirst(messages);
    expectOnlyLastEmpty(batches);
    expect(batches.every((b) => b.messages.length <= 2)).toBe(true);
    // Inbox first, then each folder in one stretch; Junk and Deleted Items never read.
    expect(messages.map((x) => x.folder).filter((f, i, a) => a[i - 1] !== f)).toEqual([
      'Inbox',
      'Inbox/Newsletters',
    ]);
    expect(sorted(ids(messages.filter((x) => x.folder === 'Inbox')))).toEqual(
      sorted(m.box.messagesIn(m.inbox).map((x) => x.id)),
    );
    expect(sorted(ids(messages.filter((x) => x.folder === 'Inbox/Newsletters')))).toEqual(
      sorted(m.box.messagesIn(news).map((x) => x.id)),
    );
    expect(messages.some((x) => /Junk|Deleted/.test(x.fields.subject ?? ''))).toBe(false);

    const weekly = messages.find((x) => x.id === weeklyId)!;
    expect(weekly.fields).toEqual({
      from: '"Daily =?UTF-8?Q?Caf=C3=A9?=" <daily@cafe.example>',
      listUnsubscribe: ['<mailto:leave@cafe.example?subject=unsub>, <https://cafe.example/u/abc>'],
      listUnsubscribePost: ['List-Unsubscribe=One-Click'],
      listId: 'Cafe weekly <weekly.cafe.example>',
      precedence: null,
      listPost: null,
      subject: 'Weekly news – Übersicht',
      date: 'Tue, 01 Jul 2025 10:29:00 +0200',
      messageId: '<weekly-1@cafe.example>',
    });
    expect(weekly.date).toBe(Date.UTC(2025, 6, 1, 8, 29));
    const detection = detectSubscription(weekly.fields);
    expect(detection).toMatchObject({
      isSubscription: true,
      oneClick: true,
      httpsUrls: ['https://cafe.example/u/abc'],
      mailto: ['mailto:leave@cafe.example?subject=unsub'],
      sender: { address: 'daily@cafe.example', name: 'Daily Café' },
    });

    // Without internet headers the message's own properties stand in.
    const internal = messages.find((x) => x.id === internalId)!;
    expect(internal.fields).toMatchObject({
      from: '"Colleague, Dear" <colleague@contoso.example>',
      subject: 'Lunch?',
    });
    expect(detectSubscription(internal.fields).sender).toEqual({
      address: 'colleague@contoso.example',
      name: 'Colleague, Dear',
    });
    expect(internal.date).toBe(Date.parse(at(20)));

    // Listing asked for exactly the fields needed, newest first.
    const listings = requestsFor(m, since, /^GET \/v1\.0\/me\/mailFolders\/[^/]+\/messages\?/);
    expect(listings.length).toBeGreaterThan(0);
    for (const r of listings) {
      const q = new URL(r.url, fake.url).searchParams;
      expect(q.get('$select')).toBe('id,receivedDateTime,subject,from,internetMessageHeaders,isRead');
      expect(q.get('$orderby')).toBe('receivedDateTime desc');
      expect(q.get('$top')).toBe('2');
    }

    let scanned = 0;
    for (const batch of batches) {
      scanned += batch.messages.length;
      expect(batch.progress.scanned).toBe(scanned);
      expect(batch.progress.total).toBe(9);
    }
    const state = finalState(batches) as { folders: Record<string, { done: boolean; deltaLink: string }> };
    // Every scanned folder has its delta link, the empty Archive included.
    expect(sorted(Object.keys(state.folders))).toEqual(sorted([m.inbox, news, m.box.wellKnown('archive')]));
    expect(
      Object.values(state.folders).every(
        (f) => f.done && new URL(f.deltaLink).searchParams.has('$deltatoken'),
      ),
    ).toBe(true);
  });

  it('follows @odata.nextLink across several pages', async () => {
    const m = newMailbox('paging');
    for (let n = 1; n <= 7; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    const since = Date.now();
    const batches = await collect(m.provider({ pageSize: 3 }).scan(null));
    expect(batches.map((b) => b.messages.length)).toEqual([3, 3, 1, 0]);
    expect(all(batches).map((x) => x.fields.subject)).toEqual(
      [7, 6, 5, 4, 3, 2, 1].map((n) => `Inbox #${n}`),
    );
    const listings = requestsFor(m, since, listingOf(m.inbox));
    expect(listings.map((r) => new URL(r.url, fake.url).searchParams.get('$skip'))).toEqual([null, '3', '6']);
  });

  it('yields nothing but its checkpoint for an empty mailbox', async () => {
    const m = newMailbox('empty');
    const provider = m.provider();
    const batches = await collect(provider.scan(null));
    expect(all(batches)).toEqual([]);
    const again = await collect(provider.changesSince(finalState(batches)));
    expect(all(again)).toEqual([]);
  });

  it('waits as long as a 429 Retry-After asks, then carries on', async () => {
    const m = newMailbox('throttle');
    for (let n = 1; n <= 4; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    fake.fault({ kind: 'throttle', count: 1, match: /\/messages\?.*%24skip=2/ });
    const since = Date.now();
    const batches = await collect(m.provider({ pageSize: 2 }).scan(null));
    expect(all(batches)).toHaveLength(4);
    const second = requestsFor(m, since, /\/messages\?.*\$skip=2/);
    expect(second.map((r) => r.status)).toEqual([429, 200]);
    expect(second[1]!.at - second[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('treats 503 with Retry-After the same way', async () => {
    const m = newMailbox('unavailable');
    m.box.addMessage(m.inbox, plain('Inbox', 1));
    fake.fault({ kind: 'unavailable', count: 1, match: /\/messages\?/ });
    const since = Date.now();
    expect(all(await collect(m.provider().scan(null)))).toHaveLength(1);
    expect(requestsFor(m, since, listingOf(m.inbox)).map((r) => r.status)).toEqual([503, 200]);
  });

  it('resumes from a stored state with exactly the messages not yet delivered', async () => {
    const m = newMailbox('resume');
    const news = m.box.addFolder('Newsletters', m.inbox);
    for (let n = 1; n <= 7; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    for (let n = 1; n <= 5; n++) m.box.addMessage(news, plain('Newsletters', n));
    const everything = all(await collect(m.provider({ pageSize: 3 }).scan(null)));
    expect(everything).toHaveLength(12);

    // Stop after each batch in turn, as a killed worker would, and resume with a new provider.
    for (const stopAfter of [1, 2, 3, 4, 5]) {
      const first: HeaderBatch[] = [];
      for await (const batch of m.provider({ pageSize: 3 }).scan(null)) {
        first.push(batch);
        if (first.length === stopAfter) break;
      }
      const rest = await collect(m.provider({ pageSize: 3 }).scan(finalState(first)));
      const combined = [...all(first), ...all(rest)];
      expectUnique(combined);
      expect(ids(combined)).toEqual(ids(everything));
      // Progress carries on from the stored count instead of restarting at 0.
      let scanned = all(first).length;
      for (const batch of rest) {
        scanned += batch.messages.length;
        expect(batch.progress.scanned).toBe(scanned);
        expect(batch.progress.total).toBe(12);
      }
      // The resumed scan ends in the same place: nothing new to report.
      expect(all(await collect(m.provider().changesSince(finalState(rest))))).toEqual([]);
    }
  });

  it('hands out mail that arrives during the scan once, neither missed nor repeated', async () => {
    const m = newMailbox('arrivals');
    for (let n = 1; n <= 5; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    const batches: HeaderBatch[] = [];
    let lateId = '';
    for await (const batch of m.provider({ pageSize: 2 }).scan(null)) {
      batches.push(batch);
      // Arrives at the top after the first page: Graph's $skip pages all move down by one.
      if (batches.length === 1) lateId = m.box.addMessage(m.inbox, plain('Inbox', 60));
    }
    const messages = all(batches);
    expectUnique(messages);
    expect(sorted(ids(messages))).toEqual(sorted(m.box.messagesIn(m.inbox).map((x) => x.id)));
    expect(messages.at(-1)?.id).toBe(lateId);
    expect(all(await collect(m.provider().changesSince(finalState(batches))))).toEqual([]);
  });

  it('goes on after the access token expires mid-scan', async () => {
    const m = newMailbox('expiry');
    for (let n = 1; n <= 4; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    const batches: HeaderBatch[] = [];
    for await (const batch of m.provider({ pageSize: 2 }).scan(null)) {
      batches.push(batch);
      if (batches.length === 1) fake.expireAccessTokens();
    }
    expect(all(batches)).toHaveLength(4);
  });

  it('stops with MailAuthError when the grant is revoked mid-scan', async () => {
    const m = newMailbox('revoked-mid');
    for (let n = 1; n <= 4; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    const seen: HeaderBatch[] = [];
    const run = (async () => {
      for await (const batch of m.provider({ pageSize: 2 }).scan(null)) {
        seen.push(batch);
        m.box.revokeGrants();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(MailAuthError);
    expect(all(seen)).toHaveLength(2);
  });
});

describe('changesSince', () => {
  async function scanned(m: TestMailbox, news: string) {
    for (let n = 1; n <= 3; n++) m.box.addMessage(m.inbox, plain('Inbox', n));
    for (let n = 1; n <= 2; n++) m.box.addMessage(news, plain('Newsletters', n));
    return finalState(await collect(m.provider({ pageSize: 2 }).scan(null)));
  }

  it('yields exactly the messages that arrived since the scan', async () => {
    const m = newMailbox('changes');
    const news = m.box.addFolder('Newsletters', m.inbox);
    const state = await scanned(m, news);
    const existing = m.box.messagesIn(m.inbox);

    const a = m.box.addMessage(m.inbox, plain('Inbox', 10));
    const b = m.box.addMessage(news, plain('Newsletters', 11));
    m.box.addMessage(m.junk, plain('Junk', 12));
    // Changes to mail already counted are not news.
    m.box.markRead(existing[0]!.id);
    m.box.deleteMessage(existing[1]!.id);

    const batches = await collect(m.provider().changesSince(state));
    const messages = all(batches);
    expect(sorted(ids(messages))).toEqual(sorted([a, b]));
    expect(messages.find((x) => x.id === a)).toMatchObject({
      folder: 'Inbox',
      fields: { subject: 'Inbox #10' },
    });
    expect(messages.find((x) => x.id === b)).toMatchObject({
      folder: 'Inbox/Newsletters',
      fields: { subject: 'Newsletters #11', from: 'Sender 11 <s11@news.example>' },
    });
    expect(batches.at(-1)!.progress).toEqual({ scanned: 2, total: 2 });

    // The state moved on: asked again, there is nothing new.
    const next = finalState(batches);
    expect(all(await collect(m.provider().changesSince(next)))).toEqual([]);
    // A message moved in from a skipped folder is new to the scanned one (and keeps its id).
    const junkMail = m.box.messagesIn(m.junk)[0]!.id;
    m.box.moveMessage(junkMail, m.inbox);
    expect(ids(all(await collect(m.provider().changesSince(next))))).toEqual([junkMail]);
  });

  it('reads a folder in full when Graph has lost its delta state (410 Gone)', async () => {
    const m = newMailbox('gone');
    const news = m.box.addFolder('Newsletters', m.inbox);
    const state = await scanned(m, news);
    const c = m.box.addMessage(m.inbox, plain('Inbox', 10));
    const d = m.box.addMessage(news, plain('Newsletters', 11));
    fake.invalidateDeltaTokens(m.inbox);

    const since = Date.now();
    const batches = await collect(m.provider().changesSince(state));
    expect(requestsFor(m, since, /\/messages\/delta\?\$deltatoken=/).map((r) => r.status)).toContain(410);
    const messages = all(batches);
    expectUnique(messages);
    // The whole Inbox again, the new message among it (same ids as before: the caller recognises them)…
    expect(sorted(ids(messages.filter((x) => x.folder === 'Inbox')))).toEqual(
      sorted(m.box.messagesIn(m.inbox).map((x) => x.id)),
    );
    expect(ids(messages)).toContain(c);
    // …and only what is new elsewhere.
    expect(ids(messages.filter((x) => x.folder === 'Inbox/Newsletters'))).toEqual([d]);

    // The rescan left a working delta link behind.
    const e = m.box.addMessage(m.inbox, plain('Inbox', 20));
    expect(ids(all(await collect(m.provider().changesSince(finalState(batches)))))).toEqual([e]);
  });

  it('scans a folder created after the first scan in full', async () => {
    const m = newMailbox('new-folder');
    const news = m.box.addFolder('Newsletters', m.inbox);
    const state = await scanned(m, news);
    const later = m.box.addFolder('Later');
    const f = m.box.addMessage(later, plain('Later', 1));
    const g = m.box.addMessage(later, plain('Later', 2));
    const messages = all(await collect(m.provider().changesSince(state)));
    expect(ids(messages)).toEqual([g, f]);
    expect(messages.every((x) => x.folder === 'Later')).toBe(true);
  });
});
