import type { DnsResolver } from '#server/lib/dns-resolver.js';
import type { ProviderFactory } from '#server/mail/index.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionsService } from '../subscriptions/service.js';
import type { UnsubscribeRepository } from './repository.js';

// What every step of the engine (steps/) is given: where it reads and writes, how it reaches the sender's
// mailbox, and the clock. service.ts builds it once from the service's dependencies.

export interface UnsubscribeContext {
  repo: UnsubscribeRepository;
  mailboxes: Repositories['mailboxes'];
  providers: ProviderFactory;
  subscriptions: SubscriptionsService;
  now: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** How a one-click POST is made and vouched for. */
  oneClick: {
    /** UNSUBSCRIBE_ALLOWED_HOSTS, parsed with parseHostList. */
    allowedHosts: ReadonlySet<string>;
    /** DNS for DKIM keys. */
    dnsResolver: DnsResolver;
    timeoutMs?: number;
  };
}
