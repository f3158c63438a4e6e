import {
  type DeleteSenderRuleResponse,
  type MailboxFolder,
  type PutScreenerResponse,
  type PutSenderRuleResponse,
  RULE_MESSAGES,
  type RuleApplied,
  SCREENER_FOLDER,
  type SenderRule,
  type SenderRulesResponse,
} from '#contract/api.js';
import { reauthUrl } from '#contract/providers.js';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PlanLimitError,
  ReauthRequiredError,
  UpstreamUnavailableError,
} from '#server/lib/errors.js';
import type { ProviderFactory } from '#server/mail/index.js';
import {
  type Destination,
  type Folder,
  type FoundMessage,
  MailAuthError,
  MailConnectionError,
  type MailProvider,
} from '#server/mail/provider.js';
import type { ActivityLog } from '../activity/repository.js';
import type { Mailbox } from '../mailboxes/mailbox.js';
import type { Repositories } from '../repositories.js';
import { applyRule, applyRules, previewRule, type RecordMoves, type RuleTask } from './engine.js';
import { recordFiledByProvider, restoreMoves } from './moves.js';
import type { OrganisedSender, StoredRule } from './repository.js';
import { ruleFieldsOf } from './rule-repository.js';

// Organising what stays (docs/decisions/079-sender-rules.md, 080-the-screener.md): sender rules (a folder,
// keep the newest N, remove after N days), applied once when saved and again at each check, and the
// Screener, which holds the mail of senders a check finds for the first time until the user decides.

export interface OrganiseDeps {
  repos: Pick<Repositories, 'organise' | 'mailboxes'>;
  providers: ProviderFactory;
  /** Premium, or billing off: rules are a Premium feature. */
  hasPremium: (userId: string) => Promise<boolean>;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** The activity history: each rule or Screener run that moved mail, and their undos (features/activity). */
  activity?: ActivityLog;
}

/** Messages a rule's run moved, wherever to. */
const movedBy = (applied: RuleApplied): number => applied.moved + applied.trashed + applied.archived;

/**
 * Whether a rule may file into the folder: not the inbox itself, not a special-use folder other than the
 * archive (trash, junk, sent, drafts, All Mail, flagged…), not a label the provider keeps for itself.
 */
function fileable(folder: Folder): boolean {
  if (folder.system || folder.path.toUpperCase() === 'INBOX') return false;
  return folder.specialUse === null || folder.specialUse === '\\Archive';
}

export function createOrganiseService(deps: OrganiseDeps) {
  const { repos, providers, hasPremium, now = Date.now, log, activity } = deps;
  const { organise: repo, mailboxes } = repos;

  async function ownSender(userId: string, senderId: string): Promise<OrganisedSender> {
    const sender = await repo.sender(userId, senderId);
    if (!sender) throw new NotFoundError('Subscription not found.');
    return sender;
  }

  /** Runs `work` on the mailbox's adapter; provider refusals become the answers the screens know. */
  async function withMailbox<T>(mailboxId: string, work: (provider: MailProvider) => Promise<T>): Promise<T> {
    const mailbox = await mailboxes.byId(mailboxId);
    if (!mailbox) throw new NotFoundError('Mailbox not found.');
    if (mailbox.status === 'reauth') throw reauth(mailbox);
    const provider = providers(mailbox);
    try {
      return await work(provider);
    } catch (error) {
      if (error instanceof MailAuthError) {
        await mailboxes.markReauth(mailbox.id);
        throw reauth(mailbox);
      }
      if (error instanceof MailConnectionError) throw new UpstreamUnavailableError(error.message);
      throw error;
    } finally {
      await provider.close();
    }
  }

  /** Records a mailbox's moves of one cause, each under the sender it was made for (`owner`). */
  const recorder =
    (mailboxId: string, cause: 'rule' | 'screener'): RecordMoves =>
    (destination, moved) =>
      repo.recordMoves(
        mailboxId,
        cause,
        destination,
        moved.map(({ owner, ...m }) => ({ ...m, senderId: owner })),
        now(),
      );

  /**
   * The folder a rule names: one the mailbox has (by path, else by name), or a new one of that name (on a
   * dry run, not made: a folder of that name and path stands in for it).
   */
  async function resolveFolder(provider: MailProvider, wanted: string, dryRun = false): Promise<Folder> {
    const folders = await provider.listFolders();
    const found =
      folders.find((f) => f.path === wanted) ??
      folders.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
    if (found && !fileable(found)) throw new InvalidInputError(RULE_MESSAGES.folder);
    if (found) return found;
    if (dryRun) return { path: wanted, name: wanted, specialUse: null, scanned: true };
    let created: Folder;
    try {
      created = await provider.createFolder(wanted);
    } catch (error) {
      if (error instanceof MailAuthError || error instanceof MailConnectionError) throw error;
      // A name the provider refuses (control characters, its own labels' names, too long).
      throw new InvalidInputError(RULE_MESSAGES.folder);
    }
    // createFolder answers an existing folder of that name, which may be one nothing is filed into.
    if (!fileable(created)) throw new InvalidInputError(RULE_MESSAGES.folder);
    return created;
  }

  /** Ends a sender's rule: the provider's filter removed, the rule dropped; `restore` puts mail back. */
  async function endRule(sender: OrganisedSender, options: { restore: boolean }): Promise<number> {
    const rule = await repo.rule(sender.id);
    if (!rule) return 0;
    const moves = options.restore ? await repo.movesOf(sender.id, 'rule') : [];
    const restored =
      rule.providerRef || moves.length > 0
        ? await withMailbox(sender.mailboxId, async (provider) => {
            if (rule.providerRef) await provider.removeBlockRule(rule.providerRef);
            return moves.length > 0 ? restoreMoves(provider, mailboxes, sender.mailboxId, moves) : 0;
          })
        : 0;
    await repo.deleteRule(sender.id);
    await repo.forgetMoves(sender.id, 'rule');
    if (options.restore) await activity?.settle(sender.id, ['rule']);
    return restored;
  }

  return {
    /** GET /sender-rules */
    async list(userId: string): Promise<SenderRulesResponse> {
      const rows = await repo.rulesOfUser(userId);
      return {
        data: rows.map((r) => ({
          subscriptionId: r.senderId,
          address: r.address,
          senderName: r.senderName,
          account: r.account,
          rule: ruleFieldsOf(r.rule),
        })),
      };
    },

    /**
     * PUT /sender-rules/:subscriptionId: stores the rule and applies it once at once. A dry run answers what
     * that would do, with the same refusals, and changes nothing.
     */
    async put(
      userId: string,
      senderId: string,
      wanted: Omit<SenderRule, 'folderName'>,
      options: { dryRun?: boolean } = {},
    ): Promise<PutSenderRuleResponse> {
      const sender = await ownSender(userId, senderId);
      if (!(await hasPremium(userId))) throw new PlanLimitError(RULE_MESSAGES.premium);
      if (sender.blocked) throw new ConflictError(RULE_MESSAGES.blocked);
      return withMailbox(sender.mailboxId, async (provider) => {
        const folder =
          wanted.folder === null ? null : await resolveFolder(provider, wanted.folder, options.dryRun);
        const fields = {
          ...ruleFieldsOf({ ...wanted, folder: folder?.path ?? null }),
          folderName: folder?.name ?? null,
        };
        if (options.dryRun) {
          const task = {
            owner: sender.id,
            address: sender.address,
            rule: { ...fields, providerRef: null, tracked: null },
          };
          return { rule: fields, ...(await previewRule(provider, task, now())) };
        }
        // The provider's filter follows the folder: kept when it files to the same one, else replaced.
        const before = await repo.rule(sender.id);
        let providerRef = before?.providerRef ?? null;
        if (providerRef && before?.folder !== (folder?.path ?? null)) {
          await provider.removeBlockRule(providerRef);
          providerRef = null;
        }
        if (folder && !providerRef) {
          providerRef = (await provider.createFolderRule(sender.address, folder.path))?.ref ?? null;
        }
        const rule: StoredRule = { ...fields, providerRef, nextDueAt: null, tracked: null };
        await repo.saveRule({ id: sender.id, mailboxId: sender.mailboxId }, rule, now());
        const run = await applyRule(
          provider,
          { owner: sender.id, address: sender.address, rule },
          now(),
          recorder(sender.mailboxId, 'rule'),
        );
        await repo.saveRuns([{ senderId: sender.id, ...run }]);
        const moved = movedBy(run.applied);
        if (moved > 0) await activity?.record({ kind: 'rule', senderId: sender.id, moved });
        return { rule: ruleFieldsOf(rule), applied: run.applied };
      });
    },

    /** DELETE /sender-rules/:subscriptionId; `restore` also puts back what the rule moved. */
    async remove(userId: string, senderId: string, restore: boolean): Promise<DeleteSenderRuleResponse> {
      const sender = await ownSender(userId, senderId);
      if (!(await repo.rule(sender.id))) throw new NotFoundError('This sender has no rule.');
      return { restored: await endRule(sender, { restore }) };
    },

    /** GET /mailbox-folders?email=: the folders a rule can file into. */
    async folders(userId: string, email: string): Promise<{ data: MailboxFolder[] }> {
      const mailbox = await repo.mailboxOf(userId, email);
      if (!mailbox) throw new NotFoundError('Mailbox not found.');
      const folders = await withMailbox(mailbox.id, (provider) => provider.listFolders());
      return {
        data: folders.filter(fileable).map((f) => ({ path: f.path, name: f.name, specialUse: f.specialUse })),
      };
    },

    /** PUT /screener: turning it off puts everything still screened back in the inbox. */
    async setScreener(userId: string, email: string, enabled: boolean): Promise<PutScreenerResponse> {
      const mailbox = await repo.mailboxOf(userId, email);
      if (!mailbox) throw new NotFoundError('Mailbox not found.');
      await repo.setScreener(mailbox.id, enabled);
      if (enabled) return { enabled, restored: 0 };
      const senders = await repo.screenerSendersOfMailbox(mailbox.id);
      let restored = 0;
      if (senders.length > 0) {
        await withMailbox(mailbox.id, async (provider) => {
          for (const senderId of senders) {
            restored += await restoreMoves(
              provider,
              mailboxes,
              mailbox.id,
              await repo.movesOf(senderId, 'screener'),
            );
            await repo.forgetMoves(senderId, 'screener');
            await activity?.settle(senderId, ['screener']);
          }
        });
      }
      await repo.clearScreened(senders);
      return { enabled, restored };
    },

    /** Keep: a screened sender's mail goes back to the inbox. Answers how many messages went back. */
    async releaseScreened(userId: string, senderId: string): Promise<number> {
      const sender = await ownSender(userId, senderId);
      const moves = await repo.movesOf(sender.id, 'screener');
      const restored =
        moves.length > 0
          ? await withMailbox(sender.mailboxId, (provider) =>
              restoreMoves(provider, mailboxes, sender.mailboxId, moves),
            )
          : 0;
      await repo.forgetMoves(sender.id, 'screener');
      await repo.clearScreened([sender.id]);
      await activity?.settle(sender.id, ['screener']);
      return restored;
    },

    /**
     * After Unsubscribe or Block: a sender decided is no longer screened (its mail stays where it is; a
     * block trashes it all), and a blocked sender's rule ends: the block's trash rule wins.
     */
    async senderDecided(userId: string, senderId: string): Promise<void> {
      const sender = await repo.sender(userId, senderId);
      if (!sender || sender.category === 'uncategorized') return;
      await repo.clearScreened([sender.id]);
      if (!sender.blocked) return;
      await repo.forgetMoves(sender.id);
      try {
        await endRule(sender, { restore: false });
      } catch (error) {
        // The block itself is done; a filter left behind only files mail the block trashes anyway.
        log?.warn({ senderId, err: (error as Error).message }, 'rule of a blocked sender not removed');
        await repo.deleteRule(sender.id);
      }
    },

    /** Screener, during a check: marks the new senders it takes (before they are announced). */
    async screenNewSenders(mailboxId: string, newSenderIds: string[]): Promise<void> {
      if (newSenderIds.length === 0 || !(await repo.screenerOn(mailboxId))) return;
      await repo.markScreened(mailboxId, newSenderIds);
    },

    /**
     * At the end of a check: screened senders' inbox mail goes to the Screener folder, and the rules run
     * for the senders that had new mail and for those whose mail has aged past a limit.
     */
    async afterCheck(
      provider: MailProvider,
      mailboxId: string,
      newMail: ReadonlyMap<string, FoundMessage[]>,
    ): Promise<void> {
      const sendersWithNewMail = new Set(newMail.keys());
      const screened = (await repo.screenerOn(mailboxId)) ? await repo.screenedSenders(mailboxId) : [];
      const waiting = screened.filter((s) => sendersWithNewMail.has(s.address));
      if (waiting.length > 0) {
        const folder = await provider.createFolder(SCREENER_FOLDER);
        const destination: Destination = { kind: 'folder', path: folder.path };
        for (const s of waiting) {
          const inInbox = await provider.findSenderMessages({ from: s.address, scope: 'inbox' });
          if (inInbox.length === 0) continue;
          const held = await provider.moveMessages(inInbox, destination, (moved) =>
            repo.recordMoves(
              mailboxId,
              'screener',
              destination,
              moved.map((m) => ({ ...m, senderId: s.id })),
              now(),
            ),
          );
          if (held.moved > 0) {
            await activity?.record({ kind: 'screener', senderId: s.id, moved: held.moved, byCheck: true });
          }
        }
      }
      const at = now();
      const due: RuleTask[] = [];
      for (const { senderId, address, blocked, rule } of await repo.rulesOfMailbox(mailboxId)) {
        if (blocked) continue;
        const aged = rule.nextDueAt !== null && rule.nextDueAt <= at;
        if (!aged && !sendersWithNewMail.has(address)) continue;
        try {
          if (rule.providerRef && rule.folder !== null) {
            const sender = { id: senderId, mailboxId, address };
            await recordFiledByProvider({ repo, provider, now }, sender, rule.folder, newMail);
          }
        } catch (error) {
          if (error instanceof MailAuthError) throw error;
          log?.warn({ senderId, err: (error as Error).message }, 'filed mail not recorded');
        }
        due.push({ owner: senderId, address, rule, fresh: newMail.get(address) ?? [] });
      }
      if (due.length === 0) return;
      const runs = await applyRules(provider, due, at, recorder(mailboxId, 'rule'));
      await repo.saveRuns(runs.map((run, n) => ({ senderId: due[n]!.owner, ...run })));
      for (const [n, run] of runs.entries()) {
        const moved = movedBy(run.applied);
        if (moved > 0)
          await activity?.record({ kind: 'rule', senderId: due[n]!.owner, moved, byCheck: true });
      }
    },
  };
}

function reauth(mailbox: Pick<Mailbox, 'provider' | 'email'>): ReauthRequiredError {
  return new ReauthRequiredError(`Please sign in to ${mailbox.email} again.`, {
    redirectUrl: reauthUrl(mailbox),
  });
}

export type OrganiseService = ReturnType<typeof createOrganiseService>;
