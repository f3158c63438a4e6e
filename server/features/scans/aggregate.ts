import type { MessageHeaders } from '../../mail/provider.js';
import { detectSubscription } from './detect.js';

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

export function tallyBatch(messages: ReadonlyArray<MessageHeaders>): Map<string, SenderTally> {
  const tallies = new Map<string, SenderTally>();
  for (const message of messages) {
    const detection = detectSubscription(message.fields);
    if (!detection.sender) continue;
    const { address, name } = detection.sender;
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
    tally.isSubscription ||= detection.isSubscription;
    tally.listSignal ||= detection.listSignal;
    const hasLinks = detection.httpsUrls.length > 0 || detection.mailto.length > 0;
    if (hasLinks && (!tally.unsubscribe || newer(message.date, tally.unsubscribe.seenAt))) {
      tally.unsubscribe = {
        http: detection.httpsUrls,
        mailto: detection.mailto,
        oneClick: detection.oneClick,
        seenAt: message.date,
      };
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
