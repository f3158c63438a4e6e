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
