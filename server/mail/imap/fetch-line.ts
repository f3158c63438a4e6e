import type { FetchedRow } from './fetch-rows.js';

// The fast path of fetch-rows.ts: one framed FETCH answer line read byte by byte, in one pass, accepting only
// the strict shape the scan's command gets answered with (the header of fetch-rows.ts says why).

/** The largest UID (RFC 9051: nz-number, 32 bits). */
export const MAX_UID = 4_294_967_295;

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
 * The attributes read so far from one line. It becomes the row readFetchLine gives (so a line costs one
 * object), `header` turned from null into an empty buffer at the end.
 */
interface LineRow {
  uid: number;
  seen: boolean | null;
  internalDate: string | null;
  header: Buffer | null;
}

// The readers below each take the line and the index just past an attribute's name, and give the index just
// past its value, or -1 when the value is not in the strict shape (the line then goes to ImapFlow's tokenizer).

/** `* <n> FETCH (`: the index of the first attribute's name, or -1. */
function readHead(line: Buffer): number {
  if (line.length < 12 || line[0] !== 0x2a || line[1] !== SP) return -1;
  let i = 2;
  while (isDigit(line[i])) i++;
  if (i === 2 || line[i] !== SP) return -1;
  const name = ++i;
  if (!spells(line, name, name + 5, 'FETCH') || line[name + 5] !== SP || line[name + 6] !== PAREN_OPEN)
    return -1;
  return name + 7;
}

/** ` <digits>` */
function readUid(line: Buffer, at: number, row: LineRow): number {
  let i = at;
  if (line[i++] !== SP) return -1;
  const digits = i;
  while (isDigit(line[i])) i++;
  if (i === digits) return -1;
  // As readFetchRow: a leading zero or more than ten digits is no usable UID.
  const n = line[digits] === 0x30 || i - digits > 10 ? 0 : Number(line.toString('latin1', digits, i));
  row.uid = n <= MAX_UID ? n : 0;
  return i;
}

/** ` (<flag> <flag> …)`, each flag an atom or `\`atom. */
function readFlags(line: Buffer, at: number, row: LineRow): number {
  let i = at;
  if (line[i++] !== SP || line[i++] !== PAREN_OPEN) return -1;
  row.seen = false;
  while (line[i] !== PAREN_CLOSE) {
    const flag = i;
    if (line[i] === BACKSLASH) i++;
    while (isAtomChar(line[i])) i++;
    if (i === flag || (line[flag] === BACKSLASH && i === flag + 1)) return -1;
    if (spells(line, flag + 1, i, 'SEEN') && line[flag] === BACKSLASH) row.seen = true;
    if (line[i] === SP && line[i + 1] !== PAREN_CLOSE) i++;
    else if (line[i] !== PAREN_CLOSE) return -1;
  }
  return i + 1;
}

/** ` "<date>"`, printable ASCII without quote or backslash. */
function readInternalDate(line: Buffer, at: number, row: LineRow): number {
  const end = line.length;
  let i = at;
  if (line[i++] !== SP || line[i++] !== QUOTE) return -1;
  const from = i;
  while (i < end && line[i]! >= SP && line[i]! < 0x7f && line[i] !== QUOTE && line[i] !== BACKSLASH) i++;
  if (line[i] !== QUOTE) return -1;
  row.internalDate = line.toString('latin1', from, i++);
  return i;
}

/**
 * `[<section>] `: the section as the server echoes the one asked for, `[HEADER.FIELDS (FROM …)]`, atoms
 * only (no quoting, no partial), a part name and at most one list of field names. Gives the value's index.
 */
function readSection(line: Buffer, at: number): number {
  let i = at;
  if (line[i++] !== BRACKET_OPEN) return -1;
  const part = i;
  while (isAtomChar(line[i])) i++;
  if (line[i] === SP && i > part) {
    if (line[++i] !== PAREN_OPEN) return -1;
    do {
      const field = ++i;
      while (isAtomChar(line[i])) i++;
      if (i === field) return -1;
    } while (line[i] === SP);
    if (line[i++] !== PAREN_CLOSE) return -1;
  }
  if (line[i++] !== BRACKET_CLOSE || line[i++] !== SP) return -1;
  return i;
}

/** `{<size>}` CRLF, its bytes the literal the stream framed apart (`bytes`, undefined when none is left). */
function readLiteral(line: Buffer, at: number, bytes: Buffer | undefined, row: LineRow): number {
  let i = at + 1;
  const digits = i;
  while (isDigit(line[i])) i++;
  const size = i - digits > 0 && i - digits <= 15 ? Number(line.toString('latin1', digits, i)) : -1;
  if (line[i++] !== CURLY_CLOSE || line[i++] !== CR || line[i++] !== LF) return -1;
  // The stream framed exactly `size` bytes; a count that disagrees is a line of another shape.
  if (bytes === undefined || bytes.length !== size) return -1;
  row.header = bytes;
  return i;
}

/** `"<text>"`, printable ASCII, `\"` and `\\` its only escapes. */
function readQuoted(line: Buffer, at: number, row: LineRow): number {
  const end = line.length;
  let i = at;
  const from = ++i;
  let escaped = false;
  while (i < end && line[i] !== QUOTE) {
    const c = line[i]!;
    if (c < SP || c >= 0x7f) return -1;
    if (c === BACKSLASH) {
      if (line[i + 1] !== QUOTE && line[i + 1] !== BACKSLASH) return -1;
      escaped = true;
      i++;
    }
    i++;
  }
  if (line[i] !== QUOTE) return -1;
  const raw = line.toString('latin1', from, i++);
  row.header = Buffer.from(escaped ? raw.replace(/\\(["\\])/g, '$1') : raw, 'latin1');
  return i;
}

/** ` (<digits>)` */
function readModseq(line: Buffer, at: number): number {
  let i = at;
  if (line[i++] !== SP || line[i++] !== PAREN_OPEN) return -1;
  const digits = i;
  while (isDigit(line[i])) i++;
  if (i === digits || line[i++] !== PAREN_CLOSE) return -1;
  return i;
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
  let i = readHead(line);
  if (i < 0) return null;
  const row: LineRow = { uid: 0, seen: null, internalDate: null, header: null };
  let literal = 0;
  for (;;) {
    const start = i;
    while (isLetter(line[i])) i++;
    if (spells(line, start, i, 'UID')) i = readUid(line, i, row);
    else if (spells(line, start, i, 'FLAGS')) i = readFlags(line, i, row);
    else if (spells(line, start, i, 'INTERNALDATE')) i = readInternalDate(line, i, row);
    else if (spells(line, start, i, 'BODY')) {
      i = readSection(line, i);
      if (i < 0) return null;
      if (line[i] === CURLY_OPEN) i = readLiteral(line, i, literals[literal++], row);
      else if (line[i] === QUOTE) i = readQuoted(line, i, row);
      else if (spells(line, i, i + 3, 'NIL')) {
        i += 3;
        row.header = null;
      } else return null;
    } else if (spells(line, start, i, 'MODSEQ')) i = readModseq(line, i);
    else return null;
    if (i < 0) return null;
    if (line[i] === SP) i++;
    else if (line[i] === PAREN_CLOSE && i === end - 1) break;
    else return null;
  }
  if (literal !== literals.length) return null;
  row.header ??= Buffer.alloc(0);
  return row as FetchedRow;
}
