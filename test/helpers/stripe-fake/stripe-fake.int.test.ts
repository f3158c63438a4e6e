// The Stripe fake driven by the real stripe SDK: what the billing code will see.
import { createServer, type Server } from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/helpers/net.js';
import { type StripeFake, startStripeFake } from '#test/helpers/stripe-fake/index.js';

interface Received {
  body: string;
  signature: string;
}

let fake: StripeFake;
let stripe: Stripe;
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  const port = await freePort();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  fake = await startStripeFake({
    webhookUrl: `http://127.0.0.1:${port}/stripe/webhook`,
    prices: { monthly: { id: 'price_monthly_test', unit_amount: 999 }, yearly: { unit_amount: 9999 } },
  });
  stripe = new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: 'http' });
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const verify = (r: Received) => stripe.webhooks.constructEvent(r.body, r.signature, fake.webhookSecret);

/** Reads a hosted page and submits the form whose button has this label, as a click would. */
async function submit(pageUrl: string, label: string): Promise<Response> {
  const page = await (await fetch(pageUrl)).text();
  const form = [...page.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].find((m) =>
    m[2]!.includes(`>${label}</button>`),
  );
  expect(form, `a "${label}" button on ${pageUrl}`).toBeDefined();
  return fetch(new URL(form![1]!, pageUrl), { method: 'POST', redirect: 'manual' });
}

describe('stripe fake, driven by the stripe SDK', () => {
  it('refuses a wrong key with 401 and Stripe’s error shape', async () => {
    const wrong = new Stripe('sk_test_wrong_key_123', { host: fake.host, port: fake.port, protocol: 'http' });
    const err = await wrong.prices.retrieve(fake.prices.monthly).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(401);
    const raw = await fetch(`${fake.origin}/v1/prices/${fake.prices.monthly}`);
    expect(raw.status).toBe(401);
    expect(((await raw.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('reads the two seeded prices, and 404s an unknown one', async () => {
    const monthly = await stripe.prices.retrieve('price_monthly_test');
    expect(monthly).toMatchObject({
      object: 'price',
      unit_amount: 999,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const yearly = await stripe.prices.retrieve(fake.prices.yearly);
    expect(yearly).toMatchObject({ unit_amount: 9999, recurring: { interval: 'year' } });
    const err = (await stripe.prices
      .retrieve('price_nope')
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect([err.statusCode, err.code, err.param]).toEqual([404, 'resource_missing', 'id']);
  });

  it('replays an idempotent customer create and refuses the key with other parameters', async () => {
    const params = { email: 'ada@example.test', metadata: { userId: 'u-1' } };
    const first = await stripe.customers.create(params, { idempotencyKey: 'customer-u-1' });
    const again = await stripe.customers.create(params, { idempotencyKey: 'customer-u-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    const err = (await stripe.customers
      .create({ email: 'other@example.test' }, { idempotencyKey: 'customer-u-1' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(err.statusCode).toBe(400);
    const read = await stripe.customers.retrieve(first.id);
    expect(read).toMatchObject({ email: 'ada@example.test', metadata: { userId: 'u-1' } });
    expect(fake.events().filter((e) => e.type === 'customer.created')).toHaveLength(1);
  });

  it('pays a checkout page, lists the subscription, cancels at period end in the portal, ends it', async () => {
    const customer = await stripe.customers.create({
      email: 'bob@example.test',
      metadata: { userId: 'u-2' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'u-2',
      line_items: [{ price: fake.prices.monthly, quantity: 1 }],
      success_url: 'http://app.test/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/pricing',
      metadata: { userId: 'u-2' },
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', client_reference_id: 'u-2' });
    expect(session.url).toMatch(new RegExp(`^${fake.origin}/`));
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('>Pay</button>');
    expect(page).toContain('href="http://app.test/pricing">Cancel</a>');

    const paid = await submit(session.url!, 'Pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/billing/success?session_id=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const sub = done.subscription as Stripe.Subscription;
    expect(sub).toMatchObject({ object: 'subscription', status: 'active', customer: customer.id });

    const listed = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(listed).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data.map((s) => s.id)).toEqual([sub.id]);
    const item = listed.data[0]!.items.data[0]!;
    expect(item.price.id).toBe(fake.prices.monthly);
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86400);

    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://app.test/billing',
    });
    expect(portal.url).toMatch(new RegExp(`^${fake.origin}/`));
    const portalPage = await (await fetch(portal.url)).text();
    for (const label of ['Cancel at period end', 'Cancel now', 'Return'])
      expect(portalPage).toContain(`>${label}</button>`);
    expect((await submit(portal.url, 'Cancel at period end')).status).toBe(303);
    const canceling = await stripe.subscriptions.retrieve(sub.id);
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(canceling.canceled_at).toBeTypeOf('number');
    expect((await submit(portal.url, 'Return')).headers.get('location')).toBe('http://app.test/billing');

    fake.advanceToPeriodEnd(sub.id);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(all.data[0]).toMatchObject({ status: 'canceled', ended_at: item.current_period_end });

    await fake.settled();
    const types = received
      .map((r) => verify(r))
      .filter((e) => JSON.stringify(e.data.object).includes(customer.id));
    expect(types.map((e) => e.type)).toEqual([
      'customer.created',
      'customer.subscription.created',
      'checkout.session.completed',
      'invoice.paid',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    expect(fake.deliveries().every((d) => d.status === 200)).toBe(true);
  });

  it('signs events the SDK verifies, and a tampered body fails', async () => {
    await fake.settled();
    const last = received[received.length - 1]!;
    expect(verify(last).id).toMatch(/^evt_/);
    const tampered = last.body.replace('"livemode": false', '"livemode": true');
    expect(tampered).not.toBe(last.body);
    expect(() => stripe.webhooks.constructEvent(tampered, last.signature, fake.webhookSecret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(last.body, last.signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('holds events, releases them out of order, delivers one twice; SDK cancel and update work', async () => {
    const customer = await stripe.customers.create({ email: 'cy@example.test' });
    fake.holdEvents();
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: fake.prices.yearly, quantity: 1 }],
      success_url: 'http://app.test/ok',
    });
    fake.completeCheckout(session.id);
    const held = fake.pendingEvents();
    expect(held.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'checkout.session.completed',
      'invoice.paid',
    ]);
    const before = received.length;
    await fake.releaseEvents('reverse');
    expect(received.slice(before).map((r) => verify(r).type)).toEqual([
      'invoice.paid',
      'checkout.session.completed',
      'customer.subscription.created',
    ]);
    const twice = await fake.redeliver(held[1]!.id as string);
    expect(twice.status).toBe(200);
    expect(received.filter((r) => verify(r).id === held[1]!.id)).toHaveLength(2);

    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const updated = await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
    expect(updated.cancel_at).toBe(updated.items.data[0]!.current_period_end);
    const canceled = await stripe.subscriptions.cancel(subId);
    expect(canceled.status).toBe('canceled');
    await fake.settled();
    expect(verify(received[received.length - 1]!).type).toBe('customer.subscription.deleted');
  });
  it('lists Checkout Sessions by customer and status, expires an open one only, deletes a customer', async () => {
    const customer = await stripe.customers.create({
      email: 'dee@example.test',
      metadata: { userId: 'u-4' },
    });
    const make = () =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: fake.prices.monthly, quantity: 1 }],
        success_url: 'http://app.test/ok',
      });
    const first = await make();
    const second = await make();
    const open = await stripe.checkout.sessions.list({ customer: customer.id, status: 'open' });
    expect(open).toMatchObject({ object: 'list', has_more: false, url: '/v1/checkout/sessions' });
    expect(open.data.map((s) => s.id)).toEqual([second.id, first.id]);
    const one = await stripe.checkout.sessions.list({ customer: customer.id, limit: 1 });
    expect([one.data.map((s) => s.id), one.has_more]).toEqual([[second.id], true]);

    const expired = await stripe.checkout.sessions.expire(first.id);
    expect(expired).toMatchObject({ id: first.id, status: 'expired', url: null });
    const again = (await stripe.checkout.sessions
      .expire(first.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again.statusCode).toBe(400);
    expect((await fetch(first.url!)).status).toBe(410);
    expect(() => fake.completeCheckout(first.id)).toThrow(/expired/);
    expect(
      (await stripe.checkout.sessions.list({ customer: customer.id, status: 'open' })).data.map((s) => s.id),
    ).toEqual([second.id]);
    expect(
      (await stripe.checkout.sessions.list({ customer: customer.id, status: 'expired' })).data.map(
        (s) => s.id,
      ),
    ).toEqual([first.id]);

    // Deleting the customer cancels its live subscription at once; it then reads as deleted.
    fake.completeCheckout(second.id);
    const subId = (await stripe.checkout.sessions.retrieve(second.id)).subscription as string;
    const third = await make();
    const deleted = await stripe.customers.del(customer.id);
    expect(deleted).toMatchObject({ id: customer.id, object: 'customer', deleted: true });
    expect((await stripe.subscriptions.retrieve(subId)).status).toBe('canceled');
    const read = await stripe.customers.retrieve(customer.id);
    expect(read).toEqual(expect.objectContaining({ id: customer.id, deleted: true }));
    const twice = (await stripe.customers
      .del(customer.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect([twice.statusCode, twice.code]).toEqual([404, 'resource_missing']);
    // A session of a deleted customer cannot be paid, nor a new one made for it.
    expect(() => fake.completeCheckout(third.id)).toThrow(/No such customer/);
    const refused = (await make().catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect([refused.statusCode, refused.code]).toEqual([404, 'resource_missing']);
    await fake.settled();
    const types = fake
      .events()
      .filter((e) => JSON.stringify((e.data as { object: unknown }).object).includes(customer.id))
      .map((e) => e.type);
    expect(types).toContain('checkout.session.expired');
    expect(types.slice(-2)).toEqual(['customer.subscription.deleted', 'customer.deleted']);
  });
  it('cancels with prorate + invoice_now: the unused time to the balance, which pays the next invoice', async () => {
    const customer = await stripe.customers.create({ email: 'eve@example.test' });
    const pay = async (price: string) => {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price, quantity: 1 }],
        success_url: 'http://app.test/ok',
      });
      fake.completeCheckout(session.id);
      return (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    };
    const monthly = await pay(fake.prices.monthly);
    const yearly = await pay(fake.prices.yearly);
    const alone = (await stripe.subscriptions
      .cancel(monthly, { prorate: true })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect([alone.statusCode, alone.param]).toEqual([400, 'prorate']);
    const cancelled = await stripe.subscriptions.cancel(monthly, { prorate: true, invoice_now: true });
    expect(cancelled.status).toBe('canceled');
    const final = await stripe.invoices.retrieve(cancelled.latest_invoice as string);
    expect(final).toMatchObject({ total: -999, amount_due: 0, starting_balance: 0, ending_balance: -999 });
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).toBe(-999);
    fake.advanceToPeriodEnd(yearly);
    const renewal = await stripe.invoices.retrieve(
      (await stripe.subscriptions.retrieve(yearly)).latest_invoice as string,
    );
    expect(renewal).toMatchObject({
      total: 9999,
      amount_due: 9000,
      starting_balance: -999,
      ending_balance: 0,
    });
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).toBe(0);
  });
});
