import { describe, expect, it } from 'vitest';
import type { InsightsWeek } from '#contract/api.js';
import { formatRate, formatWeek, quieterSummary, topSendersSummary, weeklySummary } from './summaries';

const week = (start: string, toReview: number, kept: number, unsubscribed: number): InsightsWeek => ({
  start,
  toReview,
  kept,
  unsubscribed,
});

describe('the charts in words', () => {
  it('sums the weeks by list and names the busiest week', () => {
    const weeks = [
      week('2026-11-02T00:00:00.000Z', 3, 1, 0),
      week('2026-11-09T00:00:00.000Z', 10, 2, 5),
      week('2026-11-16T00:00:00.000Z', 0, 0, 1),
    ];
    expect(weeklySummary(weeks, 0)).toBe(
      'In the last 3 weeks, subscriptions sent you 22 messages: 13 to review, 3 kept and 6 from senders you ' +
        'unsubscribed from or blocked. The busiest week began Nov 9, with 17 messages.',
    );
    expect(weeklySummary(weeks, 1)).toMatch(/ 1 older message has no known date and is not in the chart\.$/);
    expect(weeklySummary([week('2026-11-02T00:00:00.000Z', 0, 0, 0)], 1200)).toBe(
      'No mail from subscriptions in the last 1 week. 1,200 older messages have no known date and are not in the chart.',
    );
  });

  it('reads weeks as UTC Mondays and rates as percentages', () => {
    // Midnight UTC is still Sunday in America: the label is the week's own Monday everywhere.
    expect(formatWeek('2026-11-23T00:00:00.000Z')).toBe('Nov 23');
    expect(formatRate(0.333)).toBe('33%');
    expect(formatRate(null)).toBe('unknown');
  });

  it('names the busiest sender, or says there is none', () => {
    expect(topSendersSummary([])).toBe('No subscription sent you mail in the last 90 days.');
    expect(
      topSendersSummary([
        {
          id: 'a',
          name: '',
          address: 'deals@shop.example',
          category: 'uncategorized',
          messagesPerMonth: 12.3,
          readRate: 0.05,
        },
        { id: 'b', name: 'B', address: 'b@b.example', category: 'kept', messagesPerMonth: 2, readRate: null },
      ]),
    ).toBe(
      'Your 2 busiest senders by mail a month. deals@shop.example sends the most: 12.3 a month, 5% read.',
    );
  });

  it('says how much quieter the inbox got and who still sends', () => {
    const none = {
      senders: [],
      total: 0,
      stillSending: 0,
      known: 0,
      nextKnownInDays: null,
      perMonthBefore: 0,
      perMonthSince: 0,
    };
    expect(quieterSummary(none)).toMatch(/will show here/);
    expect(
      quieterSummary({
        ...none,
        total: 3,
        known: 3,
        stillSending: 1,
        perMonthBefore: 40,
        perMonthSince: 2.5,
      }),
    ).toBe(
      'Since you unsubscribed from or blocked 3 senders, their mail went from 40 to 2.5 a month. ' +
        '1 sender still sends more than 7 days later.',
    );
    expect(
      quieterSummary({
        ...none,
        total: 3,
        known: 2,
        nextKnownInDays: 1,
        perMonthBefore: 4,
        perMonthSince: 0,
      }),
    ).toBe(
      'Since you unsubscribed from or blocked 2 senders, their mail went from 4 to 0 a month. ' +
        "1 more sender was dealt with too recently to tell; we'll know in 1 day.",
    );
  });

  it('makes no claim minutes after an unsubscribe, and says how long until it can', () => {
    const fresh = {
      senders: [],
      total: 1,
      stillSending: 0,
      known: 0,
      nextKnownInDays: 14,
      perMonthBefore: 0,
      perMonthSince: 0,
    };
    const text = quieterSummary(fresh);
    expect(text).toBe(
      "You unsubscribed from or blocked 1 sender too recently to tell whether their mail stopped. We'll know in 14 days.",
    );
    expect(text).not.toMatch(/went from/);
  });
});
