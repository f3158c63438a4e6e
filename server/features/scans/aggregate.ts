import { detectSubscription, parseFrom, type Sender } from '#server/mail/headers/detect.js';
import { parseListPost } from '#server/mail/headers/list-post.js';
import type { MessageHeaders } from '#server/mail/provider.js';
import { listIdentifier } from '../subscriptions/brand.js';

// Folds one batch of message headers into per-sender tallies, so the repository writes one row
// per sender per batch instead of one per message.

export interface SenderTally {
  address: string;
  /** Display name of the newest message seen in the batch. */
  name: string;
  count: number;
  /** Messages carrying list evidence: a usable List-Unsubscribe, List-Id or Precedence bulk/list. */
  listCount: number;
  lastMessageAt: number | null;
  /** The batch alone makes the sender a subscription (isListSender). */
  isSubscription: boolean;
  listSignal: boolean;
  /** Unsubscribe URIs of the newest message of the batch that had any. */
  unsubscribe: { http: string[]; mailto: string[]; oneClick: boolean; seenAt: number | null } | null;
  /**
   * The discussion list the sender's mail came through: the List-Post address of the newest message of
   * the batch that had one (never the sender's own address: a list writing as itself is not "via" it).
   */
  via: { address: string; seenAt: number | null } | null;
  /** The List-Id identifier of the newest message of the batch that had one (groups the list's brand). */
  listId: { id: string; seenAt: number | null } | null;
  messages: Array<{
    id: string;
    folder: string;
    subject: string;
    date: number | null;
    /** 1 read, 0 unread, null unknown (messages.seen). */
    seen: number | null;
  }>;
}

/**
 * The detection rule over a sender's messages (docs/decisions/012-senders-subscriptions-and-stored-mail.md): list evidence, and either no message without it (a new newsletter is listed from its
 * first message) or at least two with it (a newsletter that also sends personal notes). A From is easily
 * forged, so one list message among personal mail does not turn a correspondent into a subscription.
 */
export function isListSender(count: number, listCount: number): boolean {
  return listCount > 0 && (listCount === count || listCount >= 2);
}

/**
 * isListSender as an SQL condition over two integer expressions: the upsert of a batch applies it to a
 * sender's running totals (scans/batch-repository.ts). list-sender.test.ts runs both over the same cases.
 */
export function listSenderSql(count: string, listCount: string): string {
  return `${listCount} > 0 and (${listCount} = ${count} or ${listCount} >= 2)`;
}

const newer = (a: number | null, b: number | null) =>
  (a ?? Number.NEGATIVE_INFINITY) > (b ?? Number.NEGATIVE_INFINITY);

/**
 * `fromCache` maps raw From values to senders across the batches of one scan: mailing lists send
 * with the same From every time, so the address parser runs once per distinct value.
 */
export function tallyBatch(
  messages: ReadonlyArray<MessageHeaders>,
  fromCache: Map<string, Sender | null> = new Map(),
): Map<string, SenderTally> {
  const tallies = new Map<string, SenderTally>();
  const readFrom = (raw: string | null): Sender | null => {
    const key = raw ?? '';
    let sender = fromCache.get(key);
    if (sender === undefined) {
      sender = parseFrom(key);
      fromCache.set(key, sender);
    }
    return sender;
  };
  for (const message of messages) {
    const detection = detectSubscription(message.fields, readFrom);
    const sender = detection.sender;
    if (!sender) continue;
    const { address, name } = sender;
    let tally = tallies.get(address);
    if (!tally) {
      tally = {
        address,
        name,
        count: 0,
        listCount: 0,
        lastMessageAt: message.date,
        isSubscription: false,
        listSignal: false,
        unsubscribe: null,
        via: null,
        listId: null,
        messages: [],
      };
      tallies.set(address, tally);
    }
    tally.count += 1;
    if (tally.count > 1 && newer(message.date, tally.lastMessageAt)) {
      tally.lastMessageAt = message.date;
      tally.name = name;
    }
    tally.listSignal ||= detection.listSignal;
    // The detection parses List-Unsubscribe only when read: for list evidence when no List-Id or
    // Precedence said so already, for the links while the sender has none or when this message is newer.
    if (detection.isListMail) tally.listCount += 1;
    const newerLinks = !tally.unsubscribe || newer(message.date, tally.unsubscribe.seenAt);
    if (newerLinks && detection.isNewsletter) {
      tally.unsubscribe = {
        http: detection.httpsUrls,
        mailto: detection.mailto,
        oneClick: detection.oneClick,
        seenAt: message.date,
      };
    }
    // Posters to a discussion list are the senders List-Post matters for; it is read only when the
    // message could replace what the tally has (most mail has no List-Post at all).
    if (message.fields.listPost !== null && (!tally.via || newer(message.date, tally.via.seenAt))) {
      const via = parseListPost(message.fields.listPost);
      if (via && via !== address) tally.via = { address: via, seenAt: message.date };
    }
    if (message.fields.listId !== null && (!tally.listId || newer(message.date, tally.listId.seenAt))) {
      const id = listIdentifier(message.fields.listId);
      if (id) tally.listId = { id, seenAt: message.date };
    }
    tally.isSubscription = isListSender(tally.count, tally.listCount);
    tally.messages.push({
      id: message.id,
      folder: message.folder,
      subject: message.fields.subject ?? '',
      date: message.date,
      seen: message.seen === true ? 1 : message.seen === false ? 0 : null,
    });
  }
  return tallies;
}
