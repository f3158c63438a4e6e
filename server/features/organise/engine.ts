import type { RuleApplied } from '#contract/api.js';
import type { Destination, FoundMessage, MailProvider, MovedMessage } from '#server/mail/provider.js';
import type { StoredRule } from './repository.js';

// Applying sender rules to a mailbox (docs/decisions/079-sender-rules.md): the folder first (the inbox's
// mail of the sender is filed), then keepNewest (all but the newest N of its mail, wherever it is, to the
// trash), then expireAfterDays (what is older than N days to the trash or the archive). Each message is
// moved once, straight to where the steps leave it (a message filed and trashed in one run goes from the
// inbox to the trash), and every move is reported to its rule's `record` so that it can be undone.
//
// Saving a rule reads the sender's mail from the mailbox (findSenderMessages). What the rule keeps is then
// remembered with it (`tracked`: ids, folders, dates; never content), so a check applies the rule to that
// list and to the check's new mail without searching the mailbox, and the moves of all the rules of a
// check go out together, one call per destination: a search and a move per rule would cost the daily check
// of a large mailbox many times what the check itself costs (docs/benchmarks.md).

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest list remembered per rule; a sender with more mail is read from the mailbox each time. */
export const TRACKED_MAX = 1000;

/**
 * A message a rule keeps, and whether the rule archived it already. `folder` is where it was found or
 * filed; after a move to the archive it still names the folder before (the id, on IMAP, names the archive).
 */
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

/** Records moves as they land, each with the `owner` of the task it was made for (one call a group). */
export type RecordMoves = (
  destination: Destination,
  moved: Array<MovedMessage & { owner: string }>,
) => Promise<void>;

export type RuleParts = Pick<
  StoredRule,
  'folder' | 'keepNewest' | 'expireAfterDays' | 'expireAction' | 'providerRef' | 'tracked'
>;

/** One rule to apply: whose it is (`owner`, told back with its moves), its sender, the rule, and a check's new mail. */
export interface RuleTask {
  owner: string;
  address: string;
  rule: RuleParts;
  /** A check's new mail of the sender; absent when the rule is being saved (the mailbox is read). */
  fresh?: FoundMessage[];
}

type Target = 'folder' | 'trash' | 'archive';

/**
 * What a rule does to one message. Moves only, today: a part that changes flags (marking read, say) adds
 * its kind here, and the compiler then asks carryOut and the counting in applyRules for it; the mail port
 * would gain the call that sets a flag (docs/decisions/096-one-rule-definition.md).
 */
export type RuleAction = { kind: 'move'; message: TrackedMessage; target: Target };

interface Plan {
  task: RuleTask;
  /** Each message's action. */
  actions: RuleAction[];
  /** What the rule keeps, as it will be once the moves are made. */
  kept: TrackedMessage[];
  nextDueAt: number | null;
  counting: boolean;
}

/** Applies one rule (saving it): reads the mailbox, moves, answers what it did. */
export async function applyRule(
  provider: MailProvider,
  task: RuleTask,
  now: number,
  record: RecordMoves,
): Promise<RuleRun> {
  const [run] = await applyRules(provider, [task], now, record);
  return run!;
}

/**
 * Applies rules together (a check): each is planned on what it remembers and the check's new mail (or on
 * the mailbox, when it remembers nothing), then every move goes out grouped by destination.
 */
export async function applyRules(
  provider: MailProvider,
  tasks: RuleTask[],
  now: number,
  record: RecordMoves,
): Promise<RuleRun[]> {
  const plans: Plan[] = [];
  for (const task of tasks) plans.push(plan(task, await gather(provider, task), now));
  const renamed = await carryOut(provider, plans, record);
  return plans.map((p) => {
    const applied = counted(p.actions.filter((action) => renamed.has(action.message.id)));
    const kept = p.kept.map((m) => {
      const after = renamed.get(m.id);
      return after ? { ...m, id: after.id } : m;
    });
    return {
      applied,
      nextDueAt: p.nextDueAt,
      tracked: !p.counting || kept.length > TRACKED_MAX ? null : kept,
    };
  });
}

/**
 * What applying one rule would do now (a dry run): its actions counted as if every one succeeded, and how
 * many of the sender's messages it looked at. Reads the mailbox; moves and records nothing.
 */
export async function previewRule(
  provider: MailProvider,
  task: RuleTask,
  now: number,
): Promise<{ applied: RuleApplied; examined: number }> {
  const gathered = await gather(provider, task);
  return { applied: counted(plan(task, gathered, now).actions), examined: gathered.mail.length };
}

/** What actions did (or would do), as RuleApplied counts them. */
function counted(actions: RuleAction[]): RuleApplied {
  const applied: RuleApplied = { moved: 0, trashed: 0, archived: 0 };
  for (const action of actions) applied[APPLIED[action.target]] += 1;
  return applied;
}

/** The sender's mail the rule works on, newest first, and which of it is in the inbox to be filed. */
async function gather(
  provider: MailProvider,
  { address, rule, fresh }: RuleTask,
): Promise<{ mail: TrackedMessage[]; toFile: Set<string> }> {
  const counting = rule.keepNewest !== null || rule.expireAfterDays !== null;
  // Where the provider has its own filter, it filed the new mail as it arrived.
  const filing = rule.folder !== null && !(fresh && rule.providerRef);
  if (fresh && (rule.tracked !== null || !counting)) {
    const toFile = new Set(
      filing ? fresh.filter((m) => m.folder.toUpperCase() === 'INBOX').map((m) => m.id) : [],
    );
    return { mail: counting ? newestFirst(dedupe([...fresh, ...(rule.tracked ?? [])])) : fresh, toFile };
  }
  const inInbox = filing ? await provider.findSenderMessages({ from: address, scope: 'inbox' }) : [];
  const toFile = new Set(inInbox.map((m) => m.id));
  const mail = counting ? await provider.findSenderMessages({ from: address, scope: 'mail' }) : inInbox;
  return { mail, toFile };
}

function plan(
  task: RuleTask,
  { mail, toFile }: { mail: TrackedMessage[]; toFile: Set<string> },
  now: number,
): Plan {
  const { rule } = task;
  const counting = rule.keepNewest !== null || rule.expireAfterDays !== null;
  const target = new Map<string, Target>();
  if (rule.folder !== null) for (const id of toFile) target.set(id, 'folder');
  const folder = rule.folder;
  let kept = counting ? mail.map((m) => (folder !== null && toFile.has(m.id) ? { ...m, folder } : m)) : [];
  if (rule.keepNewest !== null && kept.length > rule.keepNewest) {
    for (const m of kept.slice(rule.keepNewest)) target.set(m.id, 'trash');
    kept = kept.slice(0, rule.keepNewest);
  }
  let nextDueAt: number | null = null;
  if (rule.expireAfterDays !== null) {
    const limit = rule.expireAfterDays * DAY_MS;
    const cutoff = now - limit;
    const archive = rule.expireAction === 'archive';
    // An undated message cannot age. What the rule archived stays the sender's mail (keepNewest counts it)
    // and is not archived again.
    const next: TrackedMessage[] = [];
    for (const m of kept) {
      if (m.date !== null && m.date < cutoff && !m.archived) {
        target.set(m.id, archive ? 'archive' : 'trash');
        if (archive) next.push({ ...m, archived: true });
        continue;
      }
      next.push(m);
      if (m.date !== null && !m.archived && m.date >= cutoff) {
        nextDueAt = nextDueAt === null ? m.date + limit : Math.min(nextDueAt, m.date + limit);
      }
    }
    kept = next;
  }
  const byId = new Map(mail.map((m) => [m.id, m]));
  const actions: RuleAction[] = [];
  for (const [id, to] of target) {
    const message = byId.get(id);
    if (message) actions.push({ kind: 'move', message, target: to });
  }
  return { task, actions, kept, nextDueAt, counting };
}

/**
 * The plans' actions: moves, one moveMessages per destination (each rule's folder, the trash, the archive), each
 * move recorded under its own rule. Answers the new place of each message moved, by its id before.
 */
async function carryOut(
  provider: MailProvider,
  plans: Plan[],
  record: RecordMoves,
): Promise<Map<string, MovedMessage>> {
  const groups = new Map<
    string,
    { destination: Destination; items: Array<{ message: TrackedMessage; owner: string }> }
  >();
  for (const p of plans) {
    for (const { message, target } of p.actions) {
      const destination: Destination =
        target === 'folder' ? { kind: 'folder', path: p.task.rule.folder! } : { kind: target };
      const key = JSON.stringify(destination);
      const group = groups.get(key) ?? { destination, items: [] };
      group.items.push({ message, owner: p.task.owner });
      groups.set(key, group);
    }
  }
  const renamed = new Map<string, MovedMessage>();
  for (const { destination, items } of groups.values()) {
    const owners = new Map(items.map((i) => [i.message.id, i.owner]));
    await provider.moveMessages(
      items.map((i) => i.message),
      destination,
      async (moved) => {
        for (const m of moved) renamed.set(m.previous, m);
        const owned = moved.flatMap((m) => {
          const owner = owners.get(m.previous);
          return owner === undefined ? [] : [{ ...m, owner }];
        });
        if (owned.length > 0) await record(destination, owned);
      },
    );
  }
  return renamed;
}

/** Which count of RuleApplied a move to each target adds to. */
const APPLIED = { folder: 'moved', trash: 'trashed', archive: 'archived' } as const satisfies Record<
  Target,
  keyof RuleApplied
>;

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
