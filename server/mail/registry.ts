import { MAILBOX_PROVIDERS } from '#contract/providers.js';
import type { MailDescriptor } from './descriptor.js';
import { gmailDescriptor } from './gmail/descriptor.js';
import { graphDescriptor } from './graph/descriptor.js';
import { imapDescriptor } from './imap/descriptor.js';

// Every adapter kind the server has. A new kind (say jmap/ for Fastmail) adds its descriptor here; a
// new provider of an existing kind adds its id to that kind's descriptor (and its row to
// contract/providers.ts).

const DESCRIPTORS: readonly MailDescriptor[] = [gmailDescriptor, graphDescriptor, imapDescriptor];

/**
 * The descriptor of each stored provider. Built at load, where a provider of the contract's table
 * without a descriptor, or one claimed twice, stops the server at start instead of at its first scan.
 */
const BY_PROVIDER: ReadonlyMap<string, MailDescriptor> = (() => {
  const map = new Map<string, MailDescriptor>();
  for (const descriptor of DESCRIPTORS) {
    for (const provider of descriptor.providers) {
      const other = map.get(provider);
      if (other)
        throw new Error(`Provider ${provider} is claimed by both ${other.kind} and ${descriptor.kind}`);
      map.set(provider, descriptor);
    }
  }
  const missing = MAILBOX_PROVIDERS.filter((p) => !map.has(p));
  if (missing.length > 0) {
    throw new Error(
      `No adapter under server/mail/ serves provider ${missing.join(', ')} of contract/providers.ts`,
    );
  }
  return map;
})();

/** The descriptor that opens mailboxes of `provider`, or undefined for a name no kind serves. */
export function mailDescriptor(provider: string): MailDescriptor | undefined {
  return BY_PROVIDER.get(provider);
}
