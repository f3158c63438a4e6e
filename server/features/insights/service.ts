import {
  INSIGHTS_QUIETER_LIMIT,
  INSIGHTS_TOP_SENDERS,
  INSIGHTS_WEEKS,
  type InsightsQuieterSender,
  type InsightsResponse,
  type InsightsWeek,
  STILL_SENDING_AFTER_DAYS,
} from '#contract/api.js';
import { createStampedCache } from '#server/lib/stamped-cache.js';
import type { InsightsRepository, QuieterRow } from './repository.js';

// The Insights screen's figures (docs/decisions/083-insights.md). Working them out reads every dated
// reference of the user's last six months; the answer is kept per user and given again while the user's
// senders have not changed (db/senders-stamp.ts: a scan's or check's upsert and every category change move it)
// and for at most CACHE_TTL_MS, which bounds how stale read rates (recounted without a stamp) can get.

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** The window "messages a month" is counted over, as on the list (scans/repository.ts RECENT_WINDOW_MS). */
const BEFORE_WINDOW_MS = 90 * DAY_MS;
const CACHE_TTL_MS = 60_000;
/**
 * Days after an unsubscribe or a block before "mail since" is shown (docs/decisions/105-words-that-cannot-be-misread.md).
 * Senders have 10 business days to honour an opt-out (CAN-SPAM), about two weeks, and a weekly list sends
 * at most twice in that time: before then, no mail since proves nothing, and minutes after an unsubscribe
 * "went from 23.7 to 0 a month" would be a claim the product cannot make.
 */
export const QUIETER_KNOWN_AFTER_DAYS = 14;
const CACHE_USERS = 1_000;

/** Monday 00:00 UTC of the week holding `at` (1970-01-01 was a Thursday). */
export function weekStart(at: number): number {
  const day = Math.floor(at / DAY_MS);
  const sinceMonday = (((day + 3) % 7) + 7) % 7;
  return (day - sinceMonday) * DAY_MS;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** A sender's monthly figures before and since its action, as the contract defines them. */
export function quieterSender(row: QuieterRow, now: number): InsightsQuieterSender {
  const sinceMs = Math.max(30 * DAY_MS, now - row.actedAt);
  const knownAt = row.actedAt + QUIETER_KNOWN_AFTER_DAYS * DAY_MS;
  // Whole days, rounded up: "in 1 day" until the very moment it is known.
  const knownInDays = Math.max(0, Math.ceil((knownAt - now) / DAY_MS));
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    actedAt: new Date(row.actedAt).toISOString(),
    blocked: row.blocked,
    perMonthBefore: oneDecimal(row.before / 3),
    perMonthSince: knownInDays > 0 ? null : oneDecimal((row.since * 30 * DAY_MS) / sinceMs),
    knownInDays,
    messagesSince: row.since,
    stillSending: row.late > 0,
  };
}

export function createInsightsService({
  repo,
  now = Date.now,
}: {
  repo: InsightsRepository;
  now?: () => number;
}) {
  const cache = createStampedCache<InsightsResponse>({ ttlMs: CACHE_TTL_MS, maxEntries: CACHE_USERS, now });

  async function compute(userId: string, at: number): Promise<InsightsResponse> {
    const first = weekStart(at) - (INSIGHTS_WEEKS - 1) * WEEK_MS;
    const [counts, undated, top, quiet] = await Promise.all([
      repo.weekly(userId, first, INSIGHTS_WEEKS, WEEK_MS),
      repo.undated(userId),
      repo.topSenders(userId, INSIGHTS_TOP_SENDERS),
      repo.quieter(userId, BEFORE_WINDOW_MS, STILL_SENDING_AFTER_DAYS * DAY_MS),
    ]);
    const weeks: InsightsWeek[] = Array.from({ length: INSIGHTS_WEEKS }, (_, i) => ({
      start: new Date(first + i * WEEK_MS).toISOString(),
      toReview: 0,
      kept: 0,
      unsubscribed: 0,
    }));
    for (const c of counts) {
      const week = weeks[c.week];
      if (!week) continue;
      if (c.category === 'uncategorized') week.toReview += c.messages;
      else week[c.category] += c.messages;
    }
    const senders = quiet.map((r) => quieterSender(r, at));
    const known = senders.filter((s) => s.perMonthSince !== null);
    const nextKnownInDays = senders.reduce<number | null>(
      (next, s) =>
        s.perMonthSince === null && (next === null || s.knownInDays < next) ? s.knownInDays : next,
      null,
    );
    senders.sort(
      (a, b) =>
        Number(b.stillSending) - Number(a.stillSending) ||
        b.perMonthBefore - a.perMonthBefore ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );
    return {
      generatedAt: new Date(at).toISOString(),
      weeks,
      undatedMessages: undated,
      topSenders: top.map((s) => ({
        id: s.id,
        name: s.name,
        address: s.address,
        category: s.category,
        messagesPerMonth: oneDecimal(s.recentCount / 3),
        readRate: s.readKnown > 0 ? Math.min(1, s.readCount / s.readKnown) : null,
      })),
      quieter: {
        senders: senders.slice(0, INSIGHTS_QUIETER_LIMIT),
        total: senders.length,
        stillSending: senders.filter((s) => s.stillSending).length,
        // The totals compare like with like: only the senders whose mail since is known.
        known: known.length,
        nextKnownInDays,
        perMonthBefore: oneDecimal(known.reduce((sum, s) => sum + s.perMonthBefore, 0)),
        perMonthSince: oneDecimal(known.reduce((sum, s) => sum + (s.perMonthSince ?? 0), 0)),
      },
    };
  }

  return {
    async get(userId: string): Promise<InsightsResponse> {
      // The week is part of the stamp: a new Monday starts a new window whatever the senders did.
      const at = now();
      const stamp = `${await repo.stamp(userId)}:${weekStart(at)}`;
      return cache.get(userId, stamp, () => compute(userId, at));
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
