import { decodeWords, type HeaderFields } from './headers.js';
import { parseMailto } from './mailto.js';

export interface ListUnsubscribe {
  /** http: and https: URIs (RFC 2369 allows both; only https can be one-click) */
  https: string[];
  mailto: string[];
  /** every usable URI, in the sender's order of preference */
  all: string[];
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// What RFC 2369 says to ignore in a value, as JavaScript's \s defines it (folding leaves tabs and CR/LF).
const WHITESPACE = /\s/;

// Limits on what one sender can make the scanner read and store. Real headers stay far below them (the
// real-mail corpus's longest List-Unsubscribe, longest URI and most URIs are well inside each one); a
// hostile one is read up to them and no further, so parsing and storing it stay small.
/** Characters of one List-Unsubscribe value that are read. */
export const MAX_VALUE_LENGTH = 8 * 1024;
/** Characters read over all List-Unsubscribe values of a message. */
export const MAX_TOTAL_LENGTH = 16 * 1024;
/** URIs kept per message (and so per sender). */
export const MAX_URIS = 10;
/** A longer URI is dropped, not shortened: a cut URI would point somewhere else. */
export const MAX_URI_LENGTH = 2048;

/**
 * RFC 2369 List-Unsubscribe: angle-bracketed URIs, comma-separated, most preferred first. URIs are kept
 * exactly as sent (tokens in them are case- and escape-sensitive) apart from whitespace, which RFC 2369
 * says to ignore inside a URI because long ones get folded. Duplicates across headers (a list relaying a
 * sender's own header, or a header repeated verbatim) are reported once, at their first position.
 * Reading stops at the limits above; every step is a single left-to-right pass (no backtracking
 * regular expression sees the sender's text), so the cost is linear in what is read.
 */
export function parseListUnsubscribe(values: ReadonlyArray<string>): ListUnsubscribe {
  const result: ListUnsubscribe = { https: [], mailto: [], all: [] };
  const seen = new Set<string>();
  let budget = MAX_TOTAL_LENGTH;
  for (const value of values) {
    if (budget <= 0 || result.all.length >= MAX_URIS) break;
    const limit = Math.min(MAX_VALUE_LENGTH, budget);
    budget -= Math.min(value.length, limit);
    // Some senders (SendGrid, phpList) encode the whole value, brackets included, as encoded words.
    let text = decodeWords(value.length > limit ? value.slice(0, limit) : value);
    // A value cut short ends in the middle of a URI, which the salvage of unclosed brackets would
    // otherwise report as a shorter, wrong one: only what the last closing bracket ends is read.
    if (value.length > limit) text = text.slice(0, text.lastIndexOf('>') + 1);
    for (const uri of extractUris(text)) {
      if (uri.length > MAX_URI_LENGTH || seen.has(uri)) continue;
      const kind = classify(uri);
      if (!kind) continue;
      seen.add(uri);
      result.all.push(uri);
      result[kind].push(uri);
      if (result.all.length >= MAX_URIS) break;
    }
  }
  return result;
}

/**
 * RFC 8058 one-click: the POST marker exactly as specified (senders that misspell it do not implement it,
 * so they get the mailto/browser path) and an https URI to POST to. Plain http is never one-click.
 */
export function isOneClick(
  fields: Pick<HeaderFields, 'listUnsubscribe' | 'listUnsubscribePost'>,
  parsed: ListUnsubscribe = parseListUnsubscribe(fields.listUnsubscribe),
): boolean {
  const marked = fields.listUnsubscribePost.some((v) => v.trim() === 'List-Unsubscribe=One-Click');
  return marked && parsed.https.some((uri) => /^https:/i.test(uri));
}

function classify(uri: string): 'https' | 'mailto' | null {
  // new URL() would accept 'http:host' and other shorthand no sender means, so demand the authority.
  if (/^https?:\/\//i.test(uri)) {
    try {
      return new URL(uri).hostname ? 'https' : null;
    } catch {
      return null;
    }
  }
  // Only a mailto the engine would send: one plain address (mailto.ts), so a list never offers
  // a link that could only be refused later.
  if (/^mailto:/i.test(uri)) return parseMailto(uri).ok ? 'mailto' : null;
  return null; // ftp:, news:, junk: nothing we can act on
}

/** Candidate URIs in left-to-right order, bracketed or not; classify() decides which are usable. */
function extractUris(value: string): string[] {
  const uris: string[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf('<', i);
    splitBare(open === -1 ? value.slice(i) : value.slice(i, open), uris);
    if (open === -1) break;
    // Scan to the closing bracket, or to the next opening one when a bracket was never closed (truncated
    // or mangled header); one pass, so a value full of '<' stays linear.
    let end = open + 1;
    while (end < value.length && value[end] !== '>' && value[end] !== '<') end++;
    const closed = value[end] === '>';
    const compact = removeWhitespace(value.slice(open + 1, end));
    const uri = closed ? compact : trimCommas(compact);
    if (uri) uris.push(uri);
    i = closed ? end + 1 : end;
  }
  return uris;
}

/**
 * Text outside brackets is normally just commas and (comments), but some senders (Episerver) emit bare
 * URIs, with stray spaces inside. Split only where a new URI visibly starts (after a comma, a scheme and
 * a colon; after whitespace, "scheme://" or "mailto:"), so a space inside a query string is treated as
 * folding, not as a separator. Two passes over the text, each linear: comments out and whitespace
 * collapsed, then the split.
 */
function splitBare(text: string, out: string[]): void {
  const s = withoutComments(text);
  let piece = '';
  const flush = () => {
    const uri = trimCommas(piece);
    if (SCHEME.test(uri)) out.push(uri);
    piece = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ' ') {
      if (uriStartsAt(s, i + 1)) flush();
    } else if (c === ',') {
      const next = s[i + 1] === ' ' ? i + 2 : i + 1;
      if (schemeEnd(s, next) !== -1) {
        flush();
        i = next - 1;
      } else {
        piece += c;
      }
    } else {
      piece += c;
    }
  }
  flush();
}

/**
 * Whitespace runs collapsed to one space, and (comments) that follow whitespace, a comma or the start
 * replaced by one. A comment holds no parentheses; a '(' that is not closed before the next one is
 * plain text. Each character is looked at at most twice: the look-ahead for a ')' stops at the next
 * '(', and the walk resumes at that '(' with the look-ahead beyond it.
 */
function withoutComments(text: string): string {
  let out = '';
  let separated = true;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (WHITESPACE.test(c)) {
      if (!out.endsWith(' ')) out += ' ';
      separated = true;
      i++;
      continue;
    }
    if (c === '(' && separated) {
      let j = i + 1;
      while (j < text.length && text[j] !== '(' && text[j] !== ')') j++;
      if (text[j] === ')') {
        if (!out.endsWith(' ')) out += ' ';
        i = j + 1;
        continue;
      }
    }
    out += c;
    separated = c === ',';
    i++;
  }
  return out;
}

const isSchemeStart = (c: string | undefined) => c !== undefined && /[a-z]/i.test(c);
const isSchemeChar = (c: string | undefined) => c !== undefined && /[a-z0-9+.-]/i.test(c);

/** Index of the ':' ending a URI scheme that starts at `i`, or -1. */
function schemeEnd(s: string, i: number): number {
  if (!isSchemeStart(s[i])) return -1;
  let j = i + 1;
  while (isSchemeChar(s[j])) j++;
  return s[j] === ':' ? j : -1;
}

/** "scheme://" or "mailto:" at `i`: where a bare URI after whitespace begins. */
function uriStartsAt(s: string, i: number): boolean {
  const colon = schemeEnd(s, i);
  if (colon === -1) return false;
  return s.startsWith('//', colon + 1) || s.slice(i, colon).toLowerCase() === 'mailto';
}

function removeWhitespace(s: string): string {
  let out = '';
  for (const c of s) if (!WHITESPACE.test(c)) out += c;
  return out;
}

// A loop rather than /,+$/, which backtracks quadratically on long runs of commas.
function trimCommas(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === ',') start++;
  while (end > start && s[end - 1] === ',') end--;
  return s.slice(start, end);
}
