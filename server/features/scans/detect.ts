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

/**
 * The From mailbox. The address is split off before encoded words are decoded, because a decoded name may
 * contain characters ("(", ",", ":") that would otherwise change how the field parses. For the old
 * `addr (Name)` form the comment is the name; next to a real phrase a comment is dropped.
 */
export function parseFrom(raw: string | null | undefined): Sender | null {
  if (!raw?.trim()) return null;
  for (const mailbox of addressparser(raw, { flatten: true })) {
    const address = mailbox.address.replace(/\s+/g, '').toLowerCase();
    const at = address.lastIndexOf('@');
    // A bare local part ("MAILER-DAEMON") or a group with no members cannot identify a sender.
    if (at <= 0 || at === address.length - 1) continue;
    return { address, name: decodeWords(mailbox.name).replace(/\s+/g, ' ').trim() };
  }
  return null;
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
