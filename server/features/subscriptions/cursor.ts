import type { SubscriptionSort } from '#contract/api.js';
import { InvalidInputError } from '#server/lib/errors.js';
import type { BrandPosition, KeysetPosition } from './repository.js';

// The list's cursor: where the next page of an order starts, as an opaque string the caller hands back.

export const BAD_CURSOR_MESSAGE = 'This cursor is not valid: load the list again from its first page.';

/**
 * The opaque cursor: base64url of JSON `{s, v, i}`, the order, the sort value and the id of the last row
 * of the page. It holds nothing the caller has not just been shown, and it only ever positions a walk
 * in the caller's own rows (the query is the caller's whatever the cursor says), so it is not signed.
 */
export function encodeCursor(sort: SubscriptionSort, position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ s: sort, v: position.value, i: position.id })).toString('base64url');
}

const hasControlCharacter = (text: string): boolean => {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) < 0x20) return true;
  return false;
};

/** The JSON object a cursor carries (either list's); InvalidInputError when it is not one. */
function cursorFields(cursor: string): Record<string, unknown> {
  // Node's base64url decoder skips characters outside the alphabet: refuse them instead of guessing.
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  return parsed as Record<string, unknown>;
}

/** The position a cursor of this order holds; InvalidInputError for anything else (garbled, forged, another order). */
export function decodeCursor(sort: SubscriptionSort, cursor: string): KeysetPosition {
  const { s, v, i, ...rest } = cursorFields(cursor);
  // newest: an epoch-millisecond date (bigint), or null in the undated rows; the other orders: counts
  // and ranks, which are 32-bit integers in the database (PostgreSQL refuses a larger parameter).
  const valueOk =
    sort === 'newest'
      ? v === null || (typeof v === 'number' && Number.isSafeInteger(v))
      : typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2_147_483_647;
  if (
    Object.keys(rest).length > 0 ||
    s !== sort ||
    !valueOk ||
    typeof i !== 'string' ||
    i.length === 0 ||
    i.length > 128 ||
    // PostgreSQL text holds no NUL; ids never hold control characters.
    hasControlCharacter(i)
  ) {
    throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  }
  return { value: v as number | null, id: i };
}

/**
 * The grouped list's cursor: base64url of JSON `{s, v, b}`, the order, the sort value and the brand of
 * the last row of the page (unsigned for the same reason as the sender list's).
 */
export function encodeBrandCursor(sort: SubscriptionSort, position: BrandPosition): string {
  return Buffer.from(JSON.stringify({ s: sort, v: position.value, b: position.brand })).toString('base64url');
}

/** The position a brand cursor of this order holds; InvalidInputError for anything else. */
export function decodeBrandCursor(sort: SubscriptionSort, cursor: string): BrandPosition {
  const { s, v, b, ...rest } = cursorFields(cursor);
  // newest: a date or -1 (no dated mail); the others: sums and ranks, non-negative.
  const min = sort === 'newest' ? -1 : 0;
  if (
    Object.keys(rest).length > 0 ||
    s !== sort ||
    typeof v !== 'number' ||
    !Number.isSafeInteger(v) ||
    v < min ||
    typeof b !== 'string' ||
    b.length > 253 ||
    hasControlCharacter(b)
  ) {
    throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  }
  return { value: v, brand: b };
}

/** Where a sender's next page of messages starts: the last message's date (0 when undated) and provider id. */
export interface MessagePosition {
  date: number;
  providerId: string;
}

/**
 * The cursor of a sender's messages (GET /get-subscriptions/:id?limit=): base64url of JSON `{s, d, p}`,
 * unsigned like the list's (it positions a walk in the caller's own sender's messages only).
 */
export function encodeMessageCursor(position: MessagePosition): string {
  return Buffer.from(JSON.stringify({ s: 'messages', d: position.date, p: position.providerId })).toString(
    'base64url',
  );
}

/** The position a messages cursor holds; InvalidInputError for anything else. */
export function decodeMessageCursor(cursor: string): MessagePosition {
  const { s, d, p, ...rest } = cursorFields(cursor);
  if (
    Object.keys(rest).length > 0 ||
    s !== 'messages' ||
    typeof d !== 'number' ||
    !Number.isSafeInteger(d) ||
    d < 0 ||
    typeof p !== 'string' ||
    p.length === 0 ||
    p.length > 300 ||
    hasControlCharacter(p)
  ) {
    throw new InvalidInputError(BAD_CURSOR_MESSAGE);
  }
  return { date: d, providerId: p };
}
