// What the plan cards and the Billing screen say (docs/product.md §1, §3, §9), kept pure so that the
// amounts, the savings and the trial's use can be tested without a browser.
import type { BillingState, Price } from '#contract/api.js';
import { FREE_TRIAL } from '#contract/billing.js';

export type Interval = Price['recurring']['interval'];

/** The prices by interval; the first one the server lists for each. */
export interface PlanPrices {
  month: Price | null;
  year: Price | null;
}

export function pricesByInterval(prices: readonly Price[]): PlanPrices {
  return {
    month: prices.find((p) => p.recurring.interval === 'month') ?? null,
    year: prices.find((p) => p.recurring.interval === 'year') ?? null,
  };
}

/** docs/product.md §3: unit_amount / 100 with two decimals, in the price's currency ("$9.99"). */
export function formatAmount(unitAmount: number, currency = 'usd'): string {
  const amount = unitAmount / 100;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    // An unknown currency code: the amount alone, still two decimals.
    return amount.toFixed(2);
  }
}

/** "$9.99 / month", "$99.99 / year". */
export function priceLabel(price: Price): string {
  return `${formatAmount(price.unit_amount, price.currency)} / ${price.recurring.interval}`;
}

/**
 * Whole percent saved by paying yearly instead of twelve months, rounded; null when there is nothing
 * saved or a price is missing (or the two are in different currencies).
 */
export function yearlySavingsPercent(month: Price | null, year: Price | null): number | null {
  if (!month || !year || month.currency !== year.currency) return null;
  const twelveMonths = month.unit_amount * 12;
  if (twelveMonths <= 0 || year.unit_amount >= twelveMonths) return null;
  const percent = Math.round(((twelveMonths - year.unit_amount) / twelveMonths) * 100);
  return percent > 0 ? percent : null;
}

export const PLAN_NAMES: Record<Interval, string> = { month: 'Monthly', year: 'Yearly' };

/** GA4 begin_checkout (docs/product.md §7): USD, the price in dollars, Monthly_Plan or Yearly_Plan. */
export function beginCheckoutParams(interval: Interval, price: Price | null) {
  const name = PLAN_NAMES[interval];
  const value = price ? price.unit_amount / 100 : undefined;
  return {
    currency: 'USD',
    ...(value === undefined ? {} : { value }),
    coupon: `${name}_Plan`,
    items: [
      {
        ...(price ? { item_id: price.id } : {}),
        item_name: `Inbox Genie Premium (${name})`,
        ...(value === undefined ? {} : { price: value }),
      },
    ],
  };
}

/** The free trial's card (docs/product.md §9). */
export const FREE_TRIAL_FEATURES = [
  `${FREE_TRIAL.mailboxes} mailbox`,
  `${FREE_TRIAL.unsubscribes} free unsubscribes`,
  'Initial load of your subscriptions',
] as const;

export const PREMIUM_FEATURES = [
  'Several mailboxes',
  'Unlimited unsubscribes',
  'Keep, block and organise without limits',
] as const;

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** The trial's use on the Billing screen: "3 of 10 free unsubscribes used", "1 of 1 mailbox". */
export function usageLines(usage: BillingState['usage']): string[] {
  const lines: string[] = [];
  if (usage.unsubscribesLimit !== null) {
    lines.push(
      `${usage.unsubscribesUsed} of ${usage.unsubscribesLimit} free ${plural(usage.unsubscribesLimit, 'unsubscribe', 'unsubscribes')} used`,
    );
  }
  if (usage.mailboxesLimit !== null) {
    lines.push(
      `${usage.mailboxes} of ${usage.mailboxesLimit} ${plural(usage.mailboxesLimit, 'mailbox', 'mailboxes')}`,
    );
  }
  return lines;
}

/** Beside the list while the trial limits: "3 free unsubscribes left", "No free unsubscribes left". */
export function freeLeftText(left: number): string {
  if (left <= 0) return 'No free unsubscribes left';
  return `${left} free ${plural(left, 'unsubscribe', 'unsubscribes')} left`;
}

/**
 * A bulk Unsubscribe's confirmation while the trial limits: how many of the `count` selected senders will
 * run ("3 of the 5 will run: 3 free unsubscribes left. The rest need a plan."); the rest end as "needs a
 * plan" (a 402 per sender).
 */
export function bulkRunText(count: number, left: number): string {
  if (left <= 0) {
    return count === 1
      ? 'It will not run: no free unsubscribes left. It needs a plan.'
      : `None of the ${count} will run: no free unsubscribes left. They need a plan.`;
  }
  if (left >= count) return `${count === 1 ? 'It' : `All ${count}`} will run: ${freeLeftText(left)}.`;
  return `${left} of the ${count} will run: ${freeLeftText(left)}. The rest need a plan.`;
}

/** A date in US English, e.g. "March 4, 2026"; null for a missing or unreadable one. */
export function usDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** "Renews on March 4, 2026", or "Ends on …" when the plan was cancelled at the period's end. */
export function periodLine(
  state: Pick<BillingState, 'currentPeriodEnd' | 'cancelAtPeriodEnd'>,
): string | null {
  const date = usDate(state.currentPeriodEnd);
  if (!date) return null;
  return `${state.cancelAtPeriodEnd ? 'Ends' : 'Renews'} on ${date}`;
}

/** "Premium (Monthly)"; "Premium" when the interval is unknown. */
export function premiumName(interval: Interval | null): string {
  return interval ? `Premium (${PLAN_NAMES[interval]})` : 'Premium';
}

/** A payment not yet confirmed on return from Checkout: the state is asked every 2 s for up to 30 s. */
export const CHECKOUT_POLL_MS = 2000;
export const CHECKOUT_POLL_LIMIT_MS = 30_000;

export type CheckoutReturn = 'success' | 'pending' | null;

export function checkoutReturn(params: URLSearchParams): CheckoutReturn {
  const value = params.get('checkout');
  return value === 'success' || value === 'pending' ? value : null;
}

/** The Billing query's interval while a payment is confirmed: every 2 s until premium or 30 s passed. */
export function pendingPollInterval(
  startedAt: number | null,
  now: number,
  plan: BillingState['plan'] | undefined,
): number | false {
  if (startedAt === null || plan === 'premium') return false;
  return now - startedAt < CHECKOUT_POLL_LIMIT_MS ? CHECKOUT_POLL_MS : false;
}
