import type { RuleApplied } from '#contract/api.js';
import type { Destination, FoundMessage, MailProvider, MovedMessage } from '#server/mail/provider.js';
import type { StoredRule } from './repository.js';

// Applying one sender's rule to its mailbox (docs/decisions/079-sender-rules.md): the folder first (the
// inbox's mail of the sender is filed), then keepNewest (all but the newest N of its mail, wherever it is,
// to the trash), then expireAfterDays (what is older than N days to the trash or the archive). Every move
// is reported to `record` so that it can be undone.

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface RuleRun {
  applied: RuleApplied;
  /** When the sender's oldest remaining message ages past the limit; null: only new mail needs the rule. */
  nextDueAt: number | null;
}

export type RecordMoves = (destination: Destination, moved: MovedMessage[]) => Promise<void>;

export async function applyRule(
  provider: MailProvider,
  address: string,
  rule: Pick<StoredRule, 'folder' | 'keepNewest' | 'expireAfterDays' | 'expireAction'>,
  now: number,
  record: RecordMoves,
): Promise<RuleRun> {
  const applied: RuleApplied = { moved: 0, trashed: 0, archived: 0 };
  const move = async (messages: FoundMessage[], destination: Destination): Promise<number> => {
    if (messages.length === 0) return 0;
    const result = await provider.moveMessages(messages, destination, (moved) => record(destination, moved));
    return result.moved;
  };

  if (rule.folder !== null) {
    const inInbox = await provider.findSenderMessages({ from: address, scope: 'inbox' });
    applied.moved += await move(inInbox, { kind: 'folder', path: rule.folder });
  }
  if (rule.keepNewest === null && rule.expireAfterDays === null) return { applied, nextDueAt: null };

  // Newest first, wherever the sender's mail is now (the folder step may just have moved it).
  let mail = await provider.findSenderMessages({ from: address, scope: 'mail' });
  if (rule.keepNewest !== null && mail.length > rule.keepNewest) {
    applied.trashed += await move(mail.slice(rule.keepNewest), { kind: 'trash' });
    mail = mail.slice(0, rule.keepNewest);
  }
  if (rule.expireAfterDays === null) return { applied, nextDueAt: null };

  const limit = rule.expireAfterDays * DAY_MS;
  const cutoff = now - limit;
  // An undated message cannot age: it is left where it is.
  const old = mail.filter((m) => m.date !== null && m.date < cutoff);
  if (rule.expireAction === 'archive') applied.archived += await move(old, { kind: 'archive' });
  else applied.trashed += await move(old, { kind: 'trash' });
  const remaining = mail.filter((m) => m.date !== null && m.date >= cutoff);
  const oldest = remaining.reduce<number | null>((o, m) => (o === null || m.date! < o ? m.date! : o), null);
  return { applied, nextDueAt: oldest === null ? null : oldest + limit };
}
