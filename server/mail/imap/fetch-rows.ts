import type { ImapFlow } from 'imapflow';
import { SCAN_HEADER_FIELDS } from '../provider.js';

/**
 * The scan's one command, `UID FETCH <lo:hi> (UID FLAGS INTERNALDATE BODY.PEEK[HEADER.FIELDS (…)])`, sent on
 * ImapFlow's connection, its answer read without building ImapFlow's objects.
 *
 * Why not `client.fetch()`: for every attribute of every message it compiles the attribute's name back into
 * IMAP text to use as a key, hashes a fallback id and builds a Set of flags, which was most of the CPU
 * ImapFlow spent on a scan. And why not ImapFlow's tokenizer either: it builds a node, a token object and a
 * string per atom, most of the worker's garbage (docs/decisions/055-imap-scan-speed.md). So each answer line is read twice over at most:
 * - `readFetchLine` reads the line ImapFlow's stream has framed (line bytes, literals apart) in one pass
 *   over its bytes, accepting only the strict shape this command gets answered with;
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

const SP = 0x20;
const PAREN_OPEN = 0x28;
const PAREN_CLOSE = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const CURLY_OPEN = 0x7b;
const CURLY_CLOSE = 0x7d;
const CR = 0x0d;
const LF = 0x0a;

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isLetter = (c: number | undefined) => c !== undefined && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
/** ATOM-CHAR of RFC 9051 without `]` (resp-specials): printable ASCII except atom-specials. */
const isAtomChar = (c: number | undefined) =>
  c !== undefined &&
  c > SP &&
  c < 0x7f &&
  c !== PAREN_OPEN &&
  c !== PAREN_CLOSE &&
  c !== CURLY_OPEN &&
  c !== 0x25 && // %
  c !== 0x2a && // *
  c !== QUOTE &&
  c !== BACKSLASH &&
  c !== BRACKET_CLOSE;

/** Whether line[start, end) spells `word` (upper-case letters), without case. */
function spells(line: Buffer, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((line[start + k]! & 0xdf) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Reads one framed answer line, `* <n> FETCH (<name> <value> …)`, as ImapFlow's stream hands it over: the
 * line's bytes with each literal's `{size}` marker and CRLF kept in place, the literals' bytes apart in
 * order. Accepted names: UID, FLAGS, INTERNALDATE, BODY[<section>] and MODSEQ, in any order, each pair
 * separated by one space; values as RFC 9051 writes them. Gives the row (UID 0 when there was no usable
 * UID, as readFetchRow), or null for any line of another shape: a quoted value with bytes beyond ASCII, a
 * partial section, an unknown attribute, a NUL-padded line. One pass, linear in the line's length.
 */
export function readFetchLine(line: Buffer, literals: ReadonlyArray<Buffer>): FetchedRow | null {
  const end = line.length;
  if (end < 12 || line[0] !== 0x2a || line[1] !== SP) return null;
  let i = 2;
  while (isDigit(line[i])) i++;
  if (i === 2 || line[i] !== SP) return null;
  const name = ++i;
  if (!spells(line, name, name + 5, 'FETCH') || line[name + 5] !== SP || line[name + 6] !== PAREN_OPEN)
    return null;
  i = name + 7;
  let uid = 0;
  let seen: boolean | null = null;
  let internalDate: string | null = null;
  let header: Buffer | null = null;
  let literal = 0;
  for (;;) {
    const start = i;
    while (isLetter(line[i])) i++;
    if (spells(line, start, i, 'UID')) {
      if (line[i++] !== SP) return null;
      const digits = i;
      while (isDigit(line[i])) i++;
      if (i === digits) return null;
      // As readFetchRow: a leading zero or more than ten digits is no usable UID.
      const n = line[digits] === 0x30 || i - digits > 10 ? 0 : Number(line.toString('latin1', digits, i));
      uid = n <= MAX_UID ? n : 0;
    } else if (spells(line, start, i, 'FLAGS')) {
      if (line[i++] !== SP || line[i++] !== PAREN_OPEN) return null;
      seen = false;
      while (line[i] !== PAREN_CLOSE) {
        const flag = i;
        if (line[i] === BACKSLASH) i++;
        while (isAtomChar(line[i])) i++;
        if (i === flag || (line[flag] === BACKSLASH && i === flag + 1)) return null;
        if (spells(line, flag + 1, i, 'SEEN') && line[flag] === BACKSLASH) seen = true;
        if (line[i] === SP && line[i + 1] !== PAREN_CLOSE) i++;
        else if (line[i] !== PAREN_CLOSE) return null;
      }
      i++;
    } else if (spells(line, start, i, 'INTERNALDATE')) {
      if (line[i++] !== SP || line[i++] !== QUOTE) return null;
      const from = i;
      while (i < end && line[i]! >= SP && line[i]! < 0x7f && line[i] !== QUOTE && line[i] !== BACKSLASH) i++;
      if (line[i] !== QUOTE) return null;
      internalDate = line.toString('latin1', from, i++);
    } else if (spells(line, start, i, 'BODY')) {
      // The section as the server echoes the one asked for: `[HEADER.FIELDS (FROM …)]`, atoms only (no
      // quoting, no partial), a part name and at most one list of field names.
      if (line[i++] !== BRACKET_OPEN) return null;
      const part = i;
      while (isAtomChar(line[i])) i++;
      if (line[i] === SP && i > part) {
        if (line[++i] !== PAREN_OPEN) return null;
        do {
          const field = ++i;
          while (isAtomChar(line[i])) i++;
          if (i === field) return null;
        } while (line[i] === SP);
        if (line[i++] !== PAREN_CLOSE) return null;
      }
      if (line[i++] !== BRACKET_CLOSE || line[i++] !== SP) return null;
      if (line[i] === CURLY_OPEN) {
        i++;
        const digits = i;
        while (isDigit(line[i])) i++;
        const size = i - digits > 0 && i - digits <= 15 ? Number(line.toString('latin1', digits, i)) : -1;
        if (line[i++] !== CURLY_CLOSE || line[i++] !== CR || line[i++] !== LF) return null;
        // The stream framed exactly `size` bytes; a count that disagrees is a line of another shape.
        const bytes = literals[literal++];
        if (bytes === undefined || bytes.length !== size) return null;
        header = bytes;
      } else if (line[i] === QUOTE) {
        const from = ++i;
        let escaped = false;
        while (i < end && line[i] !== QUOTE) {
          const c = line[i]!;
          if (c < SP || c >= 0x7f) return null;
          if (c === BACKSLASH) {
            if (line[i + 1] !== QUOTE && line[i + 1] !== BACKSLASH) return null;
            escaped = true;
            i++;
          }
          i++;
        }
        if (line[i] !== QUOTE) return null;
        const raw = line.toString('latin1', from, i++);
        header = Buffer.from(escaped ? raw.replace(/\\(["\\])/g, '$1') : raw, 'latin1');
      } else if (spells(line, i, i + 3, 'NIL')) {
        i += 3;
        header = null;
      } else return null;
    } else if (spells(line, start, i, 'MODSEQ')) {
      if (line[i++] !== SP || line[i++] !== PAREN_OPEN) return null;
      const digits = i;
      while (isDigit(line[i])) i++;
      if (i === digits || line[i++] !== PAREN_CLOSE) return null;
    } else return null;
    if (line[i] === SP) i++;
    else if (line[i] === PAREN_CLOSE && i === end - 1) break;
    else return null;
  }
  if (literal !== literals.length) return null;
  return { uid, seen, internalDate, header: header ?? Buffer.alloc(0) };
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
