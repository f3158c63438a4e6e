import addressparser from 'nodemailer/lib/addressparser';
import { decodeWords, type HeaderFields } from './headers.js';
import { isOneClick, parseListUnsubscribe } from './list-unsubscribe.js';

export interface Sender {
  /** lowercased addr-spec */
  address: string;
  /** decoded display name, '' when there is none */
  name: string;
}

export interface Detection {
  /** the message makes its sender a subscription: isNewsletter or listSignal, and a sender to attach it to */
  isSubscription: boolean;
  /** a usable List-Unsubscribe URI is present */
  isNewsletter: boolean;
  /** List-Id, or Precedence bulk/list: bulk mail that can only be blocked when isNewsletter is false */
  listSignal: boolean;
  oneClick: boolean;
  /** http: and https: unsubscribe URIs in the sender's order */
  httpsUrls: string[];
  mailto: string[];
  sender: Sender | null;
}

/** Display names are cut to this many characters: more than any real one, and the lists stay small. */
export const MAX_NAME_LENGTH = 256;
/**
 * A From longer than this is read as its first and last halves joined by a space. The address of a
 * hostile From with a huge name is at its end (`"<200 KB>" <addr>`) and survives; what the cut loses
 * is name text beyond MAX_NAME_LENGTH anyway. The address parser is linear but still costs ~150 ms
 * per MB of the server's one event loop.
 */
const MAX_FROM_LENGTH = 16 * 1024;
const MAX_ADDRESS_LENGTH = 320;

/**
 * The From mailbox. The address is split off before encoded words are decoded, because a decoded name may
 * contain characters ("(", ",", ":") that would otherwise change how the field parses. For the old
 * `addr (Name)` form the comment is the name; next to a real phrase a comment is dropped.
 */
export function parseFrom(raw: string | null | undefined): Sender | null {
  if (!raw?.trim()) return null;
  const half = MAX_FROM_LENGTH / 2;
  const text = raw.length > MAX_FROM_LENGTH ? `${raw.slice(0, half)} ${raw.slice(-half)}` : raw;
  for (const mailbox of addressparser(text, { flatten: true })) {
    const address = mailbox.address.replace(/\s+/g, '').toLowerCase();
    const at = address.lastIndexOf('@');
    // A bare local part ("MAILER-DAEMON") or a group with no members cannot identify a sender, nor can
    // an address longer than any mailbox can have (64 for the local part, @, 255 for the domain).
    if (at <= 0 || at === address.length - 1 || address.length > MAX_ADDRESS_LENGTH) continue;
    return { address, name: capName(decodeWords(mailbox.name).replace(/\s+/g, ' ').trim()) };
  }
  return null;
}

/** At most MAX_NAME_LENGTH UTF-16 units, never half of a surrogate pair. */
export function capName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const last = name.charCodeAt(MAX_NAME_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_NAME_LENGTH - 1 : MAX_NAME_LENGTH;
  return name.slice(0, end).trimEnd();
}

export function detectSubscription(fields: HeaderFields): Detection {
  const unsubscribe = parseListUnsubscribe(fields.listUnsubscribe);
  const sender = parseFrom(fields.from);
  const isNewsletter = unsubscribe.all.length > 0;
  const listSignal = hasListSignal(fields);
  return {
    // Subscriptions are grouped by sender, so a message whose From cannot be read has nowhere to go.
    isSubscription: sender !== null && (isNewsletter || listSignal),
    isNewsletter,
    listSignal,
    oneClick: isOneClick(fields, unsubscribe),
    httpsUrls: unsubscribe.https,
    mailto: unsubscribe.mailto,
    sender,
  };
}

export function hasListSignal(fields: HeaderFields): boolean {
  if (fields.listId !== null && fields.listId.trim() !== '') return true;
  // "junk" and nonstandard values ("klub") are not list traffic.
  const precedence = fields.precedence?.trim().toLowerCase() ?? '';
  return precedence === 'bulk' || precedence === 'list';
}
