import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  DIALECTS,
  type Dialect,
  type TestApp,
  uniqueEmail,
} from '#test/helpers/app.js';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type StripeFake, startStripeFake } from '#test/helpers/stripe-fake/index.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// Plans and billing against the local Stripe fake, driven through the product's API and its webhook, on
// SQLite and PostgreSQL: signatures, redeliveries, events out of order, the success redirect before any
// webhook, one customer per user, and the free trial's limits on a real mailbox (Dovecot + SMTP peer).

let fake: StripeFake;
let dovecot: Dovecot;
beforeAll(async () => {
  [fake, dovecot] = await Promise.all([
    startStripeFake({ prices: { monthly: { unit_amount: 999 }, yearly: { unit_amount: 9999 } } }),
    startDovecot(),
  ]);
});
afterAll(async () => {
  await fake?.close();
  await dovecot?.stop();
});

const stripeEnv = () => fake.env();

/** The app listens on loopback so the fake can deliver its events to the webhook. */
async function listening(t: TestApp): Promise<void> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  fake.setWebhookUrl(`http://127.0.0.1:${port}/stripe/webhook`);
}

/** Every delivery answered and every sync it queued done. */
async function settle(t: TestApp): Promise<void> {
  await fake.settled();
  await t.app.jobs.idle();
}

const sessionIdOf = (url: string) => /\/c\/pay\/(cs_test_\w+)/.exec(url)?.[1];

async function checkout(client: Client, interval: 'monthly' | 'yearly' = 'monthly') {
  const { url } = await client.call(`POST /get-${interval}-payment-link` as const, {
    body: { originalUrl: 'http://localhost:3000/pricing' },
  });
  return { url, sessionId: sessionIdOf(url) };
}

const billing = (client: Client) => client.call('GET /get-billing');
const status = async (client: Client) => (await client.call('GET /subscription-status/')).status;

/** The Stripe customer id stored for the user. */
async function customerOf(t: TestApp, userId: string): Promise<string> {
  const row = await t.db
    .selectFrom('billing_accounts')
    .select('customer_id')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.customer_id;
}

/** A signed-up user on an app with billing on, listening for webhooks. */
async function billedUser(
  dialect: Dialect,
  apps: TestApp[],
  env: Record<string, string> = {},
  onLog?: (line: string) => void,
) {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) onLog?.(line);
      done();
    },
  });
  const t = await createTestApp(dialect, { ...stripeEnv(), ...env }, () => (onLog ? { logStream } : {}));
  apps.push(t);
  await listening(t);
  const client = new Client(t.app);
  const email = uniqueEmail('billing');
  expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
  const userId = (
    await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
  ).id;
  return { t, client, email, userId };
}

describe.each(DIALECTS)('billing on %s', (dialect) => {
  const apps: TestApp[] = [];
  const users: YahooUser[] = [];
  afterEach(async () => {
    await fake.settled();
    if (fake.pendingEvents().length > 0) await fake.releaseEvents();
    fake.setWebhookUrl(undefined);
    for (const t of apps.splice(0)) await t.close();
    for (const u of users.splice(0)) await u.close();
  });

  it('checks the webhook signature: valid 200, tampered, missing or stale 400, without a CSRF token', async () => {
    const { t } = await billedUser(dialect, apps);
    const payload = JSON.stringify({
      id: `evt_test_${Date.now()}`,
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_x', object: 'customer' } },
    });
    const post = (body: string, signature?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'stripe-signature': signature } : {}),
        },
        payload: body,
      });
    expect((await post(payload, fake.sign(payload))).statusCode).toBe(200);
    const tampered = payload.replace('cus_x', 'cus_y');
    expect((await post(tampered, fake.sign(payload))).statusCode).toBe(400);
    expect((await post(payload)).statusCode).toBe(400);
    const stale = fake.sign(payload, Math.floor(Date.now() / 1000) - 3600);
    const staleAnswer = await post(payload, stale);
    expect(staleAnswer.statusCode).toBe(400);
    expect(staleAnswer.json()).toEqual({ received: false, message: 'Invalid Stripe signature.' });
    // Every other state-changing call still needs its CSRF token.
    const client = new Client(t.app);
    await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const noToken = await client.post('/get-monthly-payment-link', {}, { csrf: false });
    expect(noToken.statusCode).toBe(403);
    const noTokenPortal = await client.post('/get-billing-portal-link', {}, { csrf: false });
    expect(noTokenPortal.statusCode).toBe(403);
  });

  it('pays through Checkout: one customer for two parallel clicks, premium after the webhook, portal after that', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    expect(await status(client)).toBe(false);
    const before = fake.requests().filter((r) => r.method === 'POST' && r.path === '/v1/customers').length;
    const [a, b] = await Promise.all([checkout(client), checkout(client, 'yearly')]);
    const created = fake.requests().filter((r) => r.method === 'POST' && r.path === '/v1/customers');
    // Two customer creations may reach Stripe; the idempotency key makes them one customer.
    const customerIds = new Set(
      (
        await t.db
          .selectFrom('billing_accounts')
          .select('customer_id')
          .where('user_id', '=', userId)
          .execute()
      ).map((r) => r.customer_id),
    );
    expect(customerIds.size).toBe(1);
    const customerId = [...customerIds][0]!;
    expect(created.length - before).toBeGreaterThanOrEqual(1);
    expect(
      created
        .slice(before)
        .every((r) => r.params.metadata && (r.params.metadata as { userId: string }).userId === userId),
    ).toBe(true);
    expect(a.sessionId).toBeTruthy();
    expect(b.sessionId).toBeTruthy();
    const sessions = fake
      .requests()
      .filter((r) => r.path === '/v1/checkout/sessions' && r.params.client_reference_id === userId);
    expect(sessions).toHaveLength(2);
    const session = sessions[0]!;
    expect(session.params).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: userId,
      cancel_url: 'http://localhost:3000/pricing',
      success_url: 'http://localhost:3000/stripe/checkout-return?session_id={CHECKOUT_SESSION_ID}',
    });

    // One open Checkout per user: of the two links, only the newer can still be paid.
    const open = [a, b].filter((x) => fake.checkoutSession(x.sessionId!)?.status === 'open');
    expect(open).toHaveLength(1);
    fake.completeCheckout(open[0]!.sessionId!);
    await settle(t);
    expect(await status(client)).toBe(true);
    const state = await billing(client);
    expect(state).toMatchObject({
      enabled: true,
      plan: 'premium',
      status: 'active',
      interval: open[0] === a ? 'month' : 'year',
      cancelAtPeriodEnd: false,
      hasCustomer: true,
      usage: { unsubscribesLimit: null, unsubscribesLeft: null, mailboxesLimit: null },
    });
    expect(Date.parse(state.currentPeriodEnd!)).toBeGreaterThan(Date.now() + 25 * 86_400_000);

    // A second Checkout would make a second subscription: a paying user gets the portal instead.
    const again = await client.post('/get-yearly-payment-link', {
      originalUrl: 'http://localhost:3000/pricing',
    });
    expect(again.json().url).toMatch(/\/p\/session\//);
    expect(fake.subscriptionsOf(customerId)).toHaveLength(1);
  });

  it('keeps one open Checkout per user: a new payment link expires the one before', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const monthly = await checkout(client, 'monthly');
    const yearly = await checkout(client, 'yearly');
    expect(fake.checkoutSession(monthly.sessionId!)).toMatchObject({ status: 'expired', url: null });
    expect(fake.checkoutSession(yearly.sessionId!)).toMatchObject({ status: 'open' });
    // The first tab's Pay is refused; the second pays.
    expect(() => fake.completeCheckout(monthly.sessionId!)).toThrow(/expired/);
    fake.completeCheckout(yearly.sessionId!);
    await settle(t);
    const customer_id = await customerOf(t, userId);
    expect(fake.subscriptionsOf(customer_id).map((s) => s.status)).toEqual(['active']);
    expect(await billing(client)).toMatchObject({ plan: 'premium', interval: 'year' });
  });

  it('handles a second paid subscription at sync: keeps the yearly, cancels the other at once with its unused time credited', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const monthly = await checkout(client, 'monthly');
    fake.completeCheckout(monthly.sessionId!);
    await settle(t);
    const customer_id = await customerOf(t, userId);
    // A Checkout made where this process could not expire it (another instance, the same instant).
    const stripe = new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: 'http' });
    const other = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer_id,
      client_reference_id: userId,
      line_items: [{ price: fake.prices.yearly, quantity: 1 }],
      success_url: 'http://localhost:3000/stripe/checkout-return?session_id={CHECKOUT_SESSION_ID}',
      metadata: { userId },
      subscription_data: { metadata: { userId } },
    });
    fake.completeCheckout(other.id);
    await settle(t);
    await settle(t);
    const subs = fake.subscriptionsOf(customer_id);
    const byInterval = (i: string) =>
      subs.find(
        (s) =>
          (s.items as { data: { price: { recurring: { interval: string } } }[] }).data[0]!.price.recurring
            .interval === i,
      )!;
    expect(byInterval('year').status).toBe('active');
    expect(byInterval('month').status).toBe('canceled');
    const cancel = fake
      .requests()
      .find((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${byInterval('month').id}`)!;
    expect(cancel.params).toMatchObject({ prorate: 'true', invoice_now: 'true' });
    // The monthly's unused time (all of it: the fake's clock stood still) is the customer's credit.
    expect(fake.customer(customer_id)!.balance).toBe(-999);
    expect(await billing(client)).toMatchObject({ plan: 'premium', status: 'active', interval: 'year' });
    // At the yearly's renewal the credit pays part of the invoice.
    fake.advanceToPeriodEnd(byInterval('year').id as string);
    expect(fake.customer(customer_id)!.balance).toBe(0);
  });

  it('ends premium on the success redirect while the webhooks are held back', async () => {
    const { t, client } = await billedUser(dialect, apps);
    fake.holdEvents();
    const { sessionId } = await checkout(client);
    fake.completeCheckout(sessionId!);
    const back = await client.get(`/stripe/checkout-return?session_id=${sessionId}`);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/genie/billing?checkout=success');
    expect(await status(client)).toBe(true);
    // The held events arrive late, in any order: the plan stays as Stripe says.
    await fake.releaseEvents('reverse');
    await settle(t);
    expect(await status(client)).toBe(true);
  });

  it('does not sync a Checkout session of another user from the success redirect', async () => {
    const first = await billedUser(dialect, apps);
    fake.holdEvents();
    const { sessionId } = await checkout(first.client);
    fake.completeCheckout(sessionId!);
    const other = new Client(first.t.app);
    await other.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const back = await other.get(`/stripe/checkout-return?session_id=${sessionId}`);
    expect(back.headers.location).toBe('/genie/billing');
    expect(await status(other)).toBe(false);
    expect(await status(first.client)).toBe(false);
    const signedOut = await first.t.app.inject({ url: `/stripe/checkout-return?session_id=${sessionId}` });
    expect(signedOut.headers.location).toBe('/signin');
  });

  it('reads Stripe again for each event, so redeliveries and events out of order end as Stripe says', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const { sessionId } = await checkout(client);
    fake.completeCheckout(sessionId!);
    await settle(t);
    expect(await status(client)).toBe(true);
    const account = await t.db
      .selectFrom('billing_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const subscriptionId = account.subscription_id!;

    // Cancel at period end through the portal: still premium, with the end date.
    fake.holdEvents();
    fake.setCancelAtPeriodEnd(subscriptionId, true);
    // Then the period ends; the events arrive newest first.
    fake.advanceToPeriodEnd(subscriptionId);
    await fake.releaseEvents('reverse');
    await settle(t);
    expect(await status(client)).toBe(false);
    expect(await billing(client)).toMatchObject({ plan: 'free', status: 'canceled' });

    // A redelivery of an event handled before: 200, nothing read from Stripe again.
    // This test's own event (the fake is shared with the other dialect's tests).
    const event = fake
      .events()
      .find(
        (e) =>
          e.type === 'customer.subscription.updated' &&
          (e.data as { object: { id: string } }).object.id === subscriptionId,
      )!;
    const lists = () =>
      fake.requests().filter((r) => r.method === 'GET' && r.path === '/v1/subscriptions').length;
    const listed = lists();
    await fake.redeliver(event.id as string);
    await settle(t);
    const last = fake.deliveries().at(-1)!;
    expect(last).toMatchObject({ eventId: event.id, status: 200 });
    expect(lists()).toBe(listed);
    const stored = await t.db
      .selectFrom('stripe_events')
      .selectAll()
      .where('id', '=', event.id as string)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.processed_at).not.toBeNull();
  });

  it('shows the end date after a cancel at period end and keeps premium until then; the portal return syncs', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const { sessionId } = await checkout(client, 'yearly');
    fake.completeCheckout(sessionId!);
    await settle(t);
    const { subscription_id } = await t.db
      .selectFrom('billing_accounts')
      .select('subscription_id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const portal = await client.post('/get-billing-portal-link', {
      originalUrl: 'http://localhost:3000/genie/billing',
    });
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(/\/p\/session\//);
    const portalCall = fake
      .requests()
      .filter((r) => r.path === '/v1/billing_portal/sessions')
      .at(-1)!;
    expect(portalCall.params.return_url).toBe(
      'http://localhost:3000/stripe/portal-return?to=%2Fgenie%2Fbilling',
    );
    fake.holdEvents();
    fake.setCancelAtPeriodEnd(subscription_id!, true);
    const back = await client.get('/stripe/portal-return?to=%2Fgenie%2Fbilling');
    expect(back.headers.location).toBe('/genie/billing');
    expect(await billing(client)).toMatchObject({
      plan: 'premium',
      interval: 'year',
      cancelAtPeriodEnd: true,
    });
    expect(await status(client)).toBe(true);
    // Another site as the way back is ignored.
    const away = await client.get('/stripe/portal-return?to=%2F%2Fevil.example%2F');
    expect(away.headers.location).toBe('/genie/billing');
    // Characters a Location header cannot carry: a clean redirect, never Fastify's 500.
    for (const to of ['/%EF%BC%8Fevil.example', '/%7F', '/%0D%0ASet-Cookie:x=1', '%2F%5Cevil.example']) {
      const odd = await client.get(`/stripe/portal-return?to=${to}`);
      expect(odd.statusCode, to).toBe(302);
      expect(odd.headers.location, to).toMatch(/^\/[\x21-\x7e]*$/);
    }
    const wide = await client.get('/stripe/portal-return?to=%2F%EF%BC%8Fevil.example');
    expect(wide.headers.location).toBe('/%EF%BC%8Fevil.example');
  });

  it('cancels the subscription when the account is deleted', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const { sessionId } = await checkout(client);
    fake.completeCheckout(sessionId!);
    await settle(t);
    const customer_id = await customerOf(t, userId);
    expect((await client.delete('/delete-account')).statusCode).toBe(200);
    expect(fake.subscriptionsOf(customer_id).map((s) => s.status)).toEqual(['canceled']);
    expect(await t.db.selectFrom('billing_accounts').selectAll().execute()).toHaveLength(0);
  });

  it('expires the open Checkout and deletes the Stripe customer with the account: a link opened before cannot be paid after', async () => {
    const { t, client, userId } = await billedUser(dialect, apps);
    const { sessionId } = await checkout(client);
    const customer_id = await customerOf(t, userId);
    expect((await client.delete('/delete-account')).statusCode).toBe(200);
    expect(fake.checkoutSession(sessionId!)).toMatchObject({ status: 'expired', url: null });
    // The Pay button of the tab left open: refused, no subscription for an account that is gone.
    expect(() => fake.completeCheckout(sessionId!)).toThrow(/expired/);
    expect(fake.subscriptionsOf(customer_id)).toHaveLength(0);
    // The customer (the user's email and id) is gone from Stripe too.
    expect(fake.customer(customer_id)).toEqual({ id: customer_id, object: 'customer', deleted: true });
  });

  it('cancels, and logs, a subscription Stripe reports for a customer of no known user', async () => {
    const lines: string[] = [];
    const { t } = await billedUser(dialect, apps, { LOG_LEVEL: 'warn' }, (line) => lines.push(line));
    // A customer and a paid Checkout whose user no longer exists (deleted, or a row lost).
    const stripe = new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: 'http' });
    const ghost = 'user-deleted-long-ago';
    const customer = await stripe.customers.create({
      email: 'gone@example.com',
      metadata: { userId: ghost },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: ghost,
      line_items: [{ price: fake.prices.monthly, quantity: 1 }],
      success_url: 'http://localhost:3000/stripe/checkout-return?session_id={CHECKOUT_SESSION_ID}',
      metadata: { userId: ghost },
      subscription_data: { metadata: { userId: ghost } },
    });
    fake.completeCheckout(session.id);
    await settle(t);
    await settle(t);
    expect(fake.subscriptionsOf(customer.id).map((s) => s.status)).toEqual(['canceled']);
    expect(await t.db.selectFrom('billing_accounts').selectAll().execute()).toHaveLength(0);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; customerId?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ customerId: customer.id, msg: expect.stringMatching(/cancelled/) }),
    );
  });

  it('answers 500 when the event cannot be stored, so Stripe sends it again', async () => {
    const { t } = await billedUser(dialect, apps);
    const payload = JSON.stringify({
      id: `evt_test_store_${Date.now()}`,
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: 'in_x', object: 'invoice', customer: 'cus_nobody' } },
    });
    await t.db.schema.dropTable('stripe_events').execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': fake.sign(payload) },
      payload,
    });
    expect(res.statusCode).toBe(500);
  });

  describe('the free trial', () => {
    /** Newsletters whose only way out is a mailto (sent through the user's SMTP peer). */
    const newsletters = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        rawMessage({
          from: `News ${i} <news${i}@trial.example>`,
          subject: `Issue ${i}`,
          date: daysAgo(1),
          listUnsubscribe: `<mailto:leave${i}@trial.example>`,
        }),
      );

    async function trialUser(env: Record<string, string>, messages = newsletters(12)) {
      const user = await yahooUser(dovecot, dialect, messages, env);
      users.push(user);
      const { data: list } = await user.client.call('GET /get-unsubscribe-emails');
      const ids = list.map((s) => s.id);
      return { ...user, ids };
    }

    const unsubscribe = (client: Client, id: string) => client.post('/unsubscribe', { subscriptionId: id });

    it('allows ten unsubscribes; the 10th and 11th in parallel: exactly one 402, and nothing sent for it', async () => {
      const { client, smtp, ids } = await trialUser(stripeEnv());
      expect(ids).toHaveLength(12);
      expect((await billing(client)).usage).toMatchObject({ unsubscribesUsed: 0, unsubscribesLeft: 10 });
      for (const id of ids.slice(0, 9)) expect((await unsubscribe(client, id)).statusCode).toBe(200);
      expect(smtp.received).toHaveLength(9);
      // The list's "1 free unsubscribe left" comes from here.
      expect((await billing(client)).usage).toMatchObject({ unsubscribesUsed: 9, unsubscribesLeft: 1 });
      const answers = await Promise.all([unsubscribe(client, ids[9]!), unsubscribe(client, ids[10]!)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402]);
      const refused = answers.find((a) => a.statusCode === 402)!;
      expect(refused.json().message).toMatch(/free trial includes 10 unsubscribes/);
      expect(smtp.received).toHaveLength(10);
      // Used up: confirming a manual unsubscribe and blocking need a plan too.
      expect((await unsubscribe(client, ids[11]!)).statusCode).toBe(402);
      expect((await client.post('/manual-unsubscribe', { subscriptionId: ids[11] })).statusCode).toBe(402);
      expect((await client.post('/block-subscription', { subscriptionId: ids[11] })).statusCode).toBe(402);
      expect(smtp.received).toHaveLength(10);
      // A sender already unsubscribed answers what was done, without using anything.
      expect((await unsubscribe(client, ids[0]!)).statusCode).toBe(200);
      expect(await billing(client)).toMatchObject({
        plan: 'free',
        usage: {
          unsubscribesUsed: 10,
          unsubscribesLimit: 10,
          unsubscribesLeft: 0,
          mailboxes: 1,
          mailboxesLimit: 1,
        },
      });
    });

    it('gives an unsubscribe back when the attempt changes nothing, and counts a sender kept and unsubscribed again once', async () => {
      const { client, smtp, ids } = await trialUser(stripeEnv(), newsletters(2));
      smtp.mode = 'refuse';
      const failed = await unsubscribe(client, ids[0]!);
      expect(failed.statusCode).toBe(502);
      expect((await billing(client)).usage).toMatchObject({ unsubscribesUsed: 0, unsubscribesLeft: 10 });
      smtp.mode = 'accept';
      expect((await unsubscribe(client, ids[0]!)).statusCode).toBe(200);
      expect((await client.post('/keep-subscription', { subscriptionId: ids[0] })).statusCode).toBe(200);
      expect((await unsubscribe(client, ids[0]!)).statusCode).toBe(200);
      expect((await billing(client)).usage.unsubscribesUsed).toBe(1);
    });

    it('does not start the trial again for a mailbox whose account was deleted and made again', async () => {
      const { t, client, smtp, ids, email, password } = await trialUser(stripeEnv(), newsletters(4));
      for (const id of ids.slice(0, 3)) expect((await unsubscribe(client, id)).statusCode).toBe(200);
      expect(smtp.received).toHaveLength(3);
      expect((await client.delete('/delete-account')).statusCode).toBe(200);
      // Nothing readable is kept: the row holds a keyed hash and a count.
      const kept = await t.db.selectFrom('trial_usage').selectAll().execute();
      expect(JSON.stringify(kept)).not.toContain(email.split('@')[0]!);
      expect(kept.map((k) => k.unsubscribes_used)).toContain(3);

      const again = new Client(t.app);
      await again.post('/auth/signup', { email: uniqueEmail('again'), password: 'long enough' });
      expect((await billing(again)).usage.unsubscribesUsed).toBe(0);
      expect((await again.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
      await t.app.jobs.idle();
      expect((await billing(again)).usage).toMatchObject({ unsubscribesUsed: 3, unsubscribesLeft: 7 });
    });

    it("keeps a deleted account's trial use only under proven addresses, so nobody can spend a stranger's", async () => {
      const { t } = await trialUser({ ...stripeEnv(), IMAP_ALLOWED_HOSTS: '127.0.0.1' }, newsletters(1));
      const victim = uniqueEmail('victim').replace('@example.com', '@yahoo.com');
      await dovecot.addUser({ user: victim, password: 'victim app password' });
      // The attacker signs up with the victim's address and adds it at a server they typed (proves nothing).
      const attacker = new Client(t.app);
      await attacker.post('/auth/signup', { email: victim, password: 'attacker pass' });
      const added = await attacker.post('/auth/imap', {
        email: victim,
        appPassword: 'victim app password',
        host: '127.0.0.1',
        port: dovecot.port,
        secure: false,
      });
      expect(added.statusCode).toBe(200);
      await t.app.jobs.idle();
      await t.db
        .updateTable('users')
        .set({ trial_unsubscribes_used: 9 })
        .where('email', '=', victim)
        .execute();
      expect((await attacker.delete('/delete-account')).statusCode).toBe(200);
      expect(await t.db.selectFrom('trial_usage').selectAll().execute()).toEqual([]);

      const owner = new Client(t.app);
      await owner.post('/auth/signup', { email: victim, password: 'owner password' });
      expect(
        (await owner.post('/auth/yahoo', { email: victim, appPassword: 'victim app password' })).statusCode,
      ).toBe(200);
      await t.app.jobs.idle();
      expect((await billing(owner)).usage.unsubscribesUsed).toBe(0);
    });

    it('refuses a second mailbox with 401 Subscription required, allows re-connecting the first, and both on premium', async () => {
      const { t, client, email, password } = await trialUser(stripeEnv(), newsletters(1));
      const second = uniqueEmail('second').replace('@example.com', '@yahoo.com');
      await dovecot.addUser({ user: second, password: 'second password' });
      const add = await client.post('/auth/yahoo', { email: second, appPassword: 'second password' });
      expect(add.statusCode).toBe(401);
      expect(add.json()).toEqual({ message: 'Subscription required' });
      expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
      await listening(t);
      const { sessionId } = await checkout(client);
      fake.completeCheckout(sessionId!);
      await settle(t);
      expect(
        (await client.post('/auth/yahoo', { email: second, appPassword: 'second password' })).statusCode,
      ).toBe(200);
      const { data: accounts } = await client.call('GET /get-email-accounts');
      expect(accounts).toHaveLength(2);
    });

    it('limits nothing with billing off', async () => {
      const { client, smtp, ids } = await trialUser({});
      for (const id of ids) expect((await unsubscribe(client, id)).statusCode).toBe(200);
      expect(smtp.received).toHaveLength(12);
      expect(await status(client)).toBe(true);
      expect((await client.get('/get-prices')).json()).toEqual({ data: [] });
      expect((await client.post('/get-monthly-payment-link', {})).statusCode).toBe(404);
      const second = uniqueEmail('second').replace('@example.com', '@yahoo.com');
      await dovecot.addUser({ user: second, password: 'second password' });
      expect(
        (await client.post('/auth/yahoo', { email: second, appPassword: 'second password' })).statusCode,
      ).toBe(200);
      expect(await billing(client)).toMatchObject({
        enabled: false,
        plan: 'free',
        usage: { unsubscribesLimit: null, unsubscribesLeft: null, mailboxesLimit: null },
      });
      expect((await client.get('/get-public-config')).json()).toMatchObject({
        billing: false,
        gaMeasurementId: null,
      });
    });
  });

  it('serves the two prices, cached, to anyone', async () => {
    const t = await createTestApp(dialect, stripeEnv());
    apps.push(t);
    const calls = () => fake.requests().filter((r) => r.path.startsWith('/v1/prices/')).length;
    const before = calls();
    const first = await t.app.inject({ url: '/get-prices' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      data: [
        { id: fake.prices.monthly, unit_amount: 999, currency: 'usd', recurring: { interval: 'month' } },
        { id: fake.prices.yearly, unit_amount: 9999, currency: 'usd', recurring: { interval: 'year' } },
      ],
    });
    await t.app.inject({ url: '/get-prices' });
    expect(calls() - before).toBe(2);
    expect((await t.app.inject({ url: '/get-public-config' })).json()).toMatchObject({ billing: true });
  });
});
