import type { Resolver } from 'node:dns/promises';
import type { HostLookup } from '#server/lib/address-policy.js';
import { safeRequest } from '#server/lib/safe-fetch.js';
import { isHostname, MAX_AUTOCONFIG_BYTES, parseAutoconfig } from './autoconfig-xml.js';
import type { ImapSettings } from './settings.js';

// The outside sources of a suggestion, each answering nothing rather than failing: a domain's DNS (SRV
// and MX records) and its autoconfig files over HTTPS. Every host they name is judged by the caller
// before it is suggested; the HTTPS requests go through lib/safe-fetch.ts, whose connector judges each
// address it connects to.

/** Each service's candidates in the order RFC 2782 gives: lowest priority first, heavier weight first. */
function ordered(records: Array<{ name: string; port: number; priority: number; weight: number }>) {
  return [...records].sort((a, b) => a.priority - b.priority || b.weight - a.weight);
}

/**
 * RFC 6186 §3: `_imaps._tcp.<domain>` (TLS from the first byte) before `_imap._tcp.<domain>` (STARTTLS),
 * as RFC 8314 §5.1 prefers the former. A lone target of "." says the service is not offered (§3.4).
 */
export async function srvCandidates(resolver: Resolver, domain: string): Promise<ImapSettings[]> {
  const services = [
    { name: `_imaps._tcp.${domain}`, secure: true },
    { name: `_imap._tcp.${domain}`, secure: false },
  ];
  const answers = await Promise.all(
    services.map((s) =>
      resolver.resolveSrv(s.name).catch(() => [] as Awaited<ReturnType<Resolver['resolveSrv']>>),
    ),
  );
  const candidates: ImapSettings[] = [];
  services.forEach((service, i) => {
    const records = answers[i]!;
    if (records.length === 1 && (records[0]!.name === '' || records[0]!.name === '.')) return;
    for (const r of ordered(records)) {
      const host = r.name.toLowerCase().replace(/\.$/, '');
      if (isHostname(host) && r.port >= 1 && r.port <= 65535) {
        candidates.push({ host, port: r.port, secure: service.secure });
      }
    }
  });
  return candidates;
}

/** The domain's mail exchangers, most preferred first; none when it has no MX records. */
export async function mxHosts(resolver: Resolver, domain: string): Promise<string[]> {
  const records = await resolver.resolveMx(domain).catch(() => []);
  return [...records].sort((a, b) => a.priority - b.priority).map((r) => r.exchange);
}

/** Both addresses of a name through the same resolver (A and AAAA); throws when it has none. */
export function resolverLookup(resolver: Resolver): HostLookup {
  return async (host) => {
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    const all = [...v4, ...v6];
    if (all.length === 0) throw new Error(`${host} has no address.`);
    return all;
  };
}

export interface AutoconfigOptions {
  lookup: HostLookup;
  allowedHosts: ReadonlySet<string>;
  timeoutMs: number;
  /** Tests: the local autoconfig server's port (443 otherwise, as mail clients ask). */
  port?: number;
}

/**
 * The two places mail clients look for a domain's own file (Thunderbird: the autoconfig subdomain, then
 * the domain's well-known path). Only https: the answer chooses where the user's password goes, so it
 * must come from the domain itself, not from whoever sits on the path of a plain http request.
 */
export function autoconfigUrls(domain: string, port?: number): string[] {
  const at = (host: string) => `https://${host}${port ? `:${port}` : ''}`;
  return [
    `${at(`autoconfig.${domain}`)}/mail/config-v1.1.xml`,
    `${at(domain)}/.well-known/autoconfig/mail/config-v1.1.xml`,
  ];
}

async function fetchOne(
  url: string,
  domain: string,
  options: AutoconfigOptions,
): Promise<ImapSettings | null> {
  try {
    const response = await safeRequest(url, {
      allowedHosts: options.allowedHosts,
      lookup: options.lookup,
      timeoutMs: options.timeoutMs,
      maxRedirects: 2,
      maxBodyBytes: MAX_AUTOCONFIG_BYTES,
      headers: { accept: 'application/xml, text/xml' },
    });
    if (response.status !== 200 || !response.finalUrl.startsWith('https:')) return null;
    return parseAutoconfig(response.bodyText ?? '', domain);
  } catch {
    // Refused address, timeout, oversized answer, TLS or network error: no suggestion from this file.
    return null;
  }
}

/** The first file's server (in the order of autoconfigUrls), both asked at once. */
export async function autoconfigSettings(
  domain: string,
  options: AutoconfigOptions,
): Promise<ImapSettings | null> {
  const found = await Promise.all(
    autoconfigUrls(domain, options.port).map((u) => fetchOne(u, domain, options)),
  );
  return found.find((s) => s !== null) ?? null;
}
