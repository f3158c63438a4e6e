import { promises as dns } from 'node:dns';
import type { Resolver } from 'node:dns/promises';

/** A lookup as mailauth calls it: the records of `rrtype` at `name`, like dns.promises.resolve. */
export type DnsResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>;

/**
 * The resolver for the product's own DNS lookups (DKIM keys): `servers` is DNS_SERVERS, comma-separated
 * `host:port` (or bare IPs, port 53); null or empty: the system's resolvers. Each lookup gives up after a
 * few seconds, so a sender whose DNS hangs cannot hold an unsubscribe.
 */
export function createDnsResolver(servers: string | null): DnsResolver {
  const resolver = configuredResolver(servers, { timeoutMs: 3000, tries: 2 });
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/**
 * A node Resolver asking DNS_SERVERS (the system's resolvers when unset), each try given up after
 * `timeoutMs`: the lookups behind a form (mailbox settings) wait less than a DKIM check may.
 */
export function configuredResolver(
  servers: string | null,
  options: { timeoutMs: number; tries: number },
): Resolver {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs, tries: options.tries });
  const list = parseDnsServers(servers);
  if (list.length > 0) resolver.setServers(list);
  return resolver;
}

/** DNS_SERVERS as the list Resolver.setServers takes; throws on an entry that is not `host[:port]`. */
export function parseDnsServers(value: string | null): string[] {
  if (!value?.trim()) return [];
  return value.split(',').map((entry) => {
    const text = entry.trim();
    const match = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?$/.exec(text);
    if (!match) throw new Error(`DNS_SERVERS: "${text}" is not an IP address with an optional :port`);
    return match[2] ? `${match[1]}:${match[2]}` : match[1]!;
  });
}
