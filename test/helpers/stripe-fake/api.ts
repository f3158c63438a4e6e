// The /v1 API: authentication (docs.stripe.com/api/authentication), errors (/api/errors), idempotent
// requests (/api/idempotent_requests), expanding responses (/api/expanding_objects), pagination
// (/api/pagination) and the endpoints a subscription product calls.
import { createHash } from 'node:crypto';
import { snapshot } from './events.js';
import { type FormObject, list, parseForm, str, stringMap } from './form.js';
import { newId, type StripeState } from './state.js';
import { type FakeError, invalid, type Json, missing, StripeFakeError } from './types.js';

export interface ApiRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Saved {
  fingerprint: string;
  response: ApiResponse;
}

export class StripeApi {
  private readonly idempotent = new Map<string, Saved>();
  /** Every API call answered, for tests that check what the product asked (method, path, params). */
  readonly requests: { method: string; path: string; params: FormObject; status: number }[] = [];

  constructor(
    private readonly state: StripeState,
    private readonly secretKey: string,
    private readonly apiVersion: string,
  ) {}

  handle(req: ApiRequest): ApiResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': newId('req', 14),
      'stripe-version': header(req, 'stripe-version') ?? this.apiVersion,
    };
    const auth = header(req, 'authorization');
    const key = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
    if (key !== this.secretKey) {
      const message = key
        ? `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
      headers['www-authenticate'] = 'Bearer realm="Stripe"';
      return errorResponse(headers, { status: 401, type: 'invalid_request_error', message });
    }
    const params = parseForm(req.method === 'GET' || req.method === 'DELETE' ? req.query : req.body);
    const idemKey = req.method === 'POST' ? header(req, 'idempotency-key') : undefined;
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.path}\n${JSON.stringify(params)}`)
      .digest('hex');
    if (idemKey) {
      headers['idempotency-key'] = idemKey;
      const saved = this.idempotent.get(idemKey);
      if (saved && saved.fingerprint !== fingerprint) {
        return errorResponse(headers, {
          status: 400,
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
        });
      }
      if (saved) {
        return {
          ...saved.response,
          headers: { ...saved.response.headers, ...headers, 'idempotent-replayed': 'true' },
        };
      }
    }
    let response: ApiResponse;
    try {
      const object = this.route(req.method, req.path, params);
      response = {
        status: 200,
        headers,
        body: JSON.stringify(this.expand(snapshot(object), params), null, 2),
      };
    } catch (err) {
      if (!(err instanceof StripeFakeError)) throw err;
      response = errorResponse(headers, err.body);
    }
    this.requests.push({ method: req.method, path: req.path, params, status: response.status });
    // Stripe saves a result once the endpoint has begun executing; failed validation (4xx) is not saved.
    if (idemKey && (response.status < 400 || response.status >= 500)) {
      this.idempotent.set(idemKey, { fingerprint, response });
    }
    return response;
  }

  private route(method: string, path: string, p: FormObject): Json {
    const s = this.state;
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // ['v1', …]
    const [, a, b, c] = parts;
    const is = (m: string, n: number) => method === m && parts.length === n;
    if (a === 'prices' && b && is('GET', 3)) return s.get(s.prices, 'price', b);
    if (a === 'customers' && is('POST', 2)) return s.createCustomer(p);
    if (a === 'customers' && b && is('GET', 3)) return s.get(s.customers, 'customer', b);
    if (a === 'customers' && b && is('DELETE', 3)) return s.deleteCustomer(b);
    if (a === 'checkout' && b === 'sessions' && is('POST', 3)) return s.createCheckoutSession(p);
    if (a === 'checkout' && b === 'sessions' && is('GET', 3)) return s.listCheckoutSessions(p);
    if (a === 'checkout' && b === 'sessions' && c && parts[4] === 'expire' && is('POST', 5))
      return s.expireCheckoutSession(c);
    if (a === 'checkout' && b === 'sessions' && c && is('GET', 4))
      return s.get(s.sessions, 'checkout.session', c);
    if (a === 'billing_portal' && b === 'sessions' && is('POST', 3)) return s.createPortalSession(p);
    if (a === 'subscriptions' && is('GET', 2)) return this.listSubscriptions(p);
    if (a === 'subscriptions' && b && is('GET', 3)) return s.get(s.subscriptions, 'subscription', b);
    if (a === 'subscriptions' && b && is('POST', 3)) return this.updateSubscription(b, p);
    if (a === 'subscriptions' && b && is('DELETE', 3)) return this.cancelSubscription(b, p);
    if (a === 'invoices' && b && is('GET', 3)) return s.get(s.invoices, 'invoice', b);
    if (a === 'events' && b && is('GET', 3)) {
      const event = this.events().find((e) => e.id === b);
      if (!event) throw missing('event', b);
      return event;
    }
    throw new StripeFakeError({
      status: 404,
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  /** Set by index.ts: the bus's event list (GET /v1/events/:id). */
  events: () => Json[] = () => [];

  private updateSubscription(id: string, p: FormObject): Json {
    const sub = this.state.get(this.state.subscriptions, 'subscription', id);
    if (p.metadata !== undefined) sub.metadata = { ...(sub.metadata as Json), ...stringMap(p.metadata) };
    const cancel = str(p, 'cancel_at_period_end');
    if (cancel !== undefined) {
      if (cancel !== 'true' && cancel !== 'false')
        throw invalid('cancel_at_period_end', `Invalid boolean: ${cancel}`);
      return this.state.setCancelAtPeriodEnd(id, cancel === 'true');
    }
    return sub;
  }

  /** DELETE /v1/subscriptions/:id: `prorate` and `invoice_now` (both or neither in this fake). */
  private cancelSubscription(id: string, p: FormObject): Json {
    const flag = (name: string): boolean => {
      const value = str(p, name);
      if (value === undefined) return false;
      if (value !== 'true' && value !== 'false') throw invalid(name, `Invalid boolean: ${value}`);
      return value === 'true';
    };
    const prorate = flag('prorate');
    if (prorate !== flag('invoice_now'))
      throw invalid('prorate', 'This fake supports prorate only together with invoice_now.');
    return this.state.cancelNow(id, 'cancellation_requested', { prorate });
  }

  private listSubscriptions(p: FormObject): Json {
    const status = str(p, 'status');
    const customer = str(p, 'customer');
    const price = str(p, 'price');
    const limit = Number(str(p, 'limit') ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw invalid('limit', `Invalid integer: ${limit}`);
    let all = [...this.state.subscriptions.values()].reverse(); // newest first, as Stripe lists
    if (customer) all = all.filter((sub) => sub.customer === customer);
    if (price)
      all = all.filter((sub) =>
        (sub.items as { data: Json[] }).data.some((i) => (i.price as Json).id === price),
      );
    // Without a status, canceled subscriptions are left out; `all` includes them.
    if (!status) all = all.filter((sub) => sub.status !== 'canceled');
    else if (status !== 'all') all = all.filter((sub) => sub.status === status);
    const after = str(p, 'starting_after');
    if (after) all = all.slice(all.findIndex((sub) => sub.id === after) + 1);
    return {
      object: 'list',
      data: all.slice(0, limit),
      has_more: all.length > limit,
      url: '/v1/subscriptions',
    };
  }

  /** `expand[]=a.b`: replaces an id at that path with its object (through `data` of lists). */
  private expand(object: Json, p: FormObject): Json {
    for (const path of list(p.expand)) {
      if (typeof path !== 'string') continue;
      if (path === 'line_items' && object.object === 'checkout.session') {
        const line = this.state.sessions.get(object.id as string)?._line as {
          price: string;
          quantity: number;
        };
        const price = this.state.prices.get(line.price)!;
        const amount = (price.unit_amount as number) * line.quantity;
        object.line_items = {
          object: 'list',
          data: [
            {
              id: newId('li'),
              object: 'item',
              amount_subtotal: amount,
              amount_total: amount,
              currency: 'usd',
              price,
              quantity: line.quantity,
            },
          ],
          has_more: false,
          url: `/v1/checkout/sessions/${object.id}/line_items`,
        };
        continue;
      }
      this.expandPath(object, path.split('.'), path);
    }
    return object;
  }

  private expandPath(node: Json, segs: string[], full: string): void {
    const head = segs[0]!;
    const rest = segs.slice(1);
    if (node.object === 'list' && head === 'data') {
      for (const item of node.data as Json[]) if (rest.length) this.expandPath(item, rest, full);
      return;
    }
    const value = node[head];
    if (rest.length > 0) {
      if (value && typeof value === 'object') this.expandPath(value as Json, rest, full);
      else if (value !== null) throw invalid('expand', `This property cannot be expanded (${full}).`);
      return;
    }
    if (value === null || (typeof value === 'object' && value !== null)) return;
    const found = typeof value === 'string' ? this.lookup(value) : undefined;
    if (!found) throw invalid('expand', `This property cannot be expanded (${full}).`);
    node[head] = snapshot(found);
  }

  private lookup(id: string): Json | undefined {
    const s = this.state;
    for (const map of [s.customers, s.subscriptions, s.invoices, s.prices, s.sessions]) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  }
}

function header(req: ApiRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function errorResponse(headers: Record<string, string>, e: FakeError): ApiResponse {
  const error: Json = { type: e.type, message: e.message };
  if (e.code) error.code = e.code;
  if (e.param) error.param = e.param;
  if (e.code) error.doc_url = `https://stripe.com/docs/error-codes/${e.code.replaceAll('_', '-')}`;
  return { status: e.status, headers, body: JSON.stringify({ error }, null, 2) };
}
