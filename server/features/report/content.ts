import type {
  MovedSender,
  MoveGroup,
  NewSubscription,
  QuietedSender,
  StillSendingSender,
} from './repository.js';
import { PACE_WINDOW_MS } from './repository.js';
import type { Week } from './week.js';

// What one weekly report says, as data: rendered to text and HTML by render.ts.

const DAY = 86_400_000;
/** An average month (365.25 / 12 days), the unit of "messages a month". */
export const MONTH_MS = 30.4375 * DAY;

export interface MailAvoided {
  /** The estimate, rounded to a whole message. */
  messages: number;
  /** The unsubscribed or blocked senders it is made of. */
  senders: number;
}

/**
 * The mail avoided since joining, estimated: each unsubscribed (or blocked) sender's pace before the
 * action (its messages in the 90 days before, over 3 months: as the list's messagesPerMonth), times the
 * months since the action, less the messages that came anyway since. Never below zero per sender. An
 * estimate, said as one: a sender whose pace would have changed, or who was younger than 90 days, counts
 * as it was.
 */
export function mailAvoided(senders: readonly QuietedSender[], now: number): MailAvoided {
  let total = 0;
  for (const s of senders) {
    const perMonth = s.before / (PACE_WINDOW_MS / MONTH_MS);
    const months = Math.max(0, now - s.unsubscribedAt) / MONTH_MS;
    total += Math.max(0, perMonth * months - s.since);
  }
  return { messages: Math.round(total), senders: senders.length };
}

export interface ReportContent {
  week: Week;
  newSubscriptions: { total: number; listed: NewSubscription[] };
  moves: MoveGroup[];
  movedSenders: MovedSender[];
  stillSending: { total: number; listed: StillSendingSender[] };
  avoided: MailAvoided;
}

export interface ReportLinks {
  /** The subscription list (new subscriptions to review). */
  subscriptions: string;
  /** The unsubscribed senders (where Block is). */
  unsubscribed: string;
  rules: string;
  settings: string;
  /** The page that turns the report off after a click (GET shows it; its button POSTs). */
  unsubscribe: string;
}
