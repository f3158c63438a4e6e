import type { RuleApplied } from '#contract/api.js';
import type { Destination, FoundMessage, MailProvider, MovedMessage } from '#server/mail/provider.js';
import type { StoredRule } from './repository.js';

// Applying one sender's rule to its mailbox (docs/decisions/079-sender-rules.md): the folder first (the
// inbox's mail of the sender is filed), then keepNewest (all but the newest N of its mail, wherever it is,
// to the trash), then expireAfterDays (what is older than N days to the trash or the archive). Every move
// is reported to `record` so that it can be undone.
//
// Saving a rule reads the sender's mail from the mailbox (findSenderMessages). What the rule keeps is then
// remembered with it (`tracked`: ids, folders, dates; never content), so a check applies the rule to that
// list and to the check's new mail without searching the mailbox again: a search per rule would cost the
// daily check of a large mailbox many times what the check itself costs (docs/benchmarks.md).

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest list remembered per rule; a sender with more mail is read from the mailbox each time. */
export const TRACKED_MAX = 1000;

/** A message the rule keeps: where it is, and whether the rule archived it already. */
export interface TrackedMessage extends FoundMessage {
  archived?: boolean;
}

export interface RuleRun {
  applied: RuleApplied;
  /** When the sender's oldest remaining message ages past the limit; null: only new mail needs the rule. */
  nextDueAt: number | null;
  /** What the rule keeps now, newest first; null when not remembered (too many, or no count rule). */
  tracked: TrackedMessage[] | null;
}

export type RecordMoves = (destination: Destination, moved: MovedMessage[]) => Promise<void>;

type RuleParts = Pick<
  StoredRule,
  'folder' | 'keepNewest' | 'expireAfterDays' | 'expireAction' | 'providerRef' | 'tracked'
>;

/**
 * Applies the rule. `fresh`: a check's new mail of the sender; with it and a remembered list, the mailbox
 * is not searched. Without (saving the rule) or with nothing remembered, the mailbox is read.
 */
export async function applyRule(
  provider: MailProvider,
  address: string,
  rule: RuleParts,
  now: number,
  record: RecordMoves,
  fresh?: FoundMessage[],
): Promise<RuleRun> {
  const applied: RuleApplied = { moved: 0, trashed: 0, archived: 0 };
  /** Moves, records, and answers the messages where they are now (ids change on IMAP). */
  const move = async (messages: TrackedMessage[], destination: Destination): Promise<TrackedMessage[]> => {
    if (messages.length === 0) return [];
    const renamed = new Map<string, MovedMessage>();
    const result = await provider.moveMessages(messages, destination, async (moved) => {
      for (const m of moved) renamed.set(m.previous, m);
      await record(destination, moved);
    });
    if (destination.kind === 'folder') applied.moved += result.moved;
    else if (destination.kind === 'trash') applied.trashed += result.moved;
    else applied.archived += result.moved;
    return messages.map((m) => {
      const after = renamed.get(m.id);
      const folder = destination.kind === 'folder' ? destination.path : m.folder;
      return after
        ? { ...m, id: after.id, folder, archived: destination.kind === 'archive' || m.archived }
        : m;
    });
  };
  const counting = rule.keepNewest !== null || rule.expireAfterDays !== null;
  const quick = fresh !== undefined && (rule.tracked !== null || !counting);

  let mail: TrackedMessage[];
  if (quick) {
    // The check's new mail: what arrived in the inbox is filed (unless the provider's own filter did).
    let arrived: TrackedMessage[] = fresh;
    if (rule.folder !== null && !rule.providerRef) {
      const inInbox = arrived.filter((m) => m.folder.toUpperCase() === 'INBOX');
      const filed = await move(inInbox, { kind: 'folder', path: rule.folder });
      const byId = new Map(inInbox.map((m, i) => [m.id, filed[i]!]));
      arrived = arrived.map((m) => byId.get(m.id) ?? m);
    }
    if (!counting) return { applied, nextDueAt: null, tracked: null };
    mail = newestFirst(dedupe([...arrived, ...(rule.tracked ?? [])]));
  } else {
    if (rule.folder !== null) {
      const inInbox = await provider.findSenderMessages({ from: address, scope: 'inbox' });
      await move(inInbox, { kind: 'folder', path: rule.folder });
    }
    if (!counting) return { applied, nextDueAt: null, tracked: null };
    // Newest first, wherever the sender's mail is now (the folder step may just have moved it).
    mail = await provider.findSenderMessages({ from: address, scope: 'mail' });
  }

  if (rule.keepNewest !== null && mail.length > rule.keepNewest) {
    await move(mail.slice(rule.keepNewest), { kind: 'trash' });
    mail = mail.slice(0, rule.keepNewest);
  }
  let nextDueAt: number | null = null;
  if (rule.expireAfterDays !== null) {
    const limit = rule.expireAfterDays * DAY_MS;
    const cutoff = now - limit;
    // An undated message cannot age: it is left where it is. What the rule archived stays the sender's
    // mail (keepNewest counts it), and is not archived again.
    const old = mail.filter((m) => m.date !== null && m.date < cutoff && !m.archived);
    if (rule.expireAction === 'archive') {
      const archived = await move(old, { kind: 'archive' });
      const byId = new Map(old.map((m, i) => [m.id, archived[i]!]));
      mail = mail.map((m) => byId.get(m.id) ?? m);
    } else {
      const gone = new Set(old.map((m) => m.id));
      await move(old, { kind: 'trash' });
      mail = mail.filter((m) => !gone.has(m.id));
    }
    for (const m of mail) {
      if (m.date === null || m.date < cutoff || m.archived) continue;
      nextDueAt = nextDueAt === null ? m.date + limit : Math.min(nextDueAt, m.date + limit);
    }
  }
  return { applied, nextDueAt, tracked: mail.length > TRACKED_MAX ? null : mail };
}

function dedupe(messages: TrackedMessage[]): TrackedMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => !seen.has(m.id) && seen.add(m.id));
}

/** Newest first, undated last (as findSenderMessages answers). */
function newestFirst(messages: TrackedMessage[]): TrackedMessage[] {
  return [...messages].sort(
    (a, b) => (b.date ?? Number.NEGATIVE_INFINITY) - (a.date ?? Number.NEGATIVE_INFINITY),
  );
}
