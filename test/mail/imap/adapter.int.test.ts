import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { ImapFlow } from 'imapflow';
import { afterEach, describe, expect, it } from 'vitest';
import { terminateScanThread } from '#server/mail/imap/scan-thread.js';
import {
  type HeaderBatch,
  MailConnectionError,
  type MailProvider,
  type MessageHeaders,
  SCAN_HEADER_FIELDS,
  type SyncState,
} from '#server/mail/provider.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { startImapProxy } from '#test/helpers/imap-proxy.js';
import { type ImapTestUser, newImapUser } from '#test/helpers/imap-user.js';

// The IMAP adapter against a real Dovecot (docs/decisions/009-vitest-for-every-tier.md): one server for the file, one user per test. Logins
// that fail live in test/mail/imap/verify.int.test.ts: Dovecot slows every later login from the same address.

const dovecot = withDovecot();
const providers: MailProvider[] = [];
const servers: Server[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => closeServer(s)));
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const CAFE = 'Newsletters/Café';
const GROESSE = 'Rechnungen/Größe';

const newUser = (label: string) => newImapUser(dovecot, label, providers);

interface MessageSpec {
  from: string;
  subject: string;
  date?: string;
  messageId?: string;
  listUnsubscribe?: string;
  listUnsubscribePost?: string;
  listId?: string;
  precedence?: string;
}

function message(spec: MessageSpec): string {
  const lines = [
    `From: ${spec.from}`,
    'To: reader@example.com',
    `Subject: ${spec.subject}`,
    ...(spec.date ? [`Date: ${spec.date}`] : []),
    ...(spec.messageId ? [`Message-ID: ${spec.messageId}`] : []),
    ...(spec.listUnsubscribe ? [`List-Unsubscribe: ${spec.listUnsubscribe}`] : []),
    ...(spec.listUnsubscribePost ? [`List-Unsubscribe-Post: ${spec.listUnsubscribePost}`] : []),
    ...(spec.listId ? [`List-Id: ${spec.listId}`] : []),
    ...(spec.precedence ? [`Precedence: ${spec.precedence}`] : []),
    'X-Body-Marker: not-requested',
    'Content-Type: text/plain; charset=utf-8',
  ];
  return `${lines.join('\r\n')}\r\n\r\nHello, this body must never be fetched.\r\n`;
}

/** A plain message whose subject says where it went, to check ids against content. */
function simple(folder: string, n: number, day = n): string {
  const dd = String((day % 28) + 1).padStart(2, '0');
  return message({
    from: `Sender ${n} <s${n}@news.example>`,
    subject: `${folder} #${n}`,
    date: `Tue, ${dd} Jul 2025 10:00:00 +0000`,
    messageId: `<${folder.replace(/\W/g, '')}-${n}@news.example>`,
  });
}

async function collect(batches: AsyncIterable<HeaderBatch>): Promise<HeaderBatch[]> {
  const out: HeaderBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

const all = (batches: HeaderBatch[]): MessageHeaders[] => batches.flatMap((b) => b.messages);
const uidOf = (m: MessageHeaders) => Number(m.id.split('/').at(-1));

function expectUnique(messages: MessageHeaders[]) {
  expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
}

/** Within each folder, UIDs strictly descending across the whole sequence of batches. */
function expectNewestFirst(messages: MessageHeaders[]) {
  const last = new Map<string, number>();
  for (const m of messages) {
    const uid = uidOf(m);
    const prev = last.get(m.folder);
    if (prev !== undefined) expect(uid).toBeLessThan(prev);
    last.set(m.folder, uid);
  }
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as { port: number }).port;
}

/** Forwards to Dovecot and cuts both sides once `limit` bytes have come back from the server. */
async function cuttingProxy(limit: number): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(dovecot.port, dovecot.host);
    sockets.add(client).add(upstream);
    let passed = 0;
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const room = limit - passed;
      passed += chunk.length;
      if (room > chunk.length) {
        client.write(chunk);
        return;
      }
      // Mid-response, as a dying server or a NAT timeout would leave it.
      client.write(chunk.subarray(0, Math.max(0, room)));
      client.destroy();
      upstream.destroy();
    });
  });
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  return listen(server);
}

describe('listFolders', () => {
  it('lists every selectable folder, marking the ones a scan skips', async () => {
    const u = await newUser('folders');
    await u.deliver('INBOX', simple('INBOX', 1));
    await u.deliver(CAFE, simple(CAFE, 1));
    const folders = await u.provider().listFolders();
    const byPath = Object.fromEntries(folders.map((f) => [f.path, f]));
    expect(folders[0]?.path).toBe('INBOX');
    expect(byPath.INBOX?.scanned).toBe(true);
    expect(byPath[CAFE]).toEqual({ path: CAFE, name: 'Café', specialUse: null, scanned: true });
    for (const [path, use] of [
      ['Trash', '\\Trash'],
      ['Junk', '\\Junk'],
      ['Sent', '\\Sent'],
      ['Drafts', '\\Drafts'],
    ]) {
      expect(byPath[path as string]).toMatchObject({ specialUse: use, scanned: false });
    }
    // "Newsletters" exists only as the parent of Café on disk: \Noselect, so not listed.
    expect(byPath.Newsletters).toBeUndefined();
  });
});

describe('scan', () => {
  it('reads every message of the scanned folders once, newest first, with the fields detection needs', async () => {
    const u = await newUser('scan');
    for (let n = 1; n <= 5; n++) await u.deliver('INBOX', simple('INBOX', n));
    await u.deliver(
      'INBOX',
      message({
        from: '"Daily =?UTF-8?Q?Caf=C3=A9?=" <daily@cafe.example>',
        subject: '=?UTF-8?B?V2Vla2x5IG5ld3Mg4oCTIMOcYmVyc2ljaHQ=?=',
        date: 'Wed, 02 Jul 2025 08:30:00 +0200',
        messageId: '<weekly-1@cafe.example>',
        listUnsubscribe: '<mailto:leave@cafe.example?subject=unsub>,\r\n <https://cafe.example/u/abc>',
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
        listId: 'Cafe weekly <weekly.cafe.example>',
        precedence: 'bulk',
      }),
    );
    for (let n = 1; n <= 3; n++) await u.deliver(CAFE, simple(CAFE, n));
    for (let n = 1; n <= 2; n++) await u.deliver(GROESSE, simple(GROESSE, n));
    // No Date header: the server's arrival time stands in.
    await u.deliver(GROESSE, 'From: nodate@example.com\r\nSubject: undated\r\n\r\nx\r\n');
    for (const skipped of ['Trash', 'Junk', 'Sent', 'Drafts']) await u.deliver(skipped, simple(skipped, 1));

    const before = Date.now();
    const batches = await collect(u.provider({ batchSize: 2 }).scan(null));
    const messages = all(batches);

    expect(messages).toHaveLength(12);
    expectUnique(messages);
    expectNewestFirst(messages);
    expect(batches.every((b) => b.messages.length <= 2 && b.messages.length > 0)).toBe(true);
    // INBOX first, then each folder in one stretch.
    const order = messages.map((m) => m.folder).filter((f, i, a) => a[i - 1] !== f);
    expect(order).toEqual(['INBOX', CAFE, GROESSE]);
    // Dovecot numbers files dropped into maildir in its own order, so "newest" is the UID order checked
    // above, and the subjects are compared as sets.
    const subjects = (folder: string) =>
      messages
        .filter((m) => m.folder === folder)
        .map((m) => m.fields.subject)
        .sort();
    expect(subjects('INBOX')).toEqual([
      'INBOX #1',
      'INBOX #2',
      'INBOX #3',
      'INBOX #4',
      'INBOX #5',
      'Weekly news – Übersicht',
    ]);
    expect(subjects(CAFE)).toEqual([`${CAFE} #1`, `${CAFE} #2`, `${CAFE} #3`]);
    expect(subjects(GROESSE)).toEqual([`${GROESSE} #1`, `${GROESSE} #2`, 'undated']);
    for (const m of messages) {
      const id = /^(.+)\/(\d+)\/(\d+)$/.exec(m.id);
      expect(id?.[1]).toBe(m.folder);
      expect(Number(id?.[3])).toBeGreaterThan(0);
    }

    const weekly = messages.find((m) => m.fields.messageId === '<weekly-1@cafe.example>');
    expect(weekly).toBeDefined();
    expect(weekly!.fields).toEqual({
      from: '"Daily =?UTF-8?Q?Caf=C3=A9?=" <daily@cafe.example>',
      listUnsubscribe: ['<mailto:leave@cafe.example?subject=unsub>, <https://cafe.example/u/abc>'],
      listUnsubscribePost: ['List-Unsubscribe=One-Click'],
      listId: 'Cafe weekly <weekly.cafe.example>',
      precedence: 'bulk',
      listPost: null,
      subject: 'Weekly news – Übersicht',
      date: 'Wed, 02 Jul 2025 08:30:00 +0200',
      messageId: '<weekly-1@cafe.example>',
    });
    expect(weekly!.date).toBe(Date.UTC(2025, 6, 2, 6, 30));
    expect(weekly!.folder).toBe('INBOX');

    const plain = messages.find((m) => m.fields.subject === `${GROESSE} #2`)!;
    expect(plain.fields).toMatchObject({
      from: 'Sender 2 <s2@news.example>',
      listUnsubscribe: [],
      listId: null,
    });
    const undated = messages.find((m) => m.fields.subject === 'undated')!;
    expect(undated.fields.date).toBeNull();
    expect(undated.date).toBeGreaterThanOrEqual(before - 60_000);
    expect(undated.date).toBeLessThanOrEqual(Date.now() + 60_000);

    // Only the requested fields came over the wire.
    expect(JSON.stringify(messages)).not.toContain('not-requested');
    expect(JSON.stringify(messages)).not.toContain('must never be fetched');

    let scanned = 0;
    for (const batch of batches) {
      scanned += batch.messages.length;
      expect(batch.progress.scanned).toBe(scanned);
    }
    expect(batches.every((b) => b.progress.total === 12)).toBe(true);
    const final = batches.at(-1)!.state as { folders: Record<string, { done: boolean }> };
    expect(Object.keys(final.folders).sort()).toEqual(['INBOX', CAFE, GROESSE].sort());
    expect(Object.values(final.folders).every((f) => f.done)).toBe(true);
  });

  it('yields nothing for an empty mailbox', async () => {
    const u = await newUser('empty');
    const provider = u.provider();
    expect(await collect(provider.scan(null))).toEqual([]);
    expect(await collect(provider.changesSince({}))).toEqual([]);
  });

  it('resumes from a stored state with exactly the messages not yet delivered', async () => {
    const u = await newUser('resume');
    for (let n = 1; n <= 7; n++) await u.deliver('INBOX', simple('INBOX', n));
    for (let n = 1; n <= 5; n++) await u.deliver(CAFE, simple(CAFE, n));
    const everything = all(await collect(u.provider({ batchSize: 3 }).scan(null)));
    expect(everything).toHaveLength(12);

    // Stop after each possible batch in turn, as a killed worker would, and resume with a new connection.
    for (const stopAfter of [1, 2, 3, 4]) {
      const first: HeaderBatch[] = [];
      for await (const batch of u.provider({ batchSize: 3 }).scan(null)) {
        first.push(batch);
        if (first.length === stopAfter) break;
      }
      const stored = JSON.parse(JSON.stringify(first.at(-1)!.state)) as SyncState;
      const rest = await collect(u.provider({ batchSize: 3 }).scan(stored));
      const combined = [...all(first), ...all(rest)];
      expectUnique(combined);
      expect(combined.map((m) => m.id)).toEqual(everything.map((m) => m.id));
      // Progress carries on from the stored count instead of restarting at 0.
      let scanned = all(first).length;
      for (const batch of rest) {
        scanned += batch.messages.length;
        expect(batch.progress.scanned).toBe(scanned);
      }
      expect(rest.every((b) => b.progress.total === 12)).toBe(true);
    }
  });

  it('fails a scan whose thread dies, and the next scan resumes on a new thread', async () => {
    const u = await newUser('thread');
    for (let n = 1; n <= 6; n++) await u.deliver('INBOX', simple('INBOX', n));
    const first: HeaderBatch[] = [];
    const scan = async () => {
      for await (const batch of u.provider({ batchSize: 2 }).scan(null)) {
        first.push(batch);
        // The thread ends under the scan, as an out-of-memory end or a crash would end it.
        if (first.length === 1) await terminateScanThread();
      }
    };
    await expect(scan()).rejects.toThrow(/scan's worker thread stopped/);
    // The first batch was handed over; its state is what a commit would have stored.
    expect(first.length).toBeGreaterThanOrEqual(1);
    const stored = JSON.parse(JSON.stringify(first[0]!.state)) as SyncState;
    const rest = all(await collect(u.provider({ batchSize: 2 }).scan(stored)));
    const combined = [...first[0]!.messages, ...rest];
    expectUnique(combined);
    expect(combined).toHaveLength(6);
  });

  it('starts a folder over when its UIDVALIDITY changed', async () => {
    const u = await newUser('validity');
    for (let n = 1; n <= 4; n++) await u.deliver('INBOX', simple('INBOX', n));
    const batches = await collect(u.provider({ batchSize: 3 }).scan(null));
    const state = structuredClone(batches[0]!.state) as { folders: Record<string, { uidValidity: string }> };
    state.folders.INBOX!.uidValidity = '1';
    const again = all(await collect(u.provider({ batchSize: 3 }).scan(state)));
    expect(again.map((m) => m.id)).toEqual(all(batches).map((m) => m.id));
  });

  it('fails with MailConnectionError when the server drops the connection mid-scan, and resumes after', async () => {
    const u = await newUser('drop');
    for (let n = 1; n <= 120; n++) await u.deliver('INBOX', simple('INBOX', n));
    const everything = all(await collect(u.provider({ batchSize: 10 }).scan(null)));
    expect(everything).toHaveLength(120);

    // Every connection through the proxy dies a few batches in; a caller retrying from its last stored state
    // with the same provider (which reconnects) must end up with every message exactly once.
    const port = await cuttingProxy(12_000);
    const provider = u.provider({ port, batchSize: 10 });
    const got: HeaderBatch[] = [];
    const errors: unknown[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      const from = got.at(-1)?.state ?? null;
      try {
        for await (const batch of provider.scan(from)) got.push(batch);
        break;
      } catch (err) {
        errors.push(err);
      }
    }
    expect(errors.length).toBeGreaterThan(1);
    for (const err of errors) {
      expect(err).toBeInstanceOf(MailConnectionError);
      expect((err as Error).message).toBe(`The connection to the mail server at 127.0.0.1:${port} was lost.`);
    }
    const combined = all(got);
    expectUnique(combined);
    expect(combined.map((m) => m.id)).toEqual(everything.map((m) => m.id));
  });
});

describe('changesSince', () => {
  it('yields exactly the messages delivered after a completed scan', async () => {
    const u = await newUser('changes');
    for (let n = 1; n <= 4; n++) await u.deliver('INBOX', simple('INBOX', n));
    for (let n = 1; n <= 2; n++) await u.deliver(GROESSE, simple(GROESSE, n));
    const scan = await collect(u.provider({ batchSize: 2 }).scan(null));
    const afterScan = JSON.parse(JSON.stringify(scan.at(-1)!.state)) as SyncState;

    expect(await collect(u.provider().changesSince(afterScan))).toEqual([]);

    await u.deliver('INBOX', simple('INBOX', 5));
    await u.deliver(
      'INBOX',
      message({
        from: 'New Letter <hello@new.example>',
        subject: 'First issue',
        date: 'Thu, 03 Jul 2025 09:00:00 +0000',
        listUnsubscribe: '<https://new.example/unsub>',
      }),
    );
    await u.deliver(GROESSE, simple(GROESSE, 3));
    await u.deliver('Trash', simple('Trash', 9));

    const changes = await collect(u.provider({ batchSize: 2 }).changesSince(afterScan));
    const fresh = all(changes);
    expect(fresh.map((m) => m.folder)).toEqual(['INBOX', 'INBOX', GROESSE]);
    expect(fresh.map((m) => m.fields.subject).sort()).toEqual(
      ['First issue', 'INBOX #5', `${GROESSE} #3`].sort(),
    );
    expectNewestFirst(fresh);
    expectUnique([...all(scan), ...fresh]);
    expect(fresh.find((m) => m.fields.subject === 'First issue')?.fields.listUnsubscribe).toEqual([
      '<https://new.example/unsub>',
    ]);
    expect(changes.at(-1)!.progress).toEqual({ scanned: 3, total: 3 });

    const next = changes.at(-1)!.state as { folders: Record<string, { uidNext: number; done: boolean }> };
    const before = afterScan as { folders: Record<string, { uidNext: number }> };
    expect(next.folders.INBOX!.uidNext).toBe(before.folders.INBOX!.uidNext + 2);
    expect(next.folders[GROESSE]!.uidNext).toBe(before.folders[GROESSE]!.uidNext + 1);
    expect(await collect(u.provider().changesSince(next))).toEqual([]);
  });

  it('reads a folder created after the scan in full, and finishes a daily check that was cut short', async () => {
    const u = await newUser('newfolder');
    for (let n = 1; n <= 3; n++) await u.deliver('INBOX', simple('INBOX', n));
    const scanState = (await collect(u.provider().scan(null))).at(-1)!.state;

    await u.deliver(CAFE, simple(CAFE, 1));
    await u.deliver(CAFE, simple(CAFE, 2));
    for (let n = 4; n <= 8; n++) await u.deliver('INBOX', simple('INBOX', n));

    // The check dies after its first batch; the next one must deliver the rest, nothing twice.
    const first: HeaderBatch[] = [];
    for await (const batch of u.provider({ batchSize: 2 }).changesSince(scanState)) {
      first.push(batch);
      break;
    }
    const rest = all(await collect(u.provider({ batchSize: 2 }).changesSince(first[0]!.state)));
    const fresh = [...all(first), ...rest];
    expectUnique(fresh);
    expect(fresh.map((m) => m.fields.subject).sort()).toEqual(
      [`${CAFE} #1`, `${CAFE} #2`, ...[4, 5, 6, 7, 8].map((n) => `INBOX #${n}`)].sort(),
    );
  });
});

describe('a server whose SELECT answer has no UIDNEXT (as Courier IMAP)', () => {
  it('scans every message and checks for new mail with UIDNEXT from STATUS or the highest UID', async () => {
    const u = await newUser('nouidnext');
    for (let n = 1; n <= 5; n++) await u.deliver('INBOX', simple('INBOX', n));
    for (let n = 1; n <= 3; n++) await u.deliver(CAFE, simple(CAFE, n));
    const proxy = await startImapProxy({ upstream: dovecot, stripUidNext: true });
    cleanups.push(proxy.close);
    const provider = u.provider({ port: proxy.port, batchSize: 2 });

    const scan = await collect(provider.scan(null));
    const scanned = all(scan);
    expect(scanned.map((m) => m.fields.subject).sort()).toEqual(
      [...[1, 2, 3, 4, 5].map((n) => `INBOX #${n}`), ...[1, 2, 3].map((n) => `${CAFE} #${n}`)].sort(),
    );
    expectUnique(scanned);
    expectNewestFirst(scanned);
    const state = scan.at(-1)!.state as { folders: Record<string, { uidNext: number; done: boolean }> };
    const highest = (folder: string) => Math.max(...scanned.filter((m) => m.folder === folder).map(uidOf));
    expect(state.folders.INBOX).toMatchObject({ uidNext: highest('INBOX') + 1, done: true });
    expect(state.folders[CAFE]).toMatchObject({ uidNext: highest(CAFE) + 1, done: true });

    expect(await collect(provider.changesSince(scan.at(-1)!.state))).toEqual([]);
    await u.deliver('INBOX', simple('INBOX', 6));
    await u.deliver(CAFE, simple(CAFE, 4));
    const check = await collect(provider.changesSince(scan.at(-1)!.state));
    expect(
      all(check)
        .map((m) => m.fields.subject)
        .sort(),
    ).toEqual(['INBOX #6', `${CAFE} #4`].sort());
    expectUnique([...scanned, ...all(check)]);
    expect(proxy.commands.filter((c) => c === 'SELECT' || c === 'EXAMINE').length).toBeGreaterThan(0);
  });
});

/** The floor: ImapFlow fetching the same header fields of every message, nothing else (best of 3). */
async function imapFlowAlone(u: ImapTestUser, folders: string[]): Promise<number> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user: u.user, pass: u.password },
    logger: false,
  });
  await client.connect();
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      let count = 0;
      for (const folder of folders) {
        const lock = await client.getMailboxLock(folder, { readOnly: true });
        try {
          const query = { uid: true, headers: [...SCAN_HEADER_FIELDS], internalDate: true };
          for await (const msg of client.fetch('1:*', query, { uid: true })) if (msg.headers) count++;
        } finally {
          lock.release();
        }
      }
      best = Math.min(best, performance.now() - start);
      expect(count).toBe(5000);
    }
  } finally {
    await client.logout();
  }
  return best;
}

describe('throughput', () => {
  it('scans 5,000 delivered messages', { timeout: 120_000 }, async () => {
    const u = await newUser('bulk');
    const t0 = performance.now();
    const folders = ['INBOX', 'INBOX', 'INBOX', CAFE, 'Archive'];
    for (let n = 1; n <= 5000; n++) {
      const folder = folders[n % folders.length]!;
      await u.deliver(
        folder,
        message({
          from: `Sender ${n % 400} <news${n % 400}@sender${n % 400}.example>`,
          subject: `Issue ${n}`,
          date: 'Tue, 01 Jul 2025 10:00:00 +0000',
          messageId: `<m${n}@bulk.example>`,
          listUnsubscribe: `<mailto:u${n % 400}@sender.example>, <https://sender.example/u/${n}>`,
          listUnsubscribePost: 'List-Unsubscribe=One-Click',
          listId: `<list${n % 400}.sender.example>`,
        }),
      );
    }
    const delivered = performance.now();
    const provider = u.provider();
    // The first SELECT of a folder indexes its new maildir files; time that apart from the scans compared.
    const coldCount = all(await collect(provider.scan(null))).length;
    const indexed = performance.now();
    expect(coldCount).toBe(5000);

    const floor = await imapFlowAlone(u, ['INBOX', CAFE, 'Archive']);
    let best = Number.POSITIVE_INFINITY;
    let batchCount = 0;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const batches = await collect(provider.scan(null));
      best = Math.min(best, performance.now() - start);
      expect(all(batches)).toHaveLength(5000);
      batchCount = batches.length;
    }
    const rate = (ms: number) => Math.round(5000 / (ms / 1000));
    process.stdout.write(
      `[imap throughput] deliver 5000: ${Math.round(delivered - t0)} ms; first scan incl. Dovecot indexing: ` +
        `${Math.round(indexed - delivered)} ms; warm scan (best of 3): ${Math.round(best)} ms = ${rate(best)} msg/s ` +
        `in ${batchCount} batches; ImapFlow alone, same fields: ${Math.round(floor)} ms = ${rate(floor)} msg/s; ` +
        `ratio ${(best / floor).toFixed(2)}\n`,
    );
  });
});
