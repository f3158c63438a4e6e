import { decodeWords, type HeaderFields } from './headers.js';

export interface ListUnsubscribe {
  /** http: and https: URIs (RFC 2369 allows both; only https can be one-click) */
  https: string[];
  mailto: string[];
  /** every usable URI, in the sender's order of preference */
  all: string[];
}

export interface MailtoTarget {
  /** comma-separated recipients */
  to: string;
  subject: string;
  body: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * RFC 2369 List-Unsubscribe: angle-bracketed URIs, comma-separated, most preferred first. URIs are kept
 * exactly as sent (tokens in them are case- and escape-sensitive) apart from whitespace, which RFC 2369
 * says to ignore inside a URI because long ones get folded. Duplicates across headers (a list relaying a
 * sender's own header, or a header repeated verbatim) are reported once, at their first position.
 */
export function parseListUnsubscribe(values: ReadonlyArray<string>): ListUnsubscribe {
  const result: ListUnsubscribe = { https: [], mailto: [], all: [] };
  const seen = new Set<string>();
  for (const value of values) {
    // Some senders (SendGrid, phpList) encode the whole value, brackets included, as encoded words.
    for (const uri of extractUris(decodeWords(value))) {
      const kind = classify(uri);
      if (!kind || seen.has(uri)) continue;
      seen.add(uri);
      result.all.push(uri);
      result[kind].push(uri);
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

/** RFC 6068. Header names are case-insensitive; an absent or empty subject becomes 'unsubscribe'. */
export function parseMailto(uri: string): MailtoTarget {
  if (!/^mailto:/i.test(uri)) throw new TypeError(`not a mailto: URI: ${uri}`);
  const rest = uri.slice('mailto:'.length);
  const q = rest.indexOf('?');
  const to = splitAddresses(q === -1 ? rest : rest.slice(0, q));
  let subject = '';
  let body = '';
  for (const field of q === -1 ? [] : rest.slice(q + 1).split('&')) {
    if (!field) continue;
    const eq = field.indexOf('=');
    const name = percentDecode(eq === -1 ? field : field.slice(0, eq)).toLowerCase();
    const raw = eq === -1 ? '' : field.slice(eq + 1);
    if (name === 'to') to.push(...splitAddresses(raw));
    else if (name === 'subject' && !subject) subject = percentDecode(raw);
    else if (name === 'body' && !body) body = percentDecode(raw);
  }
  // An unsubscribe mail with no subject is easy for list software to drop as junk.
  return { to: to.join(','), subject: subject || 'unsubscribe', body };
}

function splitAddresses(encoded: string): string[] {
  return percentDecode(encoded)
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
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
  if (/^mailto:/i.test(uri)) {
    const first = parseMailto(uri).to.split(',')[0] ?? '';
    const at = first.lastIndexOf('@');
    return at > 0 && at < first.length - 1 ? 'mailto' : null;
  }
  return null; // ftp:, news:, junk: nothing we can act on
}

/** Candidate URIs in left-to-right order, bracketed or not; classify() decides which are usable. */
function extractUris(value: string): string[] {
  const uris: string[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf('<', i);
    uris.push(...splitBare(open === -1 ? value.slice(i) : value.slice(i, open)));
    if (open === -1) break;
    // Scan to the closing bracket, or to the next opening one when a bracket was never closed (truncated
    // or mangled header); one pass, so a value full of '<' stays linear.
    let end = open + 1;
    while (end < value.length && value[end] !== '>' && value[end] !== '<') end++;
    const closed = value[end] === '>';
    const inner = value.slice(open + 1, end);
    const compact = inner.replace(/\s+/g, '');
    const uri = closed ? compact : trimCommas(compact);
    if (uri) uris.push(uri);
    i = closed ? end + 1 : end;
  }
  return uris;
}

/**
 * Text outside brackets is normally just commas and (comments), but some senders (Episerver) emit bare
 * URIs, with stray spaces inside. Split only where a new URI visibly starts, so a space inside a query
 * string is treated as folding, not as a separator.
 */
function splitBare(text: string): string[] {
  if (!text.trim()) return [];
  // Whitespace runs collapsed first keep the split below linear.
  const withoutComments = text.replace(/\s+/g, ' ').replace(/(^|[\s,])\([^()]*\)/g, '$1 ');
  return withoutComments
    .split(/\s*,\s*(?=[a-z][a-z0-9+.-]*:)|\s+(?=[a-z][a-z0-9+.-]*:\/\/|mailto:)/i)
    .map((piece) => trimCommas(piece.replace(/\s+/g, '')))
    .filter((piece) => SCHEME.test(piece));
}

// A loop rather than /,+$/, which backtracks quadratically on long runs of commas.
function trimCommas(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === ',') start++;
  while (end > start && s[end - 1] === ',') end--;
  return s.slice(start, end);
}

/** Percent-decoding that survives non-UTF-8 escapes (decodeURIComponent throws on them). */
function percentDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < s.length; i++) {
      const hex = s.slice(i + 1, i + 3);
      if (s[i] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else {
        const cp = s.codePointAt(i) ?? 0;
        const ch = String.fromCodePoint(cp);
        bytes.push(...Buffer.from(ch, 'utf8'));
        i += ch.length - 1;
      }
    }
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }
}
