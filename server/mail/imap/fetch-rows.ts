import type { ImapFlow } from 'imapflow';
import { SCAN_HEADER_FIELDS } from '../provider.js';
import { MAX_UID, readFetchLine } from './fetch-line.js';

export { readFetchLine };

/**
 * The scan's one command, `UID FETCH <lo:hi> (UID FLAGS INTERNALDATE BODY.PEEK[HEADER.FIELDS (…)])`, sent on
 * ImapFlow's connection, its answer read without building ImapFlow's objects.
 *
 * Why not `client.fetch()`: for every attribute of every message it compiles the attribute's name back into
 * IMAP text to use as a key, hashes a fallback id and builds a Set of flags, which was most of the CPU
 * ImapFlow spent on a scan. And why not ImapFlow's tokenizer either: it builds a node, a token object and a
 * string per atom, most of the worker's garbage (docs/decisions/055-imap-scan-speed.md). So each answer line is read twice over at most:
 * - `readFetchLine` (fetch-line.ts) reads the line ImapFlow's stream has framed (line bytes, literals
 *   apart) in one pass over its bytes, accepting only the strict shape this command gets answered with;
 * - any line it does not accept byte for byte goes on to ImapFlow's tokenizer and `readFetchRow`, which
 *   read the same four attributes from the tokens. Both give the same row for every line the first
 *   accepts (fetch-rows.test.ts compares them on Dovecot's answers and on mutated lines).
 * ImapFlow still owns the socket, TLS, the framing with its size limits and the command queue. `exec` and
 * `handleResponse` are marked internal in ImapFlow's typings, so the version is pinned in package.json and
 * every IMAP integration test runs through this path.
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

/** The untagged FETCH handler of a command; `readLine` is offered each framed line first (readLinesFirst). */
type FetchHandler = ((untagged: Untagged) => void) & {
  readLine?: (line: Buffer, literals: Buffer[]) => boolean;
};

interface CommandChannel {
  exec(
    command: string,
    attributes: unknown[],
    options: { untagged: { FETCH: FetchHandler } },
  ): Promise<{ next: () => void }>;
}

/** A line as ImapFlow's stream frames it, and the connection's hooks for it (internal in ImapFlow 2.10). */
interface Framed {
  payload?: unknown;
  literals?: unknown;
}
interface Connection {
  currentRequest?: { options?: { untagged?: { FETCH?: FetchHandler } } } | null;
  handleResponse(data: Framed): Promise<boolean> | boolean;
}

const readingLines = new WeakSet<object>();

/**
 * Offers each framed line to the untagged FETCH handler of the command in flight, when it has a line
 * reader, before ImapFlow tokenizes it. The handler is found exactly as ImapFlow finds it for the tokens
 * (the current request's `untagged.FETCH`), so a line goes to the same command either way; a line the
 * reader does not take goes on through ImapFlow unchanged, as does everything while no such command runs.
 */
function readLinesFirst(client: ImapFlow): void {
  const connection = client as unknown as Connection;
  if (readingLines.has(connection)) return;
  readingLines.add(connection);
  const handleResponse = connection.handleResponse;
  if (typeof handleResponse !== 'function') return;
  connection.handleResponse = function (this: Connection, data: Framed) {
    const readLine = this.currentRequest?.options?.untagged?.FETCH?.readLine;
    if (
      readLine !== undefined &&
      Buffer.isBuffer(data.payload) &&
      Array.isArray(data.literals) &&
      readLine(data.payload, data.literals)
    )
      return true;
    return handleResponse.call(this, data);
  };
}

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
  readLinesFirst(client);
  for (let attempt = 0; ; attempt++) {
    const rows = new Map<number, { uid: number; value: T }>();
    // ImapFlow only logs what an untagged handler throws: a row `read` failed on would be lost without a
    // word, so the first failure is kept and fails the command once it has ended.
    let failure: { error: unknown } | null = null;
    const take = (row: FetchedRow | null) => {
      if (!row || row.uid === 0 || row.uid < lo || row.uid > hi || rows.has(row.uid) || failure) return;
      try {
        rows.set(row.uid, { uid: row.uid, value: read(row) });
      } catch (error) {
        failure = { error };
      }
    };
    const FETCH: FetchHandler = (untagged) => take(readFetchRow(untagged, lo, hi));
    FETCH.readLine = (line, literals) => {
      const row = readFetchLine(line, literals);
      if (row === null) return false;
      take(row);
      return true;
    };
    try {
      const response = await channel.exec('UID FETCH', [{ type: 'SEQUENCE', value: `${lo}:${hi}` }, QUERY], {
        untagged: { FETCH },
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
