import { z } from 'zod';
import { subscriptionCategorySchema } from './subscriptions.js';

// GET /insights: the figures behind the Insights screen's three charts, from what the product stores
// (message references' dates and read flags, senders' categories and when they were acted on; never
// bodies). Weeks are UTC weeks starting on Monday. docs/decisions/083-insights.md says how each figure is
// counted and what it cannot see (Gmail's undated references).

/** Weeks of the first chart: the current week and the 25 before it (about six months). */
export const INSIGHTS_WEEKS = 26;
/** Senders of the second chart. */
export const INSIGHTS_TOP_SENDERS = 10;
/** Senders listed under "Quieter since" (the totals cover all of them). */
export const INSIGHTS_QUIETER_LIMIT = 100;
/** Days after the action from which a sender's mail counts as "still sending". */
export const STILL_SENDING_AFTER_DAYS = 7;

export const insightsWeekSchema = z.object({
  /** Monday 00:00 UTC of the week, ISO 8601. */
  start: z.string(),
  /** Mail of senders in each category, by the category they are in now. */
  toReview: z.number().int().min(0),
  kept: z.number().int().min(0),
  unsubscribed: z.number().int().min(0),
});
export type InsightsWeek = z.infer<typeof insightsWeekSchema>;

export const insightsTopSenderSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  category: subscriptionCategorySchema,
  /** As on the list: the mail of the last 90 days, a third of it. */
  messagesPerMonth: z.number().min(0),
  readRate: z.number().min(0).max(1).nullable(),
});
export type InsightsTopSender = z.infer<typeof insightsTopSenderSchema>;

export const insightsQuieterSenderSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  /** When the user unsubscribed or blocked it. */
  actedAt: z.string(),
  /** A block rule is in place (its mail goes to the trash). */
  blocked: z.boolean(),
  /** The 90 days before the action, a third of it. */
  perMonthBefore: z.number().min(0),
  /**
   * Since the action, per 30 days (over at least 30 days, so two days' mail is not extrapolated); null
   * until the action is old enough for the figure to mean something (`knownInDays`).
   */
  perMonthSince: z.number().min(0).nullable(),
  /**
   * Whole days until `perMonthSince` is known; 0 once it is. The server decides how long that is
   * (server/features/insights/service.ts QUIETER_KNOWN_AFTER_DAYS,
   * docs/decisions/105-words-that-cannot-be-misread.md).
   */
  knownInDays: z.number().int().min(0),
  messagesSince: z.number().int().min(0),
  /** Mail arrived more than STILL_SENDING_AFTER_DAYS days after the action. */
  stillSending: z.boolean(),
});
export type InsightsQuieterSender = z.infer<typeof insightsQuieterSenderSchema>;

export const insightsResponseSchema = z.object({
  generatedAt: z.string(),
  weeks: z.array(insightsWeekSchema),
  /** References the first chart cannot place: no date is known (most are Gmail mail from before joining). */
  undatedMessages: z.number().int().min(0),
  topSenders: z.array(insightsTopSenderSchema),
  quieter: z.object({
    /** Still-sending senders first, then the ones that sent the most before. */
    senders: z.array(insightsQuieterSenderSchema),
    /** Every unsubscribed or blocked sender, of which `senders` lists at most INSIGHTS_QUIETER_LIMIT. */
    total: z.number().int().min(0),
    stillSending: z.number().int().min(0),
    /** Senders whose mail since is known (acted on long enough ago); the two totals cover these only. */
    known: z.number().int().min(0),
    /** Whole days until the next sender's mail since is known; null when every one is known. */
    nextKnownInDays: z.number().int().min(0).nullable(),
    perMonthBefore: z.number().min(0),
    perMonthSince: z.number().min(0),
  }),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;
