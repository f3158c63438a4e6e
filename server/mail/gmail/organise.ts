import { parseFrom } from '../headers/detect.js';
import type {
  Folder,
  FoundMessage,
  MailProvider,
  MovedMessage,
  RestoreResult,
  TrashResult,
} from '../provider.js';
import { checkFolderName } from '../shared/folder-name.js';
import { senderAddress } from '../shared/sender-address.js';
import {
  BATCH_MODIFY_LIMIT,
  GmailApiError,
  type GmailFilterInput,
  type GmailLabel,
  type GmailMessage,
  QUOTA_UNITS,
} from './api.js';
import type { GmailClient } from './client.js';
import { type Move, moveFor, originOf, putBack } from './moves.js';
import { searchAddress, senderQuery } from './scan-query.js';

// Sender rules and the Screener on Gmail's labels: a "folder" is a label, moving is batchModify (add the
// destination's label, take INBOX off), and a message keeps its id wherever it goes. The block's own moves
// (adapter.ts moveToTrash, restoreFromTrash, createBlockRule) are the trash case of the same code. A move's
// origin is the labels it took off (moves.ts).

export type GmailOrganiser = Pick<
  MailProvider,
  'findSenderMessages' | 'moveMessages' | 'restoreMoved' | 'createFolder' | 'createFolderRule'
>;

// System labels that hold the user's own or rejected mail.
const NOT_SCANNED = new Set(['TRASH', 'SPAM', 'SENT', 'DRAFT']);
const SPECIAL_USE: Record<string, string> = {
  INBOX: '\\Inbox',
  SENT: '\\Sent',
  DRAFT: '\\Drafts',
  TRASH: '\\Trash',
  SPAM: '\\Junk',
  STARRED: '\\Flagged',
  IMPORTANT: '\\Important',
};

/** Labels remembered from findSenderMessages, for moveMessages to skip what is already there. */
const REMEMBERED_LABELS = 50_000;

/** A label as listFolders gives it: its id is the folder's path. */
export function toFolder(label: GmailLabel): Folder {
  return {
    path: label.id,
    name: label.name,
    specialUse: SPECIAL_USE[label.id] ?? null,
    scanned: !NOT_SCANNED.has(label.id),
    ...(label.type === 'system' ? { system: true } : {}),
  };
}

/** The address of a message's From, read as the scan reads it (so it names the sender the same way). */
export function fromAddress(message: GmailMessage): string | undefined {
  const from = message.payload?.headers?.find((h) => h.name.toLowerCase() === 'from')?.value;
  return parseFrom(from)?.address;
}

/**
 * A filter `from` → `action`, or the identical one already there: Gmail refuses a duplicate with 400
 * "Filter already exists" (a retry, or the same rule made twice), and that filter is the rule.
 */
export async function createFilterOnce(
  client: GmailClient,
  address: string,
  action: Required<GmailFilterInput['action']>,
): Promise<{ ref: string }> {
  // Gmail reads a filter's `from` as a search: an address with spaces, quotes or braces is quoted, as the
  // listings quote it, so that it cannot widen the rule to other senders.
  const from = searchAddress(senderAddress(address));
  try {
    const filter = await client.createFilter({ criteria: { from }, action });
    return { ref: filter.id };
  } catch (err) {
    if (!(err instanceof GmailApiError) || (err.status !== 400 && err.status !== 409)) throw err;
    const existing = (await client.listFilters()).find(
      (f) =>
        f.criteria.from?.toLowerCase() === from &&
        sameSet(f.action.addLabelIds, action.addLabelIds) &&
        sameSet(f.action.removeLabelIds, action.removeLabelIds),
    );
    if (!existing) throw err;
    return { ref: existing.id };
  }
}

function sameSet(a: readonly string[] | undefined, b: readonly string[]): boolean {
  const left = new Set(a ?? []);
  return left.size === new Set(b).size && b.every((x) => left.has(x));
}

export function createOrganiser(client: GmailClient): GmailOrganiser {
  // Labels of the messages findSenderMessages last saw (FoundMessage carries only the inbox): moveMessages
  // skips a message already filed under the destination without another get. Oldest dropped first.
  const seen = new Map<string, readonly string[]>();
  const remember = (id: string, labels: readonly string[]) => {
    seen.delete(id);
    if (seen.size >= REMEMBERED_LABELS) seen.delete(seen.keys().next().value as string);
    seen.set(id, labels);
  };

  async function findLabel(name: string): Promise<GmailLabel | undefined> {
    const wanted = name.toLowerCase();
    return (await client.listLabels()).find((l) => l.name.trim().toLowerCase() === wanted);
  }

  function userLabel(label: GmailLabel): Folder {
    if (label.type === 'system') throw new Error(`"${label.name}" is one of Gmail's own labels`);
    return toFolder(label);
  }

  /**
   * Which of `ids` are at the destination now. A label's (or the trash's) listing costs 5 units a page of
   * 500 of everything under it, a get 5 units a message: the label's size (labels.get, 1 unit) says which
   * is cheaper. The archive is no label: its messages are looked at one by one.
   */
  async function stillThere(move: Move, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    if (move.label) {
      const label = await client.getLabel(move.label);
      // The user deleted the label: nothing is under it any more.
      if (!label) return new Set();
      const pages = Math.max(1, Math.ceil((label.messagesTotal ?? Number.POSITIVE_INFINITY) / 500));
      if (pages * QUOTA_UNITS['messages.list'] < ids.length * QUOTA_UNITS['messages.get']) {
        // Spam and trash are listed only for the trash: a labelled message since trashed is not brought back.
        const listed = await client.listAllIds('', {
          labelIds: [move.label],
          includeSpamTrash: move.label === 'TRASH',
        });
        const wanted = new Set(ids);
        return new Set(listed.filter((id) => wanted.has(id)));
      }
    }
    const now = await client.getMetadata(ids, ['From']);
    return new Set(
      ids.filter((id) => {
        const message: GmailMessage | null | undefined = now.get(id);
        return message ? move.at(message.labelIds ?? []) : false;
      }),
    );
  }

  return {
    async findSenderMessages(query) {
      const address = senderAddress(query.from);
      const { scope } = query;
      let label: string | null = null;
      if (typeof scope === 'object' && scope !== null && typeof scope.folder === 'string' && scope.folder) {
        label = scope.folder;
      } else if (scope !== 'inbox' && scope !== 'mail') throw new Error('Unknown scope');
      if (query.before !== undefined && !Number.isFinite(query.before)) throw new Error('before: epoch ms');
      // One listing (5 units a page of 500; spam and trash are never listed), then the From and labels of
      // only what it found. Gmail's before: takes epoch seconds; a second's margin keeps its rounding from
      // dropping a message, and internalDate decides to the millisecond below. A folder is its label id.
      let q = senderQuery(address);
      if (scope === 'inbox') q += ' in:inbox';
      if (query.before !== undefined) q += ` before:${Math.max(0, Math.ceil(query.before / 1000) + 1)}`;
      let listed: string[];
      try {
        listed = await client.listAllIds(q, label ? { labelIds: [label] } : {});
      } catch (err) {
        // Gmail refuses a label id it does not know: a rule's label the user deleted holds nothing.
        const refused = err instanceof GmailApiError && (err.status === 400 || err.status === 404);
        if (label && refused && !(await client.getLabel(label))) return [];
        throw err;
      }
      const metadata = listed.length > 0 ? await client.getMetadata(listed, ['From']) : new Map();
      const found: FoundMessage[] = [];
      for (const id of listed) {
        const message: GmailMessage | null | undefined = metadata.get(id);
        // Gmail's from: is a search (display names, longer addresses): only this very address counts.
        if (!message || fromAddress(message) !== address) continue;
        const labels = message.labelIds ?? [];
        if (labels.includes('TRASH') || labels.includes('SPAM')) continue;
        const inbox = labels.includes('INBOX');
        if (scope === 'inbox' && !inbox) continue;
        if (label && !labels.includes(label)) continue;
        const date = message.internalDate !== undefined ? Number(message.internalDate) : Number.NaN;
        const known = Number.isFinite(date) ? date : null;
        if (query.before !== undefined && (known === null || known >= query.before)) continue;
        remember(id, labels);
        found.push({ id, folder: inbox ? 'INBOX' : '', date: known });
      }
      return found.sort((a, b) => (b.date ?? -1) - (a.date ?? -1));
    },

    async moveMessages(messages, destination, onMoved): Promise<TrashResult> {
      const move = moveFor(destination);
      // The trash takes the user's labels off too: the labels of what findSenderMessages did not see are
      // looked up (5 units a message), and a message gone since is skipped.
      const unseen = [...new Set(messages.filter((m) => !seen.has(m.id)).map((m) => m.id))];
      const looked =
        destination.kind === 'trash' && unseen.length > 0 ? await client.getMetadata(unseen, ['From']) : null;
      const taken = new Map<string, string[]>();
      for (const m of messages) {
        if (taken.has(m.id)) continue;
        const inbox = m.folder === 'INBOX';
        let labels = seen.get(m.id);
        if (!labels && looked) {
          const now: GmailMessage | null | undefined = looked.get(m.id);
          if (!now) continue;
          labels = now.labelIds ?? [];
        }
        // Already there: archiving mail that is not in the inbox, filing mail already under the label.
        const there = labels ? move.at(labels) : destination.kind === 'archive';
        if (!inbox && there) continue;
        // INBOX as findSenderMessages saw it; the user's labels (the trash) as the message carries them.
        const off = new Set(labels ? move.takes(labels).filter((l) => l !== 'INBOX') : []);
        if (inbox) off.add('INBOX');
        taken.set(m.id, [...off]);
      }
      const ids = [...taken.keys()];
      let calls = 0;
      for (let i = 0; i < ids.length; i += BATCH_MODIFY_LIMIT) {
        const chunk = ids.slice(i, i + BATCH_MODIFY_LIMIT);
        // One call a chunk: taking off a label a message does not have changes nothing, and each message's
        // origin names only the labels it had.
        const remove = new Set(move.remove);
        for (const id of chunk) for (const l of taken.get(id)!) remove.add(l);
        await client.batchModify(chunk, [...move.add], [...remove]);
        calls += 1;
        for (const id of chunk) seen.delete(id);
        // Gmail keeps a message's id wherever its labels take it.
        const moved: MovedMessage[] = chunk.map((id) => ({
          id,
          origin: originOf(taken.get(id)!),
          previous: id,
        }));
        await onMoved?.(moved);
      }
      return { moved: ids.length, calls };
    },

    async restoreMoved(messages, destination, onRestored): Promise<RestoreResult> {
      const move = moveFor(destination);
      const unique = [...new Map(messages.map((m) => [m.id, m])).values()];
      const there = await stillThere(
        move,
        unique.map((m) => m.id),
      );
      // Only what is still at the destination goes back: a message deleted for good, or taken elsewhere by
      // the user since, is left alone.
      const present = unique.filter((m) => there.has(m.id));
      await putBack(client, present, move.undo);
      await onRestored?.(present.map((m) => ({ ...m, previous: m.id })));
      return { restored: present.length, missing: messages.length - present.length };
    },

    async createFolder(name) {
      const wanted = checkFolderName(name);
      // Gmail's label names are unique regardless of case: the user's "Newsletters" is the one to use.
      const existing = await findLabel(wanted);
      if (existing) return userLabel(existing);
      try {
        return userLabel(await client.createLabel(wanted));
      } catch (err) {
        // Made meanwhile (a retry, another tab): Gmail answers 409 "Label name exists or conflicts" (the
        // emulator 400); the label of that name is the folder.
        if (!(err instanceof GmailApiError) || (err.status !== 409 && err.status !== 400)) throw err;
        const made = await findLabel(wanted);
        if (!made) throw err;
        return userLabel(made);
      }
    },

    async createFolderRule(address, path) {
      moveFor({ kind: 'folder', path });
      return createFilterOnce(client, address, { addLabelIds: [path], removeLabelIds: ['INBOX'] });
    },
  };
}
