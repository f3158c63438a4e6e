// Events (docs.stripe.com/api/events/object) and their delivery to a webhook endpoint
// (docs.stripe.com/webhooks: POST, JSON body, `Stripe-Signature: t=…,v1=…` signed with the endpoint's
// secret — made here with the SDK's own stripe.webhooks.generateTestHeaderString).
import Stripe from 'stripe';
import { newId } from './state.js';
import type { Delivery, Json } from './types.js';

/** Drops the fake's private fields (`_…`) and returns a deep copy, as a snapshot event carries. */
export function snapshot<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key.startsWith('_') ? undefined : v)));
}

export class EventBus {
  readonly events: Json[] = [];
  readonly deliveries: Delivery[] = [];
  private held: Json[] = [];
  private holding: boolean;
  private inFlight = new Set<Promise<void>>();
  private readonly signer = new Stripe('sk_test_signer');

  constructor(
    private webhookUrl: string | undefined,
    private readonly webhookSecret: string,
    private readonly apiVersion: string,
    private readonly clock: () => number,
    holding = false,
  ) {
    this.holding = holding;
  }

  setWebhookUrl(url: string | undefined): void {
    this.webhookUrl = url;
  }

  /** Records an event for a change and sends it (or keeps it while deliveries are held). */
  emit(type: string, object: Json, previous?: Json): Json {
    const event: Json = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: this.clock(),
      data: previous
        ? { object: snapshot(object), previous_attributes: snapshot(previous) }
        : { object: snapshot(object) },
      livemode: false,
      pending_webhooks: this.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    if (this.holding) this.held.push(event);
    else this.send(event);
    return event;
  }

  hold(): void {
    this.holding = true;
  }

  /** Events waiting while held. */
  pending(): Json[] {
    return [...this.held];
  }

  /**
   * Stops holding and sends what was held: in order, reversed, or in the order of the given event ids
   * (ids left out are sent after, in order). Resolves when every delivery has been answered.
   */
  async release(order: 'in-order' | 'reverse' | string[] = 'in-order'): Promise<Delivery[]> {
    this.holding = false;
    let batch = this.held;
    this.held = [];
    if (order === 'reverse') batch = [...batch].reverse();
    else if (Array.isArray(order)) {
      const first = order.map((id) => batch.find((e) => e.id === id)).filter((e): e is Json => !!e);
      batch = [...first, ...batch.filter((e) => !first.includes(e))];
    }
    const start = this.deliveries.length;
    // One after the other, so the receiver sees exactly this order.
    for (const event of batch) await this.send(event);
    return this.deliveries.slice(start);
  }

  /** Sends an already-sent event again (same id, freshly signed), as Stripe's retries and resends do. */
  async redeliver(eventId: string): Promise<Delivery> {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`stripe-fake: no event ${eventId}`);
    await this.send(event);
    return this.deliveries[this.deliveries.length - 1]!;
  }

  /** Resolves once every delivery under way has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** The signed request for an event, for tests that post it themselves. */
  sign(payload: string, timestamp?: number): string {
    return this.signer.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret, timestamp });
  }

  private send(event: Json): Promise<void> {
    const url = this.webhookUrl;
    if (!url) return Promise.resolve();
    const payload = JSON.stringify(event, null, 2);
    const task = (async () => {
      let status = 0;
      let body = '';
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': this.sign(payload),
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        body = await res.text();
      } catch (err) {
        body = String(err);
      }
      this.deliveries.push({
        eventId: event.id as string,
        type: event.type as string,
        status,
        body,
        at: Date.now(),
      });
    })();
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
    return task;
  }
}
