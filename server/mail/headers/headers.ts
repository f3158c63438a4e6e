import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import libmime from 'libmime';

/**
 * The neutral header shape every mail adapter can produce: IMAP hands us raw header bytes, Gmail and Graph
 * hand us name/value lists. Detection only ever looks at this, so it cannot tell the sources apart.
 */
export interface HeaderFields {
  /** raw (unfolded) From value; encoded words are decoded later, after the address is split off */
  from: string | null;
  /** every List-Unsubscribe value, unfolded, in order */
  listUnsubscribe: string[];
  /** every List-Unsubscribe-Post value */
  listUnsubscribePost: string[];
  listId: string | null;
  precedence: string | null;
  /** raw List-Post (RFC 2369): the posting address of a discussion list, or "NO" */
  listPost: string | null;
  /** decoded */
  subject: string | null;
  /** raw */
  date: string | null;
  messageId: string | null;
}

/** A message with none of the fields (a message that is only counted, never read). */
export function emptyHeaderFields(from: string | null = null): HeaderFields {
  return {
    from,
    listUnsubscribe: [],
    listUnsubscribePost: [],
    listId: null,
    precedence: null,
    listPost: null,
    subject: null,
    date: null,
    messageId: null,
  };
}

export interface HeaderPair {
  name: string;
  value: string;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the header block of a raw message: everything before the first empty line. A string is taken as
 * already-decoded text; a Buffer is decoded field by field (see decodeFieldBytes).
 */
export function parseHeaderBlock(raw: Buffer | string): HeaderFields {
  const buf = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  // Nearly every header block is ASCII: then it is read as one string, the same way, without a Buffer view
  // and a string per field (the scan thread's most common garbage, bench:scan).
  if (isAscii(buf)) return buildFields(splitText(buf.toString('latin1')));
  return parseHeaderBytes(buf);
}

/** parseHeaderBlock for any bytes, field by field; exported so the tests can hold the ASCII path to it. */
export function parseHeaderBytes(buf: Buffer): HeaderFields {
  const fields = splitFields(buf);
  const fallback = fallbackCharset(fields);
  const pairs: HeaderPair[] = fields.map((f) => ({
    name: f.name,
    value: decodeFieldBytes(f.value, fallback),
  }));
  return buildFields(pairs);
}

/** For the API adapters (Gmail `payload.headers`, Graph `internetMessageHeaders`). */
export function headerFieldsFromPairs(pairs: ReadonlyArray<HeaderPair>): HeaderFields {
  // Graph in particular can hand back values with the CRLF folds still inside.
  return buildFields(pairs.map((p) => ({ name: p.name, value: unfold(p.value) })));
}

export function unfold(value: string): string {
  return value.replace(/\r?\n(?=[ \t])/g, '').replace(/[\r\n]/g, '');
}

/** Decodes RFC 2047 encoded words, leaving the text as it was when a word is malformed. */
export function decodeWords(value: string): string {
  if (!value.includes('=?')) return value;
  try {
    return libmime.decodeWords(value);
  } catch {
    return value;
  }
}

interface RawField {
  name: string;
  value: Buffer;
}

const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

function splitFields(buf: Buffer): RawField[] {
  // A field is one contiguous run of the buffer: its first line after the colon and the continuation
  // lines right below it. Runs are collected, not copies, so a field folded into a hundred thousand
  // lines costs one copy at the end.
  const fields: Array<{ name: string; start: number; end: number }> = [];
  // Continuations belong to the field above them, unless a noise line came in between.
  let open = false;
  let start = 0;
  let first = true;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    let end = nl === -1 ? buf.length : nl;
    if (end > start && buf[end - 1] === 0x0d) end--;
    // The first empty line ends the header block; anything after it is body, even if it looks like a
    // header (a stray blank line in a badly generated message must not let body text become headers).
    if (end === start) break;
    const lineStart = start;
    start = nl === -1 ? buf.length : nl + 1;

    const isFirst = first;
    first = false;
    // mbox archives keep the envelope "From sender date" separator as the first line.
    if (isFirst && isMboxFromLine(buf.subarray(lineStart, end))) continue;

    if (buf[lineStart] === 0x20 || buf[lineStart] === 0x09) {
      const field = fields.at(-1);
      if (open && field) field.end = end;
      continue;
    }
    const colon = buf.subarray(lineStart, end).indexOf(0x3a);
    const name = colon > 0 ? buf.toString('latin1', lineStart, lineStart + colon).trimEnd() : '';
    // A line that is neither a field nor a continuation is noise; drop it rather than guess.
    open = FIELD_NAME.test(name);
    if (open) fields.push({ name, start: lineStart + colon + 1, end });
  }
  return fields.map((f) => ({ name: f.name, value: joinLines(buf.subarray(f.start, f.end)) }));
}

/** splitFields and decodeFieldBytes over text whose every character is a byte (an ASCII block). */
function splitText(text: string): HeaderPair[] {
  const fields: Array<{ name: string; start: number; end: number }> = [];
  let open = false;
  let start = 0;
  let first = true;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    let end = nl === -1 ? text.length : nl;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    if (end === start) break;
    const lineStart = start;
    start = nl === -1 ? text.length : nl + 1;
    const isFirst = first;
    first = false;
    if (isFirst && end - lineStart > 5 && text.startsWith('From ', lineStart)) continue;
    const c = text.charCodeAt(lineStart);
    if (c === 0x20 || c === 0x09) {
      const field = fields.at(-1);
      if (open && field) field.end = end;
      continue;
    }
    const colon = text.indexOf(':', lineStart);
    const name = colon > lineStart && colon < end ? text.slice(lineStart, colon).trimEnd() : '';
    open = FIELD_NAME.test(name);
    if (open) fields.push({ name, start: colon + 1, end });
  }
  return fields.map((f) => {
    const value = text.slice(f.start, f.end);
    return { name: f.name, value: (value.includes('\n') ? value.replace(/\r?\n/g, '') : value).trim() };
  });
}

/** The bytes of a folded field with the line breaks (CRLF or LF) between its lines taken out. */
function joinLines(bytes: Buffer): Buffer {
  let nl = bytes.indexOf(0x0a);
  if (nl === -1) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  let from = 0;
  while (nl !== -1) {
    length += bytes.copy(out, length, from, nl > from && bytes[nl - 1] === 0x0d ? nl - 1 : nl);
    from = nl + 1;
    nl = bytes.indexOf(0x0a, from);
  }
  length += bytes.copy(out, length, from);
  return out.subarray(0, length);
}

function isMboxFromLine(line: Buffer): boolean {
  return line.length > 5 && line.toString('latin1', 0, 5) === 'From ';
}

/**
 * Raw 8-bit header bytes are not allowed but real mail has them. Most are UTF-8; the rest are usually in the
 * charset the message declares for its own text (Mailman lists relaying Big5 or GB2312), and as a last resort
 * latin1, which maps every byte to a character so nothing is lost.
 */
function decodeFieldBytes(bytes: Buffer, fallback: TextDecoder | null): string {
  let text: string | null = null;
  if (isAscii(bytes)) {
    text = bytes.toString('latin1');
  } else {
    for (const decoder of fallback ? [utf8Strict, fallback] : [utf8Strict]) {
      try {
        text = decoder.decode(bytes);
        break;
      } catch {
        // not valid in this charset, try the next
      }
    }
  }
  return (text ?? bytes.toString('latin1')).trim();
}

function fallbackCharset(fields: RawField[]): TextDecoder | null {
  const contentType = fields.find((f) => f.name.toLowerCase() === 'content-type');
  if (!contentType) return null;
  const match = /charset\s*=\s*"?([\w.:+-]+)/i.exec(contentType.value.toString('latin1'));
  const label = match?.[1]?.toLowerCase();
  if (!label || label === 'utf-8' || label === 'utf8' || label === 'us-ascii') return null;
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    return null; // a label Node does not know
  }
}

function buildFields(pairs: ReadonlyArray<HeaderPair>): HeaderFields {
  const byName = new Map<string, string[]>();
  for (const { name, value } of pairs) {
    const key = name.trim().toLowerCase();
    const list = byName.get(key);
    if (list) list.push(value.trim());
    else byName.set(key, [value.trim()]);
  }
  const all = (name: string) => byName.get(name) ?? [];
  // An empty field carries nothing, so a later non-empty repeat wins over it.
  const first = (name: string) => all(name).find((v) => v !== '') ?? null;
  const subject = first('subject');
  return {
    from: first('from'),
    listUnsubscribe: all('list-unsubscribe'),
    listUnsubscribePost: all('list-unsubscribe-post'),
    listId: first('list-id'),
    precedence: first('precedence'),
    listPost: first('list-post'),
    subject: subject === null ? null : decodeWords(subject),
    date: first('date'),
    messageId: first('message-id'),
  };
}
