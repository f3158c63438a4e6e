import addressparser from 'nodemailer/lib/addressparser';
import { decodeWords, type HeaderFields } from './headers.js';
import { isOneClick, type ListUnsubscribe, parseListUnsubscribe } from './list-unsubscribe.js';

export interface Sender {
  /** lowercased addr-spec */
  address: string;
  /** decoded display name, '' when there is none */
  name: string;
}

export interface Detection {
  /** the message makes its sender a subscription: isListMail, and a sender to attach it to */
  readonly isSubscription: boolean;
  /** a usable List-Unsubscribe URI is present */
  readonly isNewsletter: boolean;
  /** List-Id, or Precedence bulk/list: bulk mail that can only be blocked when isNewsletter is false */
  readonly listSignal: boolean;
  /** isNewsletter or listSignal: the message is list evidence for its sender (features/scans/aggregate.ts) */
  readonly isListMail: boolean;
  readonly oneClick: boolean;
  /** http: and https: unsubscribe URIs in the sender's order */
  readonly httpsUrls: string[];
  readonly mailto: string[];
  readonly sender: Sender | null;
}

/** Display names are cut to this many characters: more than any real one, and the lists stay small. */
export const MAX_NAME_LENGTH = 256;
/**
 * A From longer than this is read as its first and last halves joined by a space. The address of a
 * hostile From with a huge name is at its end (`"<huge name>" <addr>`) and survives; what the cut loses
 * is name text beyond MAX_NAME_LENGTH anyway. The address parser is linear, but a megabyte of From would
 * still hold the server's one event loop noticeably.
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
  const simple = simpleMailbox(text);
  for (const mailbox of simple ? [simple] : addressparser(text, { flatten: true })) {
    const address = mailbox.address.replace(/\s+/g, '').toLowerCase();
    const at = address.lastIndexOf('@');
    // A bare local part ("MAILER-DAEMON") or a group with no members cannot identify a sender, nor can
    // an address longer than any mailbox can have (64 for the local part, @, 255 for the domain).
    if (at <= 0 || at === address.length - 1 || address.length > MAX_ADDRESS_LENGTH) continue;
    return { address, name: capName(decodeWords(mailbox.name).replace(/\s+/g, ' ').trim()) };
  }
  return null;
}

// What cannot be in the simple shapes below: RFC 5322 specials but `.`, and control characters but tab.
const SPECIALS = new Set([...'"(),:;<>@[\\]'].map((c) => c.charCodeAt(0)));
function hasSpecial(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f || SPECIALS.has(c)) return true;
  }
  return false;
}
const SPACE = /\s/;

/**
 * The From shapes nearly all mail has, `Display Name <local@domain>`, `<local@domain>` and `local@domain`,
 * read directly: the general address parser is slow for what they need, and a daily check meets a few
 * hundred new From values. Gives exactly what the parser gives for the shapes it accepts (detect.test.ts compares them
 * on the corpus and on generated values), null for anything else: quotes, comments, groups, several
 * addresses or brackets, an address with spaces or without exactly one `@`. Linear in the value's length.
 */
export function simpleMailbox(text: string): { address: string; name: string } | null {
  const open = text.indexOf('<');
  if (open === -1) {
    const address = text.trim();
    return plainAddress(address) ? { address, name: '' } : null;
  }
  const close = text.indexOf('>', open);
  if (close === -1 || text.indexOf('<', open + 1) !== -1 || text.indexOf('>', close + 1) !== -1) return null;
  if (text.slice(close + 1).trim() !== '') return null;
  const name = text.slice(0, open);
  if (hasSpecial(name)) return null;
  const address = text.slice(open + 1, close);
  return plainAddress(address) ? { address, name: name.trim() } : null;
}

/** `local@domain`: exactly one `@`, no white space, no special on either side. */
function plainAddress(address: string): boolean {
  const at = address.indexOf('@');
  if (at === -1 || address.indexOf('@', at + 1) !== -1) return false;
  return !SPACE.test(address) && !hasSpecial(address.slice(0, at)) && !hasSpecial(address.slice(at + 1));
}

/** At most MAX_NAME_LENGTH UTF-16 units, never half of a surrogate pair. */
export function capName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const last = name.charCodeAt(MAX_NAME_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_NAME_LENGTH - 1 : MAX_NAME_LENGTH;
  return name.slice(0, end).trimEnd();
}

// What a message without List-Unsubscribe reads: shared by all of them, so frozen against changes.
const NO_URIS: string[] = [];
Object.freeze(NO_URIS);
const NO_LINKS: ListUnsubscribe = { https: NO_URIS, mailto: NO_URIS, all: NO_URIS };

/**
 * Detection of one message, read lazily: List-Unsubscribe is parsed on first use of a field that needs
 * it, and once at most. The scan's batch tally reads only what can change its sender's row (no parse
 * when List-Id or Precedence already made the message list mail and its links are not the newest), and
 * most mail has no List-Unsubscribe at all.
 */
class MessageDetection implements Detection {
  readonly sender: Sender | null;
  readonly listSignal: boolean;
  private readonly fields: HeaderFields;
  private parsed: ListUnsubscribe | undefined;

  constructor(fields: HeaderFields, sender: Sender | null) {
    this.fields = fields;
    this.sender = sender;
    this.listSignal = hasListSignal(fields);
  }

  private get links(): ListUnsubscribe {
    if (this.parsed === undefined) {
      const values = this.fields.listUnsubscribe;
      this.parsed = values.length === 0 ? NO_LINKS : parseListUnsubscribe(values);
    }
    return this.parsed;
  }

  get isNewsletter(): boolean {
    return this.links.all.length > 0;
  }

  get isListMail(): boolean {
    return this.listSignal || this.isNewsletter;
  }

  get isSubscription(): boolean {
    // Subscriptions are grouped by sender, so a message whose From cannot be read has nowhere to go.
    return this.sender !== null && this.isListMail;
  }

  get oneClick(): boolean {
    return isOneClick(this.fields, this.links);
  }

  get httpsUrls(): string[] {
    return this.links.https;
  }

  get mailto(): string[] {
    return this.links.mailto;
  }
}

/**
 * The one detection path of a message: the corpus test reads it message by message, the scan's batch
 * tally (features/scans/aggregate.ts) folds it per sender. `readFrom` lets the tally reuse senders it
 * has read already (mailing lists send with the same From every time).
 */
export function detectSubscription(
  fields: HeaderFields,
  readFrom: (raw: string | null) => Sender | null = parseFrom,
): Detection {
  return new MessageDetection(fields, readFrom(fields.from));
}

export function hasListSignal(fields: HeaderFields): boolean {
  if (fields.listId !== null && fields.listId.trim() !== '') return true;
  // "junk" and nonstandard values ("klub") are not list traffic.
  const precedence = fields.precedence?.trim().toLowerCase() ?? '';
  return precedence === 'bulk' || precedence === 'list';
}
