import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

// Brands: the senders of one organisation grouped under the registrable domain (Public Suffix List,
// docs/decisions/082-brands.md), or under the list they share.

/** Longest host name DNS allows; a longer header value is not a host and is not parsed. */
const MAX_HOST = 253;

/**
 * The registrable domain of a host in its ASCII (punycode) form, so `bücher.example` and
 * `xn--bcher-kva.example` are one brand. Private suffixes count (github.io: each site is its own brand).
 * Null when the host has none (an IP address, a bare name, a public suffix alone).
 */
export function registrableDomain(host: string): string | null {
  if (host.length === 0 || host.length > MAX_HOST) return null;
  const ascii = domainToASCII(host.toLowerCase().replace(/\.$/, ''));
  if (ascii === '') return null;
  return getDomain(ascii, { allowPrivateDomains: true, validateHostname: true }) ?? null;
}

/**
 * The identifier of a List-Id header value (RFC 2919: an optional phrase, then `<label.namespace>`),
 * lower-cased; null when there is none or it is not a dotted name. One pass over at most 1,000 characters.
 */
export function listIdentifier(raw: string | null): string | null {
  if (raw === null) return null;
  const value = raw.slice(0, 1000);
  const open = value.lastIndexOf('<');
  const close = open === -1 ? -1 : value.indexOf('>', open);
  const id = (open === -1 ? value : value.slice(open + 1, close === -1 ? undefined : close))
    .trim()
    .toLowerCase();
  if (id.length === 0 || id.length > MAX_HOST || !id.includes('.')) return null;
  // RFC 2919 list ids are dot-atoms; anything else (spaces, quotes, control characters) is refused.
  if (!/^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(id)) return null;
  return id;
}

/**
 * The brand of a sender: the registrable domain of its List-Id when it has one (a list sent through an
 * email service provider's domain belongs with the list, not with the provider), else of its address's
 * domain; the address's domain as written when neither has a registrable domain.
 */
export function brandOf(address: string, listId: string | null): string {
  if (listId !== null) {
    const fromList = registrableDomain(listId);
    if (fromList !== null) return fromList;
  }
  const at = address.lastIndexOf('@');
  const host = at === -1 ? address : address.slice(at + 1);
  return registrableDomain(host) ?? host.toLowerCase().slice(0, MAX_HOST);
}

/** Longest brand name shown; a longer sender name is cut here. */
const MAX_BRAND_NAME = 100;
/** C0/C1 controls, zero-width and bidi marks, overrides and isolates, the BOM: never part of a name worth showing. */
function showable(code: number): boolean {
  return !(
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/** A sender-written name as shown: unshowable characters dropped, spaces collapsed, capped. */
function cleanName(raw: string): string {
  let out = '';
  for (const ch of raw.slice(0, 1000)) {
    const code = ch.codePointAt(0) ?? 0;
    // Line breaks and tabs become spaces (collapsed below); other unshowable characters go.
    out += code === 0x09 || code === 0x0a || code === 0x0d ? ' ' : showable(code) ? ch : '';
  }
  return out.replace(/\s+/g, ' ').trim().slice(0, MAX_BRAND_NAME).trim();
}

/**
 * The name a brand is shown by: the display name its senders use on the most messages ("The New York
 * Times"), ties to the one more senders use, then the first in code-point order. The names are whatever the
 * senders wrote in their From headers: controls, bidi and zero-width characters are dropped, spaces
 * collapsed and the length capped; the screens show it as text. Null when no sender gives a name, or the
 * name is only an address (the domain shows alone then).
 */
export function brandName(
  senders: ReadonlyArray<{ senderName: string; messageCount: number }>,
): string | null {
  const tally = new Map<string, { messages: number; senders: number }>();
  for (const { senderName, messageCount } of senders) {
    const name = cleanName(senderName);
    if (name === '' || name.includes('@')) continue;
    const seen = tally.get(name) ?? { messages: 0, senders: 0 };
    tally.set(name, { messages: seen.messages + Math.max(0, messageCount), senders: seen.senders + 1 });
  }
  let best: string | null = null;
  for (const [name, t] of tally) {
    const b = best === null ? undefined : tally.get(best);
    if (
      !b ||
      t.messages > b.messages ||
      (t.messages === b.messages &&
        (t.senders > b.senders || (t.senders === b.senders && best !== null && name < best)))
    )
      best = name;
  }
  return best;
}
