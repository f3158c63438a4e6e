import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Subscription, subscriptionsResponseSchema, unsubscribeResultSchema } from '#contract/api.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, createTestApp, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { startHttpsSender } from '#test/helpers/https-sender.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { freePort } from '#test/helpers/net.js';
import { killProduct, readSqlite, startProduct } from '#test/helpers/product-process.js';
import { type SmtpPeer, startSmtpPeer } from '#test/helpers/smtp-peer.js';

// One unsubscribe per sender, whatever happens: two API instances on one PostgreSQL
// answering the same double click reach the sender once; a process killed between the request to the
// sender and its answer is reconciled at restart, and the request is never made again.

const PASSWORD = 'app password';
const { dovecot, sender } = peersForThisFile({
  dovecot: () => startDovecot(),
  sender: () => startHttpsSender(),
});

/** A Yahoo mailbox on the test Dovecot holding `messages`, and an SMTP peer for its account. */
async function mailbox(messages: string[]): Promise<{ email: string; smtp: SmtpPeer }> {
  const email = uniqueEmail('flight').replace('@example.com', '@yahoo.com');
  await dovecot.addUser({ user: email, password: PASSWORD });
  for (const m of messages) await dovecot.deliver(email, 'INBOX', m);
  return { email, smtp: await startSmtpPeer({ user: email, password: PASSWORD }) };
}

const overrides = (smtp: SmtpPeer) => dovecot.yahooOverrides(smtp.port);

describe.skipIf(!process.env.TEST_DATABASE_URL)('two API instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let smtp: SmtpPeer;
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await smtp?.stop();
  });

  it('reach the sender once for a double click that lands on both', async () => {
    const slow = `/slow-one-click/${Date.now()}`;
    sender.respond(slow, { status: 200, delayMs: 400 });
    const box = await mailbox([
      rawMessage({
        from: 'Shop <shop@twice.example>',
        subject: 'Sale',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${slow}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
      rawMessage({
        from: 'Digest <digest@twice.example>',
        subject: 'Weekly',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@twice.example>',
      }),
    ]);
    smtp = box.smtp;
    const env = { MAIL_PROVIDER_OVERRIDES: overrides(smtp), UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1' };
    a = await createTestApp('postgres', env);
    // The second instance shares the first one's database, key and configuration.
    b = await createTestApp('postgres', env, () => ({ config: a.config, db: a.db }));

    const onA = new Client(a.app);
    const credentials = { email: uniqueEmail(), password: 'long enough' };
    await onA.post('/auth/signup', credentials);
    expect((await onA.post('/auth/yahoo', { email: box.email, appPassword: PASSWORD })).statusCode).toBe(200);
    await a.app.jobs.idle();
    const onB = new Client(b.app);
    expect((await onB.post('/auth/signin', credentials)).statusCode).toBe(200);
    const { data: list } = await onA.call('GET /get-unsubscribe-emails');
    const idOf = (address: string) => list.find((s) => s.address === address)!.id;

    for (const address of ['shop@twice.example', 'digest@twice.example']) {
      const subscriptionId = idOf(address);
      const answers = await Promise.all([
        onA.post('/unsubscribe', { subscriptionId }),
        onB.post('/unsubscribe', { subscriptionId }),
        onB.post('/unsubscribe', { subscriptionId }),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      const results = answers.map((r) => onA.json(r, unsubscribeResultSchema));
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
      expect(results[0]).toMatchObject({ oneClickUnsubscribeSuccess: true });
    }
    expect(sender.requests.filter((r) => r.path === slow)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
  });
});

describe('a product killed while the sender is being contacted', () => {
  let dataDir: string;
  let server: ChildProcess | null = null;
  let smtp: SmtpPeer;
  afterAll(async () => {
    if (server) await killProduct(server);
    await smtp?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // Two starts of the product from source (tsx) and the waits below, each bounded on its own: more than
  // the tier's 30 s on a loaded machine.
  it('records the request at restart and never sends it again', async () => {
    const hanging = `/hanging-one-click/${Date.now()}`;
    sender.respond(hanging, { hang: true });
    const box = await mailbox([
      rawMessage({
        from: 'Shop <shop@killed.example>',
        subject: 'Sale',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${hanging}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
      rawMessage({
        from: 'Digest <digest@killed.example>',
        subject: 'Weekly',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@killed.example>',
      }),
    ]);
    smtp = box.smtp;
    // The provider takes the unsubscribe mail and never answers; the sender's endpoint never answers.
    smtp.mode = 'hang';
    dataDir = await mkdtemp(path.join(tmpdir(), 'ig-flight-'));
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      MAIL_PROVIDER_OVERRIDES: overrides(smtp),
      UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
    };
    server = await startProduct(port, env);
    const http = new HttpSession(`http://127.0.0.1:${port}`);
    expect(
      (await http.call('/auth/signup', 'POST', { email: uniqueEmail(), password: 'long enough' })).ok,
    ).toBe(true);
    expect((await http.call('/auth/yahoo', 'POST', { email: box.email, appPassword: PASSWORD })).ok).toBe(
      true,
    );
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
      .toBe(2);
    const idOf = (address: string) => list.find((s) => s.address === address)!.id;
    const shop = idOf('shop@killed.example');
    const digest = idOf('digest@killed.example');

    // Both requests reach their peer; the process dies before either answer comes back.
    void http.call('/unsubscribe', 'POST', { subscriptionId: shop }).catch(() => {});
    void http.call('/unsubscribe', 'POST', { subscriptionId: digest }).catch(() => {});
    await expect
      .poll(() => sender.requests.filter((r) => r.path === hanging).length, { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1);
    await killProduct(server);
    server = null;
    const pending = readSqlite(
      dataDir,
      (db) =>
        db
          .prepare('select method from unsubscribe_receipts where pending = 1 order by method')
          .all() as Array<{
          method: string;
        }>,
    );
    expect(pending.map((r) => r.method)).toEqual(['mailto', 'one-click']);

    server = await startProduct(port, env);
    const receipts = readSqlite(
      dataDir,
      (db) =>
        db
          .prepare('select method, ok, pending, recipient from unsubscribe_receipts order by method')
          .all() as Array<{ method: string; ok: number; pending: number; recipient: string | null }>,
    );
    expect(receipts).toEqual([
      { method: 'mailto', ok: 1, pending: 0, recipient: 'leave@killed.example' },
      { method: 'one-click', ok: 1, pending: 0, recipient: null },
    ]);

    // Clicked again after the restart: answered from the receipts, nothing sent a second time.
    for (const [id, method] of [
      [shop, 'one-click'],
      [digest, 'mailto'],
    ] as const) {
      const again = await http.call('/unsubscribe', 'POST', { subscriptionId: id });
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ method, oneClickUnsubscribeSuccess: true });
    }
    const unsubscribed = (
      await http.json(
        await http.call('/get-unsubscribe-emails?category=unsubscribed'),
        subscriptionsResponseSchema,
      )
    ).data;
    expect(unsubscribed.map((s) => s.id).sort()).toEqual([shop, digest].sort());
    expect(sender.requests.filter((r) => r.path === hanging)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
  }, 120_000);
});
