// Hosted pages a browser test can click through, standing in for Stripe Checkout
// (docs.stripe.com/payments/checkout: pay, or go back to cancel_url; on success Stripe redirects to
// success_url with {CHECKOUT_SESSION_ID} replaced) and the customer portal
// (docs.stripe.com/customer-management: cancel at period end or at once, then return to return_url).
// Plain HTML forms, no script: a plain fetch of the form's action works as well as a click.
import { parseForm } from './form.js';
import type { StripeState } from './state.js';
import { type Json, StripeFakeError } from './types.js';

export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(title: string, body: string, status = 200): PageResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
.card{border:1px solid #e3e8ee;border-radius:8px;padding:1.5rem}button,a.button{display:block;width:100%;box-sizing:border-box;margin-top:.75rem;padding:.7rem;border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff;font-size:1rem;text-align:center;text-decoration:none;cursor:pointer}
button.secondary,a.secondary{background:#fff;color:#635bff}.muted{color:#697386}</style></head>
<body><p class="muted">Test mode · stripe-fake</p><div class="card">${body}</div></body></html>`,
  };
}

const redirect = (location: string): PageResponse => ({ status: 303, headers: { location }, body: '' });

function planLine(price: Json): string {
  const amount = ((price.unit_amount as number) / 100).toFixed(2);
  const interval = (price.recurring as { interval: string }).interval;
  return `${esc(price.nickname)} — $${amount} per ${esc(interval)}`;
}

const date = (seconds: unknown) => new Date((seconds as number) * 1000).toISOString().slice(0, 10);

export class HostedPages {
  constructor(private readonly state: StripeState) {}

  handle(method: string, path: string, body: string): PageResponse | undefined {
    const pay = path.match(/^\/c\/pay\/([^/]+)$/);
    if (pay) return method === 'POST' ? this.pay(pay[1]!) : this.checkoutPage(pay[1]!);
    const portal = path.match(/^\/p\/session\/([^/]+)(?:\/([a-z-]+))?$/);
    if (portal && method === 'GET' && !portal[2]) return this.portalPage(portal[1]!);
    if (portal && method === 'POST' && portal[2])
      return this.portalAction(portal[1]!, portal[2], parseForm(body));
    return undefined;
  }

  private checkoutPage(id: string): PageResponse {
    const session = this.state.sessions.get(id);
    if (!session)
      return html('Not found', '<h1>Something went wrong</h1><p>This page was not found.</p>', 404);
    if (session.status !== 'open') {
      return html('Checkout', `<h1>This Checkout Session is ${esc(session.status)}</h1>`, 410);
    }
    const price = this.state.prices.get((session._line as { price: string }).price)!;
    const customer = session.customer ? this.state.customers.get(session.customer as string) : undefined;
    const cancel = session.cancel_url
      ? `<a class="button secondary" href="${esc(session.cancel_url)}">Cancel</a>`
      : '';
    return html(
      'Checkout',
      `<h1>Subscribe</h1><p data-testid="plan">${planLine(price)}</p>
<p class="muted">${esc(customer?.email ?? session.customer_email ?? '')}</p>
<p class="muted">Card 4242 4242 4242 4242 (test)</p>
<form method="post" action="/c/pay/${esc(id)}"><button type="submit">Pay</button></form>${cancel}`,
    );
  }

  private pay(id: string): PageResponse {
    try {
      const session = this.state.completeCheckout(id);
      return redirect((session.success_url as string).replaceAll('{CHECKOUT_SESSION_ID}', id));
    } catch (err) {
      if (err instanceof StripeFakeError)
        return html('Checkout', `<h1>${esc(err.message)}</h1>`, err.body.status);
      throw err;
    }
  }

  private currentSubscription(customer: string): Json | undefined {
    const subs = this.state.subscriptionsOf(customer).reverse();
    return subs.find((s) => s.status !== 'canceled') ?? subs[0];
  }

  private portalPage(id: string): PageResponse {
    const session = this.state.portalSessions.get(id);
    if (!session) return html('Not found', '<h1>This portal session was not found.</h1>', 404);
    const sub = this.currentSubscription(session.customer as string);
    const back = session.return_url
      ? `<form method="post" action="/p/session/${esc(id)}/return"><button type="submit" class="secondary">Return</button></form>`
      : '';
    if (!sub) return html('Billing', `<h1>Current plan</h1><p>No subscription.</p>${back}`);
    const item = (sub.items as { data: Json[] }).data[0]!;
    const action = (name: string, label: string, cls = '') =>
      `<form method="post" action="/p/session/${esc(id)}/${name}"><button type="submit"${cls ? ` class="${cls}"` : ''}>${label}</button></form>`;
    let state: string;
    let buttons: string;
    if (sub.status === 'canceled') {
      state = `Canceled on ${date(sub.ended_at)}`;
      buttons = '';
    } else if (sub.cancel_at_period_end) {
      state = `Cancels on ${date(item.current_period_end)}`;
      buttons = action('renew', 'Renew plan') + action('cancel-now', 'Cancel now', 'secondary');
    } else {
      state = `Renews on ${date(item.current_period_end)}`;
      buttons =
        action('cancel-at-period-end', 'Cancel at period end') +
        action('cancel-now', 'Cancel now', 'secondary');
    }
    return html(
      'Billing',
      `<h1>Current plan</h1><p data-testid="plan">${planLine(item.price as Json)}</p>
<p data-testid="status">${esc(sub.status)} · ${esc(state)}</p>${buttons}${back}`,
    );
  }

  private portalAction(id: string, action: string, _form: Json): PageResponse {
    const session = this.state.portalSessions.get(id);
    if (!session) return html('Not found', '<h1>This portal session was not found.</h1>', 404);
    if (action === 'return') return redirect((session.return_url as string | null) ?? `/p/session/${id}`);
    const sub = this.currentSubscription(session.customer as string);
    if (!sub) return redirect(`/p/session/${id}`);
    const subId = sub.id as string;
    try {
      if (action === 'cancel-at-period-end') this.state.setCancelAtPeriodEnd(subId, true);
      else if (action === 'renew') this.state.setCancelAtPeriodEnd(subId, false);
      else if (action === 'cancel-now') this.state.cancelNow(subId);
      else return html('Not found', '<h1>Unknown action.</h1>', 404);
    } catch (err) {
      if (!(err instanceof StripeFakeError)) throw err;
    }
    return redirect(`/p/session/${id}`);
  }
}
