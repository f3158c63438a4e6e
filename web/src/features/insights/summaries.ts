// The text of each chart: what a screen reader announces for its canvas, and the sentence shown above
// it. Every figure a chart draws is also in the table below it; these say what the chart shows at a glance.
import type { InsightsResponse, InsightsTopSender, InsightsWeek } from '#contract/api.js';
import { STILL_SENDING_AFTER_DAYS } from '#contract/api.js';

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const weekOf = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export const formatCount = (n: number) => count.format(n);
/** "Nov 3": the Monday a week starts on (weeks are UTC weeks). */
export const formatWeek = (start: string) => weekOf.format(new Date(start));
export const formatRate = (rate: number | null) => (rate === null ? 'unknown' : `${Math.round(rate * 100)}%`);

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export const weekTotal = (w: InsightsWeek) => w.toReview + w.kept + w.unsubscribed;

export function weeklySummary(weeks: readonly InsightsWeek[], undated: number): string {
  const total = weeks.reduce((sum, w) => sum + weekTotal(w), 0);
  const sum = (key: 'toReview' | 'kept' | 'unsubscribed') => weeks.reduce((s, w) => s + w[key], 0);
  const parts: string[] = [];
  if (total === 0) {
    parts.push(`No mail from subscriptions in the last ${plural(weeks.length, 'week', 'weeks')}.`);
  } else {
    const busiest = weeks.reduce((best, w) => (weekTotal(w) > weekTotal(best) ? w : best));
    parts.push(
      `In the last ${plural(weeks.length, 'week', 'weeks')}, subscriptions sent you ${plural(total, 'message', 'messages')}: ` +
        `${formatCount(sum('toReview'))} to review, ${formatCount(sum('kept'))} kept and ` +
        `${formatCount(sum('unsubscribed'))} from senders you unsubscribed from or blocked.`,
      `The busiest week began ${formatWeek(busiest.start)}, with ${plural(weekTotal(busiest), 'message', 'messages')}.`,
    );
  }
  if (undated > 0) {
    parts.push(
      `${plural(undated, 'older message has', 'older messages have')} no known date and ${undated === 1 ? 'is' : 'are'} not in the chart.`,
    );
  }
  return parts.join(' ');
}

export function topSendersSummary(senders: readonly InsightsTopSender[]): string {
  if (senders.length === 0) return 'No subscription sent you mail in the last 90 days.';
  const [first] = senders;
  return (
    `Your ${senders.length === 1 ? 'busiest sender' : `${senders.length} busiest senders`} by mail a month. ` +
    `${first!.name || first!.address} sends the most: ${formatCount(first!.messagesPerMonth)} a month, ` +
    `${first!.readRate === null ? 'read rate unknown' : `${formatRate(first!.readRate)} read`}.`
  );
}

/** "in 12 days", "in 1 day": when a figure not yet known will be. */
export const inDays = (days: number) => `in ${plural(Math.max(1, days), 'day', 'days')}`;

export function quieterSummary(quieter: InsightsResponse['quieter']): string {
  if (quieter.total === 0)
    return 'Senders you unsubscribe from or block will show here, with their mail before and since.';
  const waiting = quieter.total - quieter.known;
  const parts: string[] = [];
  if (quieter.known > 0) {
    parts.push(
      `Since you unsubscribed from or blocked ${plural(quieter.known, 'sender', 'senders')}, their mail went from ` +
        `${formatCount(quieter.perMonthBefore)} to ${formatCount(quieter.perMonthSince)} a month.`,
    );
  }
  if (waiting > 0 && quieter.nextKnownInDays !== null) {
    // Too soon to say: no mail minutes after an unsubscribe proves nothing (the server's threshold).
    parts.push(
      quieter.known > 0
        ? `${plural(waiting, 'more sender was', 'more senders were')} dealt with too recently to tell; we'll know ${inDays(quieter.nextKnownInDays)}.`
        : `You unsubscribed from or blocked ${plural(waiting, 'sender', 'senders')} too recently to tell whether their mail stopped. We'll know ${inDays(quieter.nextKnownInDays)}.`,
    );
  }
  if (quieter.stillSending > 0) {
    parts.push(
      `${plural(quieter.stillSending, 'sender still sends', 'senders still send')} more than ${STILL_SENDING_AFTER_DAYS} days later.`,
    );
  }
  return parts.join(' ');
}
