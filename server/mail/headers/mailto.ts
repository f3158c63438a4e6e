// RFC 6068 mailto: URIs from List-Unsubscribe, read as an unsubscribe REQUEST the product will send from
// the user's own address. Everything in the URI is the sender's text, so it decides nothing about who
// receives mail or what the mail says beyond a short, plain request (docs/decisions/022-mailto-and-block-safety.md):
// - exactly one recipient: the first addr-spec of the path; `to=`, `cc=`, `bcc=` and every other header
//   field are ignored; an address that decodes to CR/LF, a comma, group syntax, quotes, brackets or
//   spaces is refused rather than repaired;
// - the subject is single-line and capped; the body is a fixed short request unless the list asks for a
//   short plain-text one without links (majordomo-style "unsubscribe <list>").
// One pass over a capped input: linear whatever the sender wrote.

export interface MailtoRequest {
  /** the one recipient: a plain ASCII addr-spec, lowercased domain */
  to: string;
  subject: string;
  body: string;
}

export type MailtoParse = { ok: true; request: MailtoRequest } | { ok: false; reason: string };

/** Longer mailto: URIs are refused outright (no real list needs one). */
export const MAILTO_MAX_LENGTH = 2048;
export const MAILTO_SUBJECT_MAX = 120;
/** The list's own body is sent only when it is at most this long (and plain, without links). */
export const MAILTO_BODY_MAX = 200;
export const MAILTO_DEFAULT_SUBJECT = 'unsubscribe';
export const MAILTO_DEFAULT_BODY = 'unsubscribe';

// dot-atom local part (RFC 5322 atext and dots; no quoted strings) and a host name of LDH labels.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// Anything a mail client would turn into a link: a scheme, www., or a bare domain name.
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:|[a-z0-9-]+\.[a-z]{2,}\b/i;

export function parseMailto(uri: string): MailtoParse {
  if (uri.length > MAILTO_MAX_LENGTH) return refuse('the mailto: link is too long');
  if (!/^mailto:/i.test(uri)) return refuse('not a mailto: link');
  const rest = uri.slice('mailto:'.length);
  const q = rest.indexOf('?');
  const path = q === -1 ? rest : rest.slice(0, q);
  // RFC 6068 §2: the path is a comma list of addresses; only the first is ever used.
  const comma = path.indexOf(',');
  const first = comma === -1 ? path : path.slice(0, comma);
  const decoded = percentDecode(first);
  if (decoded === null) return refuse('the address is not valid percent-encoding');
  const to = addrSpec(decoded);
  if (!to) return refuse('the link does not name one plain e-mail address');

  let subject: string | null = null;
  let body: string | null = null;
  if (q !== -1) {
    for (const field of rest.slice(q + 1).split('&')) {
      const eq = field.indexOf('=');
      if (eq <= 0) continue;
      const name = field.slice(0, eq).toLowerCase();
      // Header names are case-insensitive; the first occurrence wins; others (to, cc, bcc…) are ignored.
      if (name === 'subject' && subject === null) subject = lossyPercentDecode(field.slice(eq + 1));
      else if (name === 'body' && body === null) body = lossyPercentDecode(field.slice(eq + 1));
    }
  }
  return { ok: true, request: { to, subject: cleanSubject(subject), body: cleanBody(body) } };
}

function refuse(reason: string): MailtoParse {
  return { ok: false, reason };
}

/** A plain addr-spec, or null: no display names, groups, comments, quotes, spaces or controls. */
function addrSpec(text: string): string | null {
  if (text.length === 0 || text.length > 254) return null;
  const at = text.lastIndexOf('@');
  // No 64-octet limit on the local part: Mailchimp's unsubscribe addresses are longer (the corpus has them).
  if (at <= 0 || at === text.length - 1) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!LOCAL_PART.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253 || !labels.every((l) => HOST_LABEL.test(l))) return null;
  // A numeric top-level label is an IP address in disguise; mail to an address literal is not a list's.
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) return null;
  return `${local}@${domain.toLowerCase()}`;
}

/** One line, controls removed, capped; 'unsubscribe' when empty (list software drops empty subjects). */
function cleanSubject(subject: string | null): string {
  const line = stripControls(subject ?? '', ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!line) return MAILTO_DEFAULT_SUBJECT;
  return Array.from(line).slice(0, MAILTO_SUBJECT_MAX).join('');
}

/** The list's body when short plain text without links; otherwise the fixed request. */
function cleanBody(body: string | null): string {
  if (body === null) return MAILTO_DEFAULT_BODY;
  const text = stripControls(body.replace(/\r\n?/g, '\n'), '', true).trim();
  if (!text || text.length > MAILTO_BODY_MAX || LINK_LIKE.test(text)) return MAILTO_DEFAULT_BODY;
  return text;
}

/**
 * Removes C0/C1 controls and Unicode bidi overrides/isolates (they could hide text in the user's Sent
 * folder); newlines survive only where `keepNewlines`.
 */
function stripControls(text: string, replacement: string, keepNewlines = false): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    const bidi = (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
    if (keepNewlines && ch === '\n') out += ch;
    else if (control || bidi) out += replacement;
    else out += ch;
  }
  return out;
}

/** Percent-decoding of the address: UTF-8 only; null when an escape is malformed or not UTF-8. */
function percentDecode(s: string): string | null {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Percent-decoding of text that survives non-UTF-8 escapes (decodeURIComponent throws on them). */
function lossyPercentDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    // Escapes become their byte, the text between them its UTF-8 bytes; one pass, and the decoded
    // bytes never outnumber the UTF-8 bytes of the text.
    const bytes = Buffer.allocUnsafe(Buffer.byteLength(s, 'utf8'));
    let length = 0;
    let plain = 0;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) === 0x25 && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
        length += bytes.write(s.slice(plain, i), length, 'utf8');
        bytes[length++] = Number.parseInt(s.slice(i + 1, i + 3), 16);
        i += 2;
        plain = i + 1;
      }
    }
    length += bytes.write(s.slice(plain), length, 'utf8');
    return new TextDecoder().decode(bytes.subarray(0, length));
  }
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
