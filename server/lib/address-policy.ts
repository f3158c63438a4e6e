import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Which network addresses the server may contact on a user's or a sender's behalf. A mail host a
// user types, or a link in someone's newsletter, must not turn the server into a way to reach the
// machine itself, the private network around it or the cloud metadata service (SSRF).

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** IPv4 embedded in IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible and NAT64 (64:ff9b::/96) forms. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True for an address on the public internet; false for private, loopback, link-local, CGNAT, multicast… */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export class ForbiddenAddressError extends Error {}

/** Answers every address a name resolves to; injectable so tests can play DNS (rebinding). */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), addresses in the order it gives them. */
export const systemLookup: HostLookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * An entry of an allowed set that lets through exactly this host as written, and never a name that merely
 * resolves to it: the product's own presets (Proton Mail Bridge on 127.0.0.1) must not let a host someone
 * typed rebind to loopback.
 */
export const exactHost = (host: string): string => `=${host.replace(/^\[|\]$/g, '').toLowerCase()}`;

/**
 * Resolves a host and refuses it unless every address it resolves to is public, or the host is
 * listed in `allowed` (self-hosters and tests reaching their own machines; an `exactHost` entry matches
 * the host as written only, a plain entry its name or every address it resolves to). Resolution goes through
 * the system resolver, so every spelling of an address (2130706433, 0x7f.1, 0177.0.0.1, [::ffff:…])
 * is judged by what it really points to. Answers the addresses to connect to.
 */
export async function resolvePublicHost(
  host: string,
  allowed: ReadonlySet<string> = new Set(),
  resolve: HostLookup = systemLookup,
): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const addresses = isIP(bare) ? [bare] : await resolve(bare);
  if (allowed.has(bare) || allowed.has(exactHost(bare)) || addresses.every((a) => allowed.has(a))) {
    return addresses;
  }
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined || addresses.length === 0) {
    throw new ForbiddenAddressError(
      `${host} points to an address this server may not contact (${refused ?? 'none'}).`,
    );
  }
  return addresses;
}

/** Reads a comma list of hosts/addresses (UNSUBSCRIBE_ALLOWED_HOSTS and the like). */
export function parseHostList(value: string | undefined | null): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .replace(/^\[|\]$/g, '')
          .toLowerCase(),
      )
      .filter(Boolean),
  );
}
