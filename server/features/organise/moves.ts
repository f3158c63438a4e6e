import { type FoundMessage, INBOX_ORIGIN, type MailProvider } from '#server/mail/provider.js';
import type { Repositories } from '../repositories.js';
import type { RecordedMove } from './repository.js';

// The moves organising makes and takes back, apart from deciding them (engine.ts) and the calls (service.ts):
// putting recorded moves back, and recording the moves a provider's own filter made.

/** Puts back recorded moves of a mailbox, destination by destination. Answers how many came back. */
export async function restoreMoves(
  provider: MailProvider,
  mailboxes: Pick<Repositories['mailboxes'], 'followMoved'>,
  mailboxId: string,
  moves: RecordedMove[],
): Promise<number> {
  const byDestination = new Map<string, RecordedMove[]>();
  for (const m of moves) {
    const key = JSON.stringify(m.destination);
    const group = byDestination.get(key);
    if (group) group.push(m);
    else byDestination.set(key, [m]);
  }
  let restored = 0;
  for (const group of byDestination.values()) {
    const result = await provider.restoreMoved(
      group.map(({ id, origin }) => ({ id, origin })),
      group[0]!.destination,
      (moved) => mailboxes.followMoved(mailboxId, moved),
    );
    restored += result.restored;
  }
  return restored;
}

/**
 * The provider's own filter (Gmail filter, Outlook Inbox rule) filed some of this check's new mail in the
 * rule's folder before the product saw it: recorded as the rule's moves from the inbox, so that "Remove
 * rule and put mail back" puts that mail back too, as it does where the check files (IMAP).
 */
export async function recordFiledByProvider(
  { repo, provider, now }: { repo: Repositories['organise']; provider: MailProvider; now: () => number },
  sender: { id: string; mailboxId: string; address: string },
  folder: string,
  newMail: ReadonlyMap<string, FoundMessage[]>,
): Promise<void> {
  const fresh = new Set((newMail.get(sender.address) ?? []).map((m) => m.id));
  if (fresh.size === 0) return;
  const filed = (await provider.findSenderMessages({ from: sender.address, scope: { folder } })).filter((m) =>
    fresh.has(m.id),
  );
  if (filed.length === 0) return;
  await repo.recordMoves(
    sender.mailboxId,
    'rule',
    { kind: 'folder', path: folder },
    filed.map((m) => ({ id: m.id, origin: INBOX_ORIGIN, previous: m.id, senderId: sender.id })),
    now(),
  );
}
