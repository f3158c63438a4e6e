import { emptyHeaderFields, headerFieldsFromPairs } from '../headers/headers.js';
import { type MessageHeaders, SCAN_HEADER_FIELDS } from '../provider.js';
import type { GmailMessage } from './api.js';

// A Gmail message as the scan and the daily check hand it to detection: its metadata read into header
// fields, or a message known only from its sender's listing.

/** Exactly what detection reads (docs/ARCHITECTURE.md, the mail port), asked for with format=metadata. */
export const METADATA_HEADERS: readonly string[] = SCAN_HEADER_FIELDS;

/** Gmail has labels, not folders; a message id is valid mailbox-wide, so every message reports All Mail. */
export const GMAIL_FOLDER = '[Gmail]/All Mail';

export function toMessageHeaders(message: GmailMessage): MessageHeaders {
  const fields = headerFieldsFromPairs(message.payload?.headers ?? []);
  return {
    id: message.id,
    folder: GMAIL_FOLDER,
    date: messageDate(fields.date, message.internalDate),
    fields,
    // format=metadata carries the labels: read is the absence of UNREAD.
    seen: message.labelIds ? !message.labelIds.includes('UNREAD') : null,
  };
}

/**
 * A message known only from its sender's `from:` listing: it is counted, but its header fields were not
 * fetched (5 units each). `from` repeats the sender's newest From so grouping and naming stay exact.
 */
export function countedOnly(id: string, from: string, seen: boolean | null = null): MessageHeaders {
  return { id, folder: GMAIL_FOLDER, date: null, fields: emptyHeaderFields(from), seen };
}

function messageDate(header: string | null, internalDate: string | undefined): number | null {
  const fromHeader = header ? Date.parse(header) : Number.NaN;
  if (Number.isFinite(fromHeader)) return fromHeader;
  const internal = internalDate === undefined ? Number.NaN : Number(internalDate);
  return Number.isFinite(internal) ? internal : null;
}
