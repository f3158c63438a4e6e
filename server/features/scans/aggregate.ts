import type { MessageHeaders } from '../../mail/provider.js';
import { hasListSignal, parseFrom, type Sender } from './detect.js';
import { isOneClick, parseListUnsubscribe } from './list-unsubscribe.js';

// Folds one batch of message headers into per-sender tallies, so the repository writes one row
// per sender per batch instead of one per message.

export interface SenderTally {
  address: string;
  /** Display name of the newest message seen in the batch. */
  name: string;
  count: number;
  lastMessageAt: number | null;
  /** Any message of the batch carried a usable List-Unsubscribe, List-Id or Precedence bulk/list. */
  isSubscription: boolean;
  listSignal: boolean;
  /** Unsubscribe URIs of the newest message of the batch that had any. */
  unsubscribe: { http: string[]; mailto: string[]; oneClick: boolean; seenAt: number | null } | null;
  messages: Array<{ id: string; folder: string; subject: string; date: number | null }>;
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
  for (const message of messages) {
    const rawFrom = message.fields.from ?? '';
    let sender = fromCache.get(rawFrom);
    if (sender === undefined) {
      sender = parseFrom(rawFrom);
      fromCache.set(rawFrom, sender);
    }
    if (!sender) continue;
    const { address, name } = sender;
    let tally = tallies.get(address);
    if (!tally) {
      tally = {
        address,
        name,
        count: 0,
        lastMessageAt: message.date,
        isSubscription: false,
        listSignal: false,
        unsubscribe: null,
        messages: [],
      };
      tallies.set(address, tally);
    }
    tally.count += 1;
    if (tally.count > 1 && newer(message.date, tally.lastMessageAt)) {
      tally.lastMessageAt = message.date;
      tally.name = name;
    }
    const listSignal = hasListSignal(message.fields);
    tally.listSignal ||= listSignal;
    tally.isSubscription ||= listSignal;
    // List-Unsubscribe is read only where it can change the outcome: while the sender is not yet
    // known to have links, or when this message is newer than the one whose links are held.
    const headers = message.fields.listUnsubscribe;
    if (headers.length > 0 && (!tally.unsubscribe || newer(message.date, tally.unsubscribe.seenAt))) {
      const links = parseListUnsubscribe(headers);
      if (links.all.length > 0) {
        tally.isSubscription = true;
        tally.unsubscribe = {
          http: links.https,
          mailto: links.mailto,
          oneClick: isOneClick(message.fields, links),
          seenAt: message.date,
        };
      }
    }
    tally.messages.push({
      id: message.id,
      folder: message.folder,
      subject: message.fields.subject ?? '',
      date: message.date,
    });
  }
  return tallies;
}
