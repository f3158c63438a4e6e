import type { Resolver } from 'node:dns/promises';
import { normalizeEmail } from '#contract/validation.js';
import { type HostLookup, resolvePublicHost } from '#server/lib/address-policy.js';
import { isHostname } from './autoconfig-xml.js';
import { autoconfigSettings, mxHosts, resolverLookup, srvCandidates } from './lookups.js';
import { type ImapSettings, NO_SUGGESTION, type Suggestion } from './settings.js';
import { tableSettings, tableSettingsByMx } from './table.js';

// The IMAP server suggested for an address on the add-mailbox form of "another IMAP host"
// (docs/decisions/103-imap-settings-found-from-the-address.md): the domain's SRV records (RFC 6186), else its
// autoconfig file, else the built-in table (by the domain, then by its MX hosts). A suggestion is only
// a suggestion: the form fills empty fields with it and the user sends the password only after seeing
// it; the connection judges the host again when it is made (decision 025).

export interface MailboxSettingsDeps {
  /** DNS_SERVERS' resolver with short timeouts. */
  resolver: Resolver;
  /** IMAP_ALLOWED_HOSTS: private hosts that may nevertheless be suggested and asked (self-hosters, tests). */
  allowedHosts: ReadonlySet<string>;
  /** Each autoconfig request, connect to last byte; the form must not wait on a slow domain. */
  autoconfigTimeoutMs?: number;
  /** Everything together; what is not found by then is not found. */
  deadlineMs?: number;
  /** Tests: the port of the local autoconfig server. */
  autoconfigPort?: number;
  now?: () => number;
}

/** A domain's answer is kept this long, so the form asking again (a second blur) costs no lookups. */
const CACHE_MS = 10 * 60_000;
const CACHE_ENTRIES = 1000;

export function createMailboxSettingsService(deps: MailboxSettingsDeps) {
  const { resolver, allowedHosts } = deps;
  const now = deps.now ?? Date.now;
  const deadlineMs = deps.deadlineMs ?? 5000;
  const lookup: HostLookup = resolverLookup(resolver);
  const cache = new Map<string, { at: number; suggestion: Suggestion }>();

  /** The first candidate whose host resolves to addresses the product may contact. */
  async function firstPublic(candidates: readonly ImapSettings[]): Promise<ImapSettings | null> {
    for (const candidate of candidates) {
      try {
        await resolvePublicHost(candidate.host, allowedHosts, lookup);
        return candidate;
      } catch {
        // A private, loopback or metadata address, or none at all: never suggested.
      }
    }
    return null;
  }

  async function lookUp(domain: string): Promise<Suggestion> {
    const [srv, mx] = await Promise.all([srvCandidates(resolver, domain), mxHosts(resolver, domain)]);
    const bySrv = await firstPublic(srv);
    if (bySrv) return { imap: bySrv, source: 'srv' };
    const found = await autoconfigSettings(domain, {
      lookup,
      allowedHosts,
      timeoutMs: deps.autoconfigTimeoutMs ?? 3000,
      port: deps.autoconfigPort,
    });
    const byFile = found && (await firstPublic([found]));
    if (byFile) return { imap: byFile, source: 'autoconfig' };
    // The table's hosts are the product's own: suggested as written, without asking DNS about them.
    const byTable = tableSettings(domain) ?? tableSettingsByMx(mx);
    return byTable ? { imap: byTable, source: 'table' } : NO_SUGGESTION;
  }

  function remember(domain: string, suggestion: Suggestion): Suggestion {
    if (cache.size >= CACHE_ENTRIES) {
      // Expired answers go, and the oldest (a Map iterates in insertion order) until there is room.
      for (const [key, entry] of cache) {
        if (now() - entry.at >= CACHE_MS || cache.size >= CACHE_ENTRIES) cache.delete(key);
      }
    }
    cache.set(domain, { at: now(), suggestion });
    return suggestion;
  }

  return {
    /** The suggestion for `email`; no suggestion when nothing is found in time, never an error. */
    async suggest(email: string): Promise<Suggestion> {
      const domain = normalizeEmail(email).split('@').pop() ?? '';
      if (!isHostname(domain)) return NO_SUGGESTION;
      const kept = cache.get(domain);
      if (kept && now() - kept.at < CACHE_MS) return kept.suggestion;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), deadlineMs);
      });
      try {
        const suggestion = await Promise.race([lookUp(domain).catch(() => NO_SUGGESTION), late]);
        // Out of time: this once no suggestion, and nothing kept, so the next try may still find one.
        return suggestion ? remember(domain, suggestion) : NO_SUGGESTION;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type MailboxSettingsService = ReturnType<typeof createMailboxSettingsService>;
