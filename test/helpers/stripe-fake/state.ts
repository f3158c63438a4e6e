// The fake's objects and what changes them. Shapes follow the API reference pages for Prices
// (docs.stripe.com/api/prices/object), Customers (/api/customers/object), Checkout Sessions
// (/api/checkout/sessions/object), Subscriptions (/api/subscriptions/object — since 2025-03-31.basil the
// billing period lives on each subscription item), Invoices (/api/invoices/object) and Billing Portal
// Sessions (/api/customer_portal/sessions/object).
import { randomBytes } from 'node:crypto';
import { type FormObject, list, str, stringMap } from './form.js';
import {
  type Interval,
  invalid,
  type Json,
  missing,
  required,
  StripeFakeError,
  type StripeFakeOptions,
} from './types.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** Adds one billing interval to a unix time, in UTC calendar terms as Stripe bills. */
export function addInterval(seconds: number, interval: Interval): number {
  const d = new Date(seconds * 1000);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return Math.floor(d.getTime() / 1000);
}

export type Emit = (type: string, object: Json, previous?: Json) => void;

export class StripeState {
  readonly prices = new Map<string, Json>();
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly invoices = new Map<string, Json>();
  readonly portalSessions = new Map<string, Json>();
  /** The fake's clock (unix seconds); tests move it with advanceToPeriodEnd. */
  clock = Math.floor(Date.now() / 1000);
  readonly monthlyPriceId: string;
  readonly yearlyPriceId: string;

  constructor(
    options: StripeFakeOptions,
    private readonly origin: () => string,
    private readonly emit: Emit,
  ) {
    const product = newId('prod', 14);
    const seed = (
      interval: Interval,
      fallback: number,
      id?: string,
      unitAmount?: number,
      nickname?: string,
    ) => {
      const price: Json = {
        id: id ?? newId('price'),
        object: 'price',
        active: true,
        billing_scheme: 'per_unit',
        created: this.clock,
        currency: 'usd',
        custom_unit_amount: null,
        livemode: false,
        lookup_key: null,
        metadata: {},
        nickname: nickname ?? (interval === 'month' ? 'Monthly' : 'Yearly'),
        product,
        recurring: {
          interval,
          interval_count: 1,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        },
        tax_behavior: 'unspecified',
        tiers_mode: null,
        transform_quantity: null,
        type: 'recurring',
        unit_amount: unitAmount ?? fallback,
        unit_amount_decimal: String(unitAmount ?? fallback),
      };
      this.prices.set(price.id as string, price);
      return price.id as string;
    };
    const { monthly, yearly } = options.prices ?? {};
    this.monthlyPriceId = seed('month', 999, monthly?.id, monthly?.unit_amount, monthly?.nickname);
    this.yearlyPriceId = seed('year', 9999, yearly?.id, yearly?.unit_amount, yearly?.nickname);
  }

  get(map: Map<string, Json>, kind: string, id: string, param = 'id'): Json {
    const found = map.get(id);
    if (!found) throw missing(kind, id, param);
    return found;
  }

  /** A customer that exists and is not deleted (a deleted one is `No such customer` to every call but GET). */
  liveCustomer(id: string, param = 'id'): Json {
    const customer = this.get(this.customers, 'customer', id, param);
    if (customer.deleted === true) throw missing('customer', id, param);
    return customer;
  }

  /**
   * DELETE /v1/customers/:id (docs.stripe.com/api/customers/delete): permanent; cancels the customer's
   * live subscriptions at once; answers `{id, object, deleted: true}`, which GET then serves too. A second
   * delete is `No such customer`.
   */
  deleteCustomer(id: string): Json {
    const customer = this.liveCustomer(id);
    for (const sub of this.subscriptionsOf(id)) {
      if (sub.status !== 'canceled') this.cancelNow(sub.id as string);
    }
    this.emit('customer.deleted', customer);
    const deleted: Json = { id, object: 'customer', deleted: true };
    this.customers.set(id, deleted);
    return deleted;
  }

  createCustomer(form: FormObject): Json {
    const customer: Json = {
      id: newId('cus', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: this.clock,
      currency: null,
      default_source: null,
      delinquent: false,
      description: str(form, 'description') ?? null,
      email: str(form, 'email') ?? null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: stringMap(form.metadata),
      name: str(form, 'name') ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.customers.set(customer.id as string, customer);
    this.emit('customer.created', customer);
    return customer;
  }

  createCheckoutSession(form: FormObject): Json {
    const mode = str(form, 'mode');
    if (!mode) throw required('mode');
    if (mode !== 'subscription')
      throw invalid('mode', 'This fake supports Checkout in subscription mode only.');
    const customer = str(form, 'customer');
    if (customer) this.liveCustomer(customer, 'customer');
    const items = list(form.line_items);
    if (items.length === 0) throw required('line_items');
    if (items.length > 1) throw invalid('line_items', 'This fake supports one line item.');
    const item = items[0] as FormObject;
    const priceId = str(item, 'price');
    if (!priceId) throw required('line_items[0][price]');
    const price = this.get(this.prices, 'price', priceId, 'line_items[0][price]');
    const quantity = Number(str(item, 'quantity') ?? '1');
    const successUrl = str(form, 'success_url');
    if (!successUrl) throw required('success_url');
    const id = newId('cs_test', 58);
    const amount = (price.unit_amount as number) * quantity;
    const session: Json = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: str(form, 'cancel_url') ?? null,
      client_reference_id: str(form, 'client_reference_id') ?? null,
      created: this.clock,
      currency: 'usd',
      customer: customer ?? null,
      customer_email: str(form, 'customer_email') ?? null,
      expires_at: this.clock + 24 * 3600,
      invoice: null,
      livemode: false,
      metadata: stringMap(form.metadata),
      mode,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      ui_mode: 'hosted',
      url: `${this.origin()}/c/pay/${id}`,
      // Not part of the returned object unless expanded (line_items is includable); kept for payment.
      _line: { price: priceId, quantity },
    };
    this.sessions.set(id, session);
    return session;
  }

  /**
   * POST /v1/checkout/sessions/:id/expire (docs.stripe.com/api/checkout/sessions/expire): only an `open`
   * session can be expired, else an error; it then cannot be paid and its page says it expired. Emits
   * `checkout.session.expired`.
   */
  expireCheckoutSession(id: string): Json {
    const session = this.get(this.sessions, 'checkout.session', id, 'session');
    if (session.status !== 'open') {
      throw new StripeFakeError({
        status: 400,
        type: 'invalid_request_error',
        message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      });
    }
    Object.assign(session, { status: 'expired', url: null });
    this.emit('checkout.session.expired', session);
    return session;
  }

  /**
   * GET /v1/checkout/sessions (docs.stripe.com/api/checkout/sessions/list): newest first, filtered by
   * `customer`, `status` (open, complete, expired) and `subscription`; `limit` 1–100 (default 10),
   * `starting_after`.
   */
  listCheckoutSessions(p: FormObject): Json {
    const limit = Number(str(p, 'limit') ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw invalid('limit', `Invalid integer: ${limit}`);
    const status = str(p, 'status');
    if (status !== undefined && !['open', 'complete', 'expired'].includes(status))
      throw invalid('status', `Invalid status: must be one of open, complete, or expired`);
    const customer = str(p, 'customer');
    const subscription = str(p, 'subscription');
    let all = [...this.sessions.values()].reverse();
    if (customer) all = all.filter((s) => s.customer === customer);
    if (status) all = all.filter((s) => s.status === status);
    if (subscription) all = all.filter((s) => s.subscription === subscription);
    const after = str(p, 'starting_after');
    if (after) all = all.slice(all.findIndex((s) => s.id === after) + 1);
    return {
      object: 'list',
      data: all.slice(0, limit),
      has_more: all.length > limit,
      url: '/v1/checkout/sessions',
    };
  }

  /** What Checkout does when the customer pays: customer (if none), subscription, invoice, completion. */
  completeCheckout(sessionId: string): Json {
    const session = this.get(this.sessions, 'checkout.session', sessionId);
    if (session.status !== 'open') throw invalid('id', `This Checkout Session is ${session.status}.`);
    let customerId = session.customer as string | null;
    // A customer deleted since the session was made cannot be charged (subscriptions.create refuses it).
    if (customerId) this.liveCustomer(customerId, 'customer');
    if (!customerId) {
      customerId = this.createCustomer({ email: (session.customer_email as string | null) ?? '' })
        .id as string;
      session.customer = customerId;
    }
    const line = session._line as { price: string; quantity: number };
    const subscription = this.createSubscription(
      customerId,
      line.price,
      line.quantity,
      session.metadata as Json,
    );
    const invoice = this.payInvoice(subscription, 'subscription_create');
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      subscription: subscription.id,
      invoice: invoice.id,
      url: null,
    });
    this.emit('checkout.session.completed', session);
    this.emit('invoice.paid', invoice);
    return session;
  }

  private createSubscription(customer: string, priceId: string, quantity: number, metadata: Json): Json {
    const price = this.prices.get(priceId)!;
    const interval = (price.recurring as { interval: Interval }).interval;
    const id = newId('sub');
    const start = this.clock;
    const subscription: Json = {
      id,
      object: 'subscription',
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: start,
      currency: 'usd',
      customer,
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si', 14),
            object: 'subscription_item',
            created: start,
            current_period_end: addInterval(start, interval),
            current_period_start: start,
            metadata: {},
            price,
            quantity,
            subscription: id,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...metadata },
      start_date: start,
      status: 'active',
      trial_end: null,
      trial_start: null,
    };
    this.subscriptions.set(id, subscription);
    this.emit('customer.subscription.created', subscription);
    return subscription;
  }

  private item(subscription: Json): Json {
    return (subscription.items as { data: Json[] }).data[0]!;
  }

  /**
   * The subscription's invoice for its period, paid. A credit on the customer's balance (negative, from a
   * proration) is applied first, as Stripe does (starting_balance/ending_balance; amount_due what is left).
   */
  private payInvoice(subscription: Json, reason: 'subscription_create' | 'subscription_cycle'): Json {
    const item = this.item(subscription);
    const price = item.price as Json;
    const amount = (price.unit_amount as number) * (item.quantity as number);
    const customer = this.customers.get(subscription.customer as string);
    const startingBalance = (customer?.balance as number | undefined) ?? 0;
    const applied = startingBalance < 0 ? Math.min(amount, -startingBalance) : 0;
    if (customer) customer.balance = startingBalance + applied;
    const due = amount - applied;
    return this.storeInvoice(subscription, {
      due,
      startingBalance,
      endingBalance: startingBalance + applied,
      total: amount,
      reason,
      period: { start: item.current_period_start as number, end: item.current_period_start as number },
      line: {
        amount,
        period: { start: item.current_period_start, end: item.current_period_end },
        price,
        quantity: item.quantity,
      },
    });
  }

  /** An invoice of the subscription's, paid, stored and made its latest (the fields every invoice has). */
  private storeInvoice(
    subscription: Json,
    i: {
      due: number;
      startingBalance: number;
      endingBalance: number;
      total: number;
      reason: string;
      period: { start: number; end: number };
      line: { amount: number; description?: string; period: Json; price: Json; quantity: unknown };
    },
  ): Json {
    const invoice: Json = {
      id: newId('in'),
      object: 'invoice',
      amount_due: i.due,
      amount_paid: i.due,
      amount_remaining: 0,
      starting_balance: i.startingBalance,
      ending_balance: i.endingBalance,
      subtotal: i.total,
      total: i.total,
      billing_reason: i.reason,
      collection_method: 'charge_automatically',
      created: this.clock,
      currency: 'usd',
      customer: subscription.customer,
      lines: {
        object: 'list',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount: i.line.amount,
            currency: 'usd',
            ...(i.line.description ? { description: i.line.description } : {}),
            period: i.line.period,
            pricing: {
              type: 'price_details',
              price_details: { price: i.line.price.id, product: i.line.price.product },
            },
            quantity: i.line.quantity,
          },
        ],
        has_more: false,
      },
      livemode: false,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      period_end: i.period.end,
      period_start: i.period.start,
      status: 'paid',
      status_transitions: { paid_at: this.clock },
    };
    this.invoices.set(invoice.id as string, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** POST /v1/subscriptions/:id with cancel_at_period_end, as the portal's "Cancel at period end" does. */
  setCancelAtPeriodEnd(id: string, cancel: boolean, reason = 'cancellation_requested'): Json {
    const sub = this.get(this.subscriptions, 'subscription', id);
    if (sub.status === 'canceled')
      throw invalid('id', 'A canceled subscription can only update its metadata.');
    const previous = {
      cancel_at_period_end: sub.cancel_at_period_end,
      cancel_at: sub.cancel_at,
      canceled_at: sub.canceled_at,
      cancellation_details: sub.cancellation_details,
    };
    Object.assign(sub, {
      cancel_at_period_end: cancel,
      cancel_at: cancel ? this.item(sub).current_period_end : null,
      canceled_at: cancel ? this.clock : null,
      cancellation_details: { comment: null, feedback: null, reason: cancel ? reason : null },
    });
    this.emit('customer.subscription.updated', sub, previous);
    return sub;
  }

  /**
   * DELETE /v1/subscriptions/:id, or the portal's "Cancel now": ends the subscription at once. With
   * `prorate` and `invoice_now` (docs.stripe.com/api/subscriptions/cancel) the unused part of the paid
   * period is credited: a final invoice with a negative total, which goes to the customer's balance and
   * pays their next invoices.
   */
  cancelNow(id: string, reason = 'cancellation_requested', options: { prorate?: boolean } = {}): Json {
    const sub = this.get(this.subscriptions, 'subscription', id);
    if (sub.status === 'canceled') throw invalid('id', `No such subscription: '${id}' is already canceled.`);
    if (options.prorate) this.creditUnusedTime(sub);
    Object.assign(sub, {
      status: 'canceled',
      canceled_at: sub.canceled_at ?? this.clock,
      ended_at: this.clock,
      cancellation_details: { comment: null, feedback: null, reason },
    });
    this.emit('customer.subscription.deleted', sub);
    return sub;
  }

  /** The final invoice of a subscription cancelled with proration: its unused time, to the balance. */
  private creditUnusedTime(sub: Json): void {
    const item = this.item(sub);
    const start = item.current_period_start as number;
    const end = item.current_period_end as number;
    const price = item.price as Json;
    const amount = (price.unit_amount as number) * (item.quantity as number);
    const unused = Math.max(0, end - Math.max(this.clock, start)) / Math.max(1, end - start);
    const credit = Math.round(amount * unused);
    if (credit === 0) return;
    const customer = this.customers.get(sub.customer as string);
    const startingBalance = (customer?.balance as number | undefined) ?? 0;
    if (customer) customer.balance = startingBalance - credit;
    this.storeInvoice(sub, {
      due: 0,
      startingBalance,
      endingBalance: startingBalance - credit,
      total: -credit,
      reason: 'subscription_update',
      period: { start: this.clock, end: this.clock },
      line: {
        amount: -credit,
        description: `Unused time on ${price.nickname as string}`,
        period: { start: this.clock, end },
        price,
        quantity: item.quantity,
      },
    });
  }

  /**
   * Moves the clock to the subscription's current period end and does what Stripe does there:
   * a subscription set to cancel ends (deleted), any other one renews (a paid invoice, a new period).
   */
  advanceToPeriodEnd(id: string): Json {
    const sub = this.get(this.subscriptions, 'subscription', id);
    const item = this.item(sub);
    this.clock = Math.max(this.clock, item.current_period_end as number);
    if (sub.status === 'canceled') return sub;
    if (sub.cancel_at_period_end)
      return this.cancelNow(id, (sub.cancellation_details as Json).reason as string);
    const interval = ((item.price as Json).recurring as { interval: Interval }).interval;
    const previous = { items: structuredClone(sub.items), latest_invoice: sub.latest_invoice };
    item.current_period_start = item.current_period_end;
    item.current_period_end = addInterval(item.current_period_start as number, interval);
    const invoice = this.payInvoice(sub, 'subscription_cycle');
    this.emit('customer.subscription.updated', sub, previous);
    this.emit('invoice.paid', invoice);
    return sub;
  }

  createPortalSession(form: FormObject): Json {
    const customer = str(form, 'customer');
    if (!customer) throw required('customer');
    this.liveCustomer(customer, 'customer');
    const id = newId('bps');
    const session: Json = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_fake',
      created: this.clock,
      customer,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: str(form, 'return_url') ?? null,
      url: `${this.origin()}/p/session/${id}`,
    };
    this.portalSessions.set(id, session);
    return session;
  }

  subscriptionsOf(customer: string): Json[] {
    return [...this.subscriptions.values()].filter((s) => s.customer === customer);
  }
}
