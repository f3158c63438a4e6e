import { buildRawMessage } from '../compose.js';
import { parseFrom } from '../headers/detect.js';
import {
  type Folder,
  type HeaderBatch,
  MailAuthError,
  type MailProvider,
  type SyncState,
} from '../provider.js';
import { GmailApiError, type GmailMessage } from './api.js';
import { GmailHistoryExpiredError, runChanges } from './changes.js';
import { GmailClient } from './client.js';
import { DEFAULT_DISCOVERY, freshScanState, runScan, type ScanContext, senderQuery } from './scan.js';
import { readGmailState } from './state.js';
import type { GmailClientOptions } from './transport.js';

/** The client's options (credentials, base URL, retries, pacing) and how the scan reads the mailbox. */
export interface GmailProviderOptions
  extends Pick<
    GmailClientOptions,
    'refreshToken' | 'clientId' | 'clientSecret' | 'baseUrl' | 'fetchImpl' | 'retry' | 'pace' | 'sleep'
  > {
  email: string;
  /** Discovery searches, run in order (default: `unsubscribe`, then Gmail's bulk categories). */
  discovery?: readonly string[];
  /** Newest messages per sender fetched with their header fields (default 5); the rest are only counted. */
  detailPerSender?: number;
  /** Most unknown ids fetched per discovery round (default 25; rounds size themselves, see scan.ts). */
  discoveryChunk?: number;
  /** Length budget of a discovery query with its `-from:` exclusions (default 1,500 characters). */
  maxQueryLength?: number;
}

/** Gmail's limit of ids per `messages.batchModify` request. */
export const BATCH_MODIFY_LIMIT = 1000;

export type GmailProvider = MailProvider & { quotaUnitsSpent(): number };

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

export function createGmailProvider(options: GmailProviderOptions): GmailProvider {
  const client = new GmailClient({
    refreshToken: options.refreshToken,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    baseUrl: options.baseUrl,
    fetchImpl: options.fetchImpl,
    retry: options.retry,
    pace: options.pace,
    sleep: options.sleep,
  });
  const self = options.email.trim().toLowerCase();
  const ctx: ScanContext = {
    client,
    self,
    passes: options.discovery ?? DEFAULT_DISCOVERY,
    detailPerSender: positive(options.detailPerSender, 5, 'detailPerSender'),
    discoveryChunk: Math.min(positive(options.discoveryChunk, 25, 'discoveryChunk'), 50),
    maxQueryLength: positive(options.maxQueryLength, 1500, 'maxQueryLength'),
  };

  async function* scan(from: SyncState | null): AsyncGenerator<HeaderBatch> {
    const state = readGmailState(from) ?? (await freshScanState(ctx));
    yield* runScan(ctx, state);
  }

  async function* changesSince(stored: SyncState): AsyncGenerator<HeaderBatch> {
    const state = readGmailState(stored);
    if (!state) throw new Error('No usable Gmail checkpoint: the mailbox needs a full scan');
    // A scan that never finished is finished first; its final checkpoint starts the next check.
    if (state.scan) {
      yield* runScan(ctx, state);
      return;
    }
    try {
      yield* runChanges(client, self, state);
    } catch (err) {
      if (!(err instanceof GmailHistoryExpiredError)) throw err;
      // History is gone (404 before anything was yielded): only a full scan is sure to miss nothing. Messages
      // it hands out again keep their ids, which the scans repository counts once (as for Graph's 410).
      yield* runScan(ctx, await freshScanState(ctx));
    }
  }

  return {
    async verify() {
      await client.refresh();
      const profile = await client.getProfile();
      if (profile.emailAddress.toLowerCase() !== self) {
        throw new MailAuthError(`Google signed in ${profile.emailAddress}, not ${options.email}`);
      }
    },

    async listFolders(): Promise<Folder[]> {
      const labels = await client.listLabels();
      return labels
        .map((label) => ({
          path: label.id,
          name: label.name,
          specialUse: SPECIAL_USE[label.id] ?? null,
          scanned: !NOT_SCANNED.has(label.id),
        }))
        .sort(
          (a, b) => Number(b.path === 'INBOX') - Number(a.path === 'INBOX') || a.name.localeCompare(b.name),
        );
    },

    scan,
    changesSince,

    async send(message) {
      const raw = await buildRawMessage({ from: options.email, ...message });
      const sent = await client.sendMessage(raw);
      return { accepted: true, response: `Gmail message ${sent.id}` };
    },

    async moveToTrash(query, onMoved) {
      const address = query.from.trim().toLowerCase();
      if (!address) throw new Error('moveToTrash needs a sender address');
      // Spam and trash are left out of the listing: only mail still in sight moves.
      const listed = await client.listAllIds(senderQuery(address));
      // Gmail's from: is a search (display names, parts of addresses): of what it finds, only the messages
      // whose From is this very address move, as on IMAP. Their labels say which the move takes out of the
      // inbox (the rest were archived): undo puts only those back.
      const messages = listed.length > 0 ? await client.getMetadata(listed, ['From']) : new Map();
      const ids: string[] = [];
      const inInbox = new Set<string>();
      for (const id of listed) {
        const message = messages.get(id);
        if (!message || fromAddress(message) !== address) continue;
        ids.push(id);
        if (message.labelIds?.includes('INBOX')) inInbox.add(id);
      }
      let calls = 0;
      for (let i = 0; i < ids.length; i += BATCH_MODIFY_LIMIT) {
        const chunk = ids.slice(i, i + BATCH_MODIFY_LIMIT);
        await client.batchModify(chunk, ['TRASH'], ['INBOX']);
        calls += 1;
        // Gmail keeps a message's id in the trash.
        await onMoved?.(chunk.map((id) => ({ id, origin: inInbox.has(id) ? 'INBOX' : '' })));
      }
      return { moved: ids.length, calls };
    },

    async restoreFromTrash(query) {
      const address = query.from.trim().toLowerCase();
      // What is still in the trash: a message deleted for good, or taken out by the user, is not touched.
      const trashed = new Set<string>();
      let pageToken: string | null = null;
      do {
        const page = await client.listMessages({
          q: `${senderQuery(address)} in:trash`,
          pageToken,
          includeSpamTrash: true,
        });
        for (const id of page.ids) trashed.add(id);
        pageToken = page.nextPageToken;
      } while (pageToken);
      const present = query.messages.filter((m) => trashed.has(m.id));
      const toInbox = present.filter((m) => m.origin === 'INBOX').map((m) => m.id);
      // The block's filter trashed the sender's mail that arrived since it was made: that mail goes back
      // to the inbox too (only messages whose From is this very address, as for the block's own move).
      let byRule = 0;
      if (query.ruleSince !== undefined) {
        const recorded = new Set(query.messages.map((m) => m.id));
        const candidates = [...trashed].filter((id) => !recorded.has(id));
        const metadata = candidates.length > 0 ? await client.getMetadata(candidates, ['From']) : new Map();
        for (const id of candidates) {
          const message = metadata.get(id);
          if (!message || fromAddress(message) !== address) continue;
          if (Number(message.internalDate ?? 0) < query.ruleSince) continue;
          toInbox.push(id);
          byRule += 1;
        }
      }
      const archived = present.filter((m) => m.origin !== 'INBOX').map((m) => m.id);
      for (const [ids, add] of [
        [toInbox, ['INBOX']],
        [archived, []],
      ] as const) {
        for (let i = 0; i < ids.length; i += BATCH_MODIFY_LIMIT) {
          await client.batchModify(ids.slice(i, i + BATCH_MODIFY_LIMIT), [...add], ['TRASH']);
        }
      }
      return { restored: present.length + byRule, missing: query.messages.length - present.length };
    },

    fetchMessage: (id) => client.getRaw(id),

    async createBlockRule(address) {
      const from = address.trim().toLowerCase();
      const action = { addLabelIds: ['TRASH'], removeLabelIds: ['INBOX'] };
      try {
        const filter = await client.createFilter({ criteria: { from }, action });
        return { ref: filter.id };
      } catch (err) {
        // Blocking twice: Gmail answers 400 "Filter already exists"; the existing filter is the rule.
        if (!(err instanceof GmailApiError) || err.status !== 400) throw err;
        const existing = (await client.listFilters()).find(
          (f) => f.criteria.from?.toLowerCase() === from && f.action.addLabelIds?.includes('TRASH'),
        );
        if (!existing) throw err;
        return { ref: existing.id };
      }
    },

    async removeBlockRule(ref) {
      await client.deleteFilter(ref);
    },

    quotaUnitsSpent: () => client.quotaUnitsSpent(),
    async close() {
      // Stateless over HTTP: nothing to close.
    },
  };
}

/** The address of a message's From, read as the scan reads it (so it names the sender the same way). */
function fromAddress(message: GmailMessage): string | undefined {
  const from = message.payload?.headers?.find((h) => h.name.toLowerCase() === 'from')?.value;
  return parseFrom(from)?.address;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}
