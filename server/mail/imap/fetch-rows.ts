import type { ImapFlow } from 'imapflow';
import { SCAN_HEADER_FIELDS } from '../provider.js';

/**
 * The scan's one command, `UID FETCH <lo:hi> (UID FLAGS INTERNALDATE BODY.PEEK[HEADER.FIELDS (…)])`, sent on
 * ImapFlow's connection and read from its parser's tokens directly.
 *
 * Why not `client.fetch()`: for every attribute of every message it compiles the attribute's name back into
 * IMAP text to use as a key, hashes a fallback id and builds a Set of flags; at 50,000 messages that was
 * 0.9 s of the 1.5 s of CPU ImapFlow spent on a scan (docs/decisions.md, "Scan speed"). Here the four
 * attributes asked for are picked out of the token list by their atom, in one pass. ImapFlow still owns the
 * socket, TLS, the tokenizer (with its literal limits) and the command queue. `exec` is marked internal in
 * ImapFlow's typings, so the version is pinned in package.json and every IMAP integration test runs
 * through this path.
 */

/** One row of the answer: what detection needs of a message. */
export interface FetchedRow {
  uid: number;
  /** \Seen among the flags (compared without case, as IMAP flags are); null when FLAGS was missing. */
  seen: boolean | null;
  /** INTERNALDATE as the server wrote it ("25-Nov-2026 10:41:17 +0000"), or null. */
  internalDate: string | null;
  /** The requested header fields' bytes (empty when the server sent NIL). */
  header: Buffer;
}

/** A token as ImapFlow's parser hands it over: an atom, string or literal, a list, or NIL. */
type Token = { type?: unknown; value?: unknown; section?: unknown } | Token[] | null | undefined;

interface Untagged {
  attributes?: Token[];
}

interface CommandChannel {
  exec(
    command: string,
    attributes: unknown[],
    options: { untagged: { FETCH: (untagged: Untagged) => void } },
  ): Promise<{ next: () => void }>;
}

const MAX_UID = 4_294_967_295;
const UID_DIGITS = /^[1-9][0-9]{0,9}$/;

/**
 * Reads one untagged FETCH's tokens: `FETCH (name value name value …)`. Unsolicited FETCHes (another
 * client changing flags: no UID) and rows outside [lo, hi] give null. Linear in the token count.
 */
export function readFetchRow(untagged: Untagged, lo: number, hi: number): FetchedRow | null {
  const list = untagged.attributes?.[1];
  if (!Array.isArray(list)) return null;
  let uid = 0;
  let seen: boolean | null = null;
  let internalDate: string | null = null;
  let header: Buffer | null = null;
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i];
    const value = list[i + 1];
    if (!name || Array.isArray(name) || name.type !== 'ATOM' || typeof name.value !== 'string') continue;
    switch (name.value.toUpperCase()) {
      case 'UID':
        uid = uintOf(value);
        break;
      case 'FLAGS':
        seen = Array.isArray(value) ? value.some(isSeenFlag) : null;
        break;
      case 'INTERNALDATE':
        internalDate = value && !Array.isArray(value) && typeof value.value === 'string' ? value.value : null;
        break;
      case 'BODY':
        // The only section asked for is the header fields; `BODY` without one would be BODYSTRUCTURE's
        // short form, never requested here.
        if (name.section !== undefined) header = bytesOf(value);
        break;
    }
  }
  if (uid < lo || uid > hi || uid === 0) return null;
  return { uid, seen, internalDate, header: header ?? Buffer.alloc(0) };
}

function uintOf(token: Token): number {
  if (!token || Array.isArray(token) || typeof token.value !== 'string' || !UID_DIGITS.test(token.value))
    return 0;
  const n = Number(token.value);
  return n <= MAX_UID ? n : 0;
}

function isSeenFlag(token: Token): boolean {
  return (
    !!token &&
    !Array.isArray(token) &&
    typeof token.value === 'string' &&
    token.value.toLowerCase() === '\\seen'
  );
}

function bytesOf(token: Token): Buffer | null {
  if (!token || Array.isArray(token)) return null;
  if (Buffer.isBuffer(token.value)) return token.value;
  // A section is an nstring: some servers answer small ones quoted; the tokenizer decoded it as UTF-8.
  if (typeof token.value === 'string') return Buffer.from(token.value, 'utf8');
  return null;
}

// Exactly what detection reads (docs/ARCHITECTURE.md, the mail port); everything else stays on the server.
const QUERY = [
  { type: 'ATOM', value: 'UID' },
  { type: 'ATOM', value: 'FLAGS' },
  { type: 'ATOM', value: 'INTERNALDATE' },
  {
    type: 'ATOM',
    value: 'BODY.PEEK',
    section: [
      { type: 'ATOM', value: 'HEADER.FIELDS' },
      SCAN_HEADER_FIELDS.map((field) => ({ type: 'ATOM', value: field.toUpperCase() })),
    ],
  },
];

/** Throttled answers (Microsoft 365's "Request is throttled") are waited out by ImapFlow, then retried. */
const THROTTLE_RETRIES = 3;

/**
 * The rows of one UID range, each UID once (the first row wins), at most hi - lo + 1 of them whatever the
 * server sends, each turned by `read` as it arrives (so its header bytes need not outlive it). The caller
 * holds the folder's lock.
 */
export async function fetchRows<T>(
  client: ImapFlow,
  lo: number,
  hi: number,
  read: (row: FetchedRow) => T,
): Promise<Array<{ uid: number; value: T }>> {
  const channel = client as unknown as CommandChannel;
  for (let attempt = 0; ; attempt++) {
    const rows = new Map<number, { uid: number; value: T }>();
    // ImapFlow only logs what an untagged handler throws: a row `read` failed on would be lost without a
    // word, so the first failure is kept and fails the command once it has ended.
    let failure: { error: unknown } | null = null;
    try {
      const response = await channel.exec('UID FETCH', [{ type: 'SEQUENCE', value: `${lo}:${hi}` }, QUERY], {
        untagged: {
          FETCH: (untagged) => {
            const row = readFetchRow(untagged, lo, hi);
            if (!row || rows.has(row.uid) || failure) return;
            try {
              rows.set(row.uid, { uid: row.uid, value: read(row) });
            } catch (error) {
              failure = { error };
            }
          },
        },
      });
      // ImapFlow parks its reader until the command's handler has taken the tagged answer.
      response.next();
      if (failure) throw (failure as { error: unknown }).error;
      return [...rows.values()];
    } catch (err) {
      if ((err as { code?: string }).code !== 'ETHROTTLE' || attempt >= THROTTLE_RETRIES) throw err;
    }
  }
}
