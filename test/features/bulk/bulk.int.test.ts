import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type BulkItemResult,
  type BulkStatus,
  type BulkSummary,
  bulkStartedSchema,
  bulkStatusSchema,
  type Subscription,
  subscriptionsResponseSchema,
} from '#contract/api.js';
import { buildApp } from '#server/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, type Dialect, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { startHttpsSender } from '#test/helpers/https-sender.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { freePort } from '#test/helpers/net.js';
import { killProduct, readSqlite, startProduct } from '#test/helpers/product-process.js';
import { parseAnswer } from '#test/helpers/routes.js';
import { type SmtpPeer, startSmtpPeer } from '#test/helpers/smtp-peer.js';
import { startStripeFake } from '#test/helpers/stripe-fake/index.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// Bulk actions end to end (POST /bulk-action, GET /bulk-action/:id, the socket's bulk-progress and
// bulk-done) on a Yahoo mailbox on a real Dovecot, its SMTP on a local peer, senders' one-click endpoints
// on a local HTTPS server: each item goes through the single action's path, observed at the sender, in
// the SMTP peer and in the mailbox; on SQLite and PostgreSQL.

const { dovecot, sender, stripe } = peersForThisFile({
  dovecot: () => startDovecot(),
  sender: () => startHttpsSender(),
  stripe: () => startStripeFake({ prices: { monthly: { unit_amount: 999 }, yearly: { unit_amount: 9999 } } }),
});

const hits = (path: string) => sender.requests.filter((r) => r.path === path).length;

/** A one-click newsletter whose endpoint is `path` on the local HTTPS sender. */
const oneClick = (address: string, path: string, n = 1) =>
  Array.from({ length: n }, (_, i) =>
    rawMessage({
      from: `One Click <${address}>`,
      subject: `Issue ${i}`,
      date: daysAgo(i + 1),
      listUnsubscribe: `<${sender.origin}${path}>`,
      listUnsubscribePost: 'List-Unsubscribe=One-Click',
    }),
  );

type Reader = Pick<Client, 'get'>;

const status = async (client: Reader, bulkId: string) =>
  parseAnswer(
    (await client.get(`/bulk-action/${bulkId}`)).json(),
    bulkStatusSchema,
    `GET /bulk-action/${bulkId}`,
  );

/** Polls GET /bulk-action/:id until every item is done. */
async function finished(client: Reader, bulkId: string): Promise<BulkStatus> {
  let s = await status(client, bulkId);
  for (let i = 0; i < 600 && s.done < s.total; i++) {
    await new Promise((r) => setTimeout(r, 50));
    s = await status(client, bulkId);
  }
  expect(s.done).toBe(s.total);
  return s;
}

const outcomes = (s: BulkStatus) => Object.fromEntries(s.results.map((r) => [r.subscriptionId, r.outcome]));

describe.each(DIALECTS)('bulk actions on %s', (dialect: Dialect) => {
  const open: Array<{ close(): Promise<void> }> = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function connected(messages: string[], env: Record<string, string> = {}) {
    const user: YahooUser = await yahooUser(dovecot, dialect, messages, {
      UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1',
      ...env,
    });
    open.push(user);
    const { data: list } = await user.client.call('GET /get-unsubscribe-emails');
    const idOf = (address: string) => {
      const found = list.find((s) => s.address === address);
      if (!found) throw new Error(`no subscription ${address}`);
      return found.id;
    };
    return { ...user, list, idOf };
  }

  /** A socket of the client's session, recording the bulk events it receives. */
  async function listen(t: TestApp, client: Client) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: client.cookieHeader() },
    });
    sockets.push(socket);
    const progress: Array<{ bulkId: string; done: number; total: number; result: BulkItemResult }> = [];
    const done: Array<{ bulkId: string; summary: BulkSummary }> = [];
    socket.on('bulk-progress', (p) => progress.push(p));
    socket.on('bulk-done', (d) => done.push(d));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { progress, done };
  }

  it('unsubscribes a mix in one call — one-click, mailto, manual, block, refusals — through the single path, once each', async () => {
    const stamp = Date.now();
    const paths = [`/bulk/a/${stamp}`, `/bulk/b/${stamp}`];
    for (const p of paths) sender.respond(p, { status: 200, delayMs: 50 });
    const user = await connected([
      ...oneClick('a@oneclick.example', paths[0]!),
      ...oneClick('b@oneclick.example', paths[1]!),
      rawMessage({
        from: 'Digest <digest@mailto.example>',
        subject: 'Weekly',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@mailto.example>',
      }),
      rawMessage({
        from: 'Page <page@manual.example>',
        subject: 'News',
        date: daysAgo(1),
        listUnsubscribe: '<https://manual.example/unsubscribe?u=1>',
      }),
      // No way out but a block; every message carries list headers, so the block needs no confirmation.
      rawMessage({
        from: 'Listed <listed@nolink.example>',
        subject: 'A',
        date: daysAgo(1),
        listId: '<l.nolink.example>',
      }),
      rawMessage({
        from: 'Listed <listed@nolink.example>',
        subject: 'B',
        date: daysAgo(2),
        listId: '<l.nolink.example>',
      }),
      // No way out either, and some of its mail looks personal: a bulk never confirms that block.
      ...[1, 2].map((n) =>
        rawMessage({
          from: 'Mixed <mixed@nolink.example>',
          subject: `List ${n}`,
          date: daysAgo(n),
          listId: '<m.nolink.example>',
        }),
      ),
      rawMessage({ from: 'Mixed <mixed@nolink.example>', subject: 'Lunch?', date: daysAgo(3) }),
    ]);
    const { t, client, smtp, idOf, email, password } = user;
    // Another user of the same server, with a subscription of their own.
    const otherBox = uniqueEmail('other').replace('@example.com', '@yahoo.com');
    await dovecot.addUser({ user: otherBox, password: 'other password' });
    await dovecot.deliver(
      otherBox,
      'INBOX',
      rawMessage({
        from: 'Theirs <theirs@other.example>',
        subject: 'Hi',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@other.example>',
      }),
    );
    const other = new Client(t.app);
    await other.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect(
      (await other.post('/auth/yahoo', { email: otherBox, appPassword: 'other password' })).statusCode,
    ).toBe(200);
    await t.app.jobs.idle();
    const theirs = (await other.call('GET /get-unsubscribe-emails')).data[0]!.id;

    const events = await listen(t, client);
    const ids = [
      idOf('a@oneclick.example'),
      idOf('b@oneclick.example'),
      idOf('digest@mailto.example'),
      idOf('page@manual.example'),
      idOf('listed@nolink.example'),
      idOf('mixed@nolink.example'),
    ];
    const { bulkId } = await client.call('POST /bulk-action', {
      body: { action: 'unsubscribe', subscriptionIds: [...ids, ids[0]!, theirs, 'no-such-id'] },
      status: 202,
    });
    const s = await finished(client, bulkId);

    // Deduplicated, in the order asked.
    expect(s).toMatchObject({ bulkId, action: 'unsubscribe', total: 8, done: 8 });
    expect(s.results.map((r) => r.subscriptionId).sort()).toEqual([...ids, theirs, 'no-such-id'].sort());
    expect(outcomes(s)).toEqual({
      [ids[0]!]: 'one-click',
      [ids[1]!]: 'one-click',
      [ids[2]!]: 'mailto',
      [ids[3]!]: 'manual',
      [ids[4]!]: 'blocked',
      [ids[5]!]: 'failed',
      [theirs]: 'not-found',
      'no-such-id': 'not-found',
    });
    const byId = new Map(s.results.map((r) => [r.subscriptionId, r]));
    expect(byId.get(ids[3]!)!.result).toMatchObject({
      manualUnsubscribe: true,
      unsubscribeOptions: ['https://manual.example/unsubscribe?u=1'],
    });
    expect(byId.get(ids[4]!)).toMatchObject({ movedToTrash: 2, result: { blockedAndTrashed: true } });
    expect(byId.get(ids[5]!)!.error).toMatch(/no newsletter headers/);
    expect(byId.get(ids[0]!)!.result).toMatchObject({
      method: 'one-click',
      oneClickUnsubscribeSuccess: true,
    });

    // Each sender reached once; the other user's sender never; the personal-looking mail untouched.
    expect(paths.map(hits)).toEqual([1, 1]);
    expect(smtp.received.map((m) => m.rcptTo)).toEqual([['leave@mailto.example']]);
    expect(await dovecot.count({ user: email, password }, 'Trash')).toBe(2);
    expect((await other.call('GET /get-unsubscribe-emails')).data.map((x) => x.category)).toEqual([
      'uncategorized',
    ]);

    // The socket saw every item and the end, with the same results.
    await expect.poll(() => events.done.length).toBe(1);
    expect(events.done[0]).toEqual({
      bulkId,
      summary: { 'one-click': 2, mailto: 1, manual: 1, blocked: 1, failed: 1, 'not-found': 2 },
    });
    expect(events.progress).toHaveLength(8);
    // Each count once; through PostgreSQL's adapter the events may arrive out of order (screens keep the highest).
    expect(events.progress.map((p) => p.done).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.progress.every((p) => p.bulkId === bulkId && p.total === 8)).toBe(true);
    expect(new Map(events.progress.map((p) => [p.result.subscriptionId, p.result.outcome]))).toEqual(
      new Map(Object.entries(outcomes(s))),
    );

    // The same ids again: a new bulk whose items answer what was done, without contacting anyone again.
    const again = await client.call('POST /bulk-action', {
      body: { action: 'unsubscribe', subscriptionIds: ids },
      status: 202,
    });
    const second = await finished(client, again.bulkId);
    expect(outcomes(second)).toMatchObject({
      [ids[0]!]: 'one-click',
      [ids[2]!]: 'mailto',
      [ids[4]!]: 'blocked',
    });
    expect(paths.map(hits)).toEqual([1, 1]);
    expect(smtp.received).toHaveLength(1);

    // Only the caller reads their bulk.
    expect((await other.get(`/bulk-action/${bulkId}`)).statusCode).toBe(404);
    expect((await client.get('/bulk-action/not-a-bulk')).statusCode).toBe(404);
  });

  it('keeps and blocks in bulk, and refuses a second bulk while one runs', async () => {
    const slow = `/bulk/slow/${Date.now()}`;
    sender.respond(slow, { status: 200, delayMs: 600 });
    const user = await connected([
      ...oneClick('slow@oneclick.example', slow),
      rawMessage({
        from: 'K1 <k1@keep.example>',
        subject: 'A',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:x@keep.example>',
      }),
      rawMessage({
        from: 'K2 <k2@keep.example>',
        subject: 'A',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:y@keep.example>',
      }),
      rawMessage({
        from: 'B1 <b1@block.example>',
        subject: 'A',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:x@block.example>',
      }),
      rawMessage({
        from: 'B1 <b1@block.example>',
        subject: 'B',
        date: daysAgo(2),
        listUnsubscribe: '<mailto:x@block.example>',
      }),
      rawMessage({
        from: 'B2 <b2@block.example>',
        subject: 'A',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:y@block.example>',
      }),
    ]);
    const { client, idOf, email, password, smtp } = user;
    const first = await client.post('/bulk-action', {
      action: 'unsubscribe',
      subscriptionIds: [idOf('slow@oneclick.example')],
      moveToTrash: true,
    });
    expect(first.statusCode).toBe(202);
    const busy = await client.post('/bulk-action', {
      action: 'keep',
      subscriptionIds: [idOf('k1@keep.example')],
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({
      message: expect.stringMatching(/still running/),
      bulkId: client.json(first, bulkStartedSchema).bulkId,
    });
    // Another user naming that sender while its run is in flight is refused, never handed the run's answer.
    await expect.poll(() => hits(slow)).toBe(1);
    const stranger = new Client(user.t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const foreign = await stranger.post('/unsubscribe', {
      subscriptionId: idOf('slow@oneclick.example'),
      moveToTrash: true,
    });
    expect(foreign.statusCode).toBe(404);
    // Asked to, the unsubscribe also moved the sender's mail to the trash.
    expect((await finished(client, client.json(first, bulkStartedSchema).bulkId)).results).toMatchObject([
      { outcome: 'one-click', movedToTrash: 1, result: { movedToTrash: 1 } },
    ]);
    expect(await dovecot.count({ user: email, password }, 'Trash')).toBe(1);

    const kept = await client.call('POST /bulk-action', {
      body: { action: 'keep', subscriptionIds: [idOf('k1@keep.example'), idOf('k2@keep.example')] },
    });
    expect(outcomes(await finished(client, kept.bulkId))).toEqual({
      [idOf('k1@keep.example')]: 'kept',
      [idOf('k2@keep.example')]: 'kept',
    });
    const blocked = await client.call('POST /bulk-action', {
      body: { action: 'block', subscriptionIds: [idOf('b1@block.example'), idOf('b2@block.example')] },
    });
    const b = await finished(client, blocked.bulkId);
    expect(b.results.map((r) => [r.outcome, r.movedToTrash])).toEqual([
      ['blocked', 2],
      ['blocked', 1],
    ]);
    expect(await dovecot.count({ user: email, password }, 'Trash')).toBe(4);
    const byCategory = async (category: string) =>
      (await client.call('GET /get-unsubscribe-emails', { query: { category } })).data
        .map((x) => x.address)
        .sort();
    expect(await byCategory('kept')).toEqual(['k1@keep.example', 'k2@keep.example']);
    expect(await byCategory('unsubscribed')).toEqual([
      'b1@block.example',
      'b2@block.example',
      'slow@oneclick.example',
    ]);
    // Keep and block send nothing.
    expect(smtp.received).toHaveLength(0);
    expect(hits(slow)).toBe(1);

    // As every signed-in POST: a CSRF token and a session, and a body the contract accepts.
    const body = { action: 'keep', subscriptionIds: [idOf('k1@keep.example')] };
    expect((await client.post('/bulk-action', body, { csrf: false })).statusCode).toBe(403);
    expect((await new Client(user.t.app).post('/bulk-action', body)).statusCode).toBe(403);
    expect((await client.post('/bulk-action', { action: 'keep', subscriptionIds: [] })).statusCode).toBe(400);
    expect((await client.post('/bulk-action', { ...body, action: 'delete' })).statusCode).toBe(400);
  });

  it('marks the senders past the free trial’s limit, sending nothing for them', async () => {
    const user = await connected(
      Array.from({ length: 12 }, (_, i) =>
        rawMessage({
          from: `News ${i} <news${i}@trial.example>`,
          subject: `Issue ${i}`,
          date: daysAgo(1),
          listUnsubscribe: `<mailto:leave${i}@trial.example>`,
        }),
      ),
      stripe.env(),
    );
    const { client, smtp, list } = user;
    const ids = list.map((x) => x.id);
    expect(ids).toHaveLength(12);
    const posted = await client.call('POST /bulk-action', {
      body: { action: 'unsubscribe', subscriptionIds: ids },
    });
    const s = await finished(client, posted.bulkId);
    const counts = s.results.reduce<Record<string, number>>((n, r) => {
      n[r.outcome] = (n[r.outcome] ?? 0) + 1;
      return n;
    }, {});
    expect(counts).toEqual({ mailto: 10, limit: 2 });
    for (const r of s.results.filter((x) => x.outcome === 'limit')) {
      expect(r.error).toMatch(/free trial includes 10 unsubscribes/);
    }
    expect(smtp.received).toHaveLength(10);
  });

  it('resumes a bulk after a restart: every sender reached exactly once', async () => {
    const stamp = Date.now();
    const paths = Array.from({ length: 6 }, (_, i) => `/bulk/restart/${stamp}/${i}`);
    for (const p of paths) sender.respond(p, { status: 200, delayMs: 700 });
    const messages = paths.flatMap((p, i) => oneClick(`r${i}@restart.example`, p));
    const user = await connected(messages);
    const { t, client, idOf } = user;
    const ids = paths.map((_, i) => idOf(`r${i}@restart.example`));
    const { bulkId } = await client.call('POST /bulk-action', {
      body: { action: 'unsubscribe', subscriptionIds: ids },
    });
    // Stopped while the first ones are in flight (the endpoints share a host: two at a time).
    await expect.poll(() => sender.requests.filter((r) => paths.includes(r.path)).length).toBeGreaterThan(0);
    // Each answer takes 700 ms and they share a host: no third request starts before one of two answers.
    await new Promise((r) => setTimeout(r, 300));
    expect(sender.requests.filter((r) => paths.includes(r.path)).length).toBeLessThanOrEqual(2);
    await t.app.close();
    const before = await t.db
      .selectFrom('bulk_items')
      .select('outcome')
      .where('bulk_id', '=', bulkId)
      .execute();
    expect(before.filter((r) => r.outcome === null).length).toBeGreaterThan(0);

    // As if the stopped runner had died holding its lease: SQLite drops it at start (the process is the
    // only one), PostgreSQL's next runner waits for it to run out.
    await t.db
      .updateTable('bulk_actions')
      .set({ runner_until: Date.now() + 1500 })
      .where('id', '=', bulkId)
      .execute();
    // A new process on the same database and data folder picks the bulk up at start.
    const app = await buildApp({ config: t.config, db: t.db, jobBackoffMs: 50 });
    await app.ready();
    open.push({ close: () => app.close() });
    // The user's session is in the database: the same cookie works on the new process.
    const cookie = client.cookieHeader();
    const again = { get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie } }) };
    const s = await finished(again, bulkId);
    expect(s.results.map((r) => r.outcome)).toEqual(Array(6).fill('one-click'));
    expect(paths.map(hits)).toEqual(Array(6).fill(1));
    const bulk = await t.db
      .selectFrom('bulk_actions')
      .select('finished_at')
      .where('id', '=', bulkId)
      .executeTakeFirstOrThrow();
    expect(bulk.finished_at).not.toBeNull();
  });
});

describe('a product killed in the middle of a bulk', () => {
  let dataDir: string | null = null;
  let server: ChildProcess | null = null;
  let smtp: SmtpPeer | null = null;
  afterAll(async () => {
    if (server) await killProduct(server);
    await smtp?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // Two starts of the product from source (tsx) and the waits below, each bounded on its own: more than
  // the tier's 30 s on a loaded machine (a CI run under load took three times its usual time).
  it('goes on at restart, and no sender is contacted twice, not even those cut off mid-request', async () => {
    const stamp = Date.now();
    // The first two never answer: they hold the host's two slots when the process dies.
    const hanging = [`/kill/hang/${stamp}/0`, `/kill/hang/${stamp}/1`];
    const later = [`/kill/ok/${stamp}/0`, `/kill/ok/${stamp}/1`];
    for (const p of hanging) sender.respond(p, { hang: true });
    for (const p of later) sender.respond(p, { status: 200 });
    const email = uniqueEmail('killbulk').replace('@example.com', '@yahoo.com');
    await dovecot.addUser({ user: email, password: 'app password' });
    const all = [...hanging, ...later];
    for (const [i, p] of all.entries()) {
      for (const m of oneClick(`k${i}@killed.example`, p)) await dovecot.deliver(email, 'INBOX', m);
    }
    await dovecot.deliver(
      email,
      'INBOX',
      rawMessage({
        from: 'Digest <digest@killed.example>',
        subject: 'Weekly',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@killed-mail.example>',
      }),
    );
    smtp = await startSmtpPeer({ user: email, password: 'app password' });
    dataDir = await mkdtemp(path.join(tmpdir(), 'ig-bulk-kill-'));
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(smtp.port),
      UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
    };
    server = await startProduct(port, env);
    const http = new HttpSession(`http://127.0.0.1:${port}`);
    expect(
      (await http.call('/auth/signup', 'POST', { email: uniqueEmail(), password: 'long enough' })).ok,
    ).toBe(true);
    expect((await http.call('/auth/yahoo', 'POST', { email, appPassword: 'app password' })).ok).toBe(true);
    let list: Subscription[] = [];
    await expect
      .poll(
        async () => {
          list = (await http.json(await http.call('/get-unsubscribe-emails'), subscriptionsResponseSchema))
            .data;
          return list.length;
        },
        { timeout: 20_000 },
      )
      .toBe(5);
    const ids = [...all.map((_, i) => `k${i}@killed.example`), 'digest@killed.example'].map(
      (a) => list.find((s) => s.address === a)!.id,
    );
    const posted = await http.call('/bulk-action', 'POST', { action: 'unsubscribe', subscriptionIds: ids });
    expect(posted.status).toBe(202);
    const { bulkId } = await http.json(posted, bulkStartedSchema);
    await expect.poll(() => hanging.map(hits), { timeout: 15_000 }).toEqual([1, 1]);
    // The mail goes to another host, so it does not wait for those two slots.
    await expect.poll(() => smtp!.received.length, { timeout: 15_000 }).toBe(1);
    await killProduct(server);
    server = null;
    const left = readSqlite(
      dataDir,
      (db) =>
        db
          .prepare('select count(*) as n from bulk_items where bulk_id = ? and outcome is null')
          .get(bulkId) as { n: number },
    );
    // The two cut off, and the two waiting for their host behind them.
    expect(left.n).toBeGreaterThanOrEqual(4);

    server = await startProduct(port, env);
    let s: BulkStatus | null = null;
    await expect
      .poll(
        async () => {
          s = await http.json(await http.call(`/bulk-action/${bulkId}`), bulkStatusSchema);
          return s.done;
        },
        { timeout: 20_000 },
      )
      .toBe(5);
    // Cut off mid-request: recorded as made (the flights' reconciliation), never sent again.
    expect(s!.results.map((r) => r.outcome)).toEqual([
      'one-click',
      'one-click',
      'one-click',
      'one-click',
      'mailto',
    ]);
    expect(all.map(hits)).toEqual([1, 1, 1, 1]);
    expect(smtp.received).toHaveLength(1);
  }, 120_000);
});
