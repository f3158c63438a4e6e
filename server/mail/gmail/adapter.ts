import { buildRawMessage } from '../compose.js';
import {
  type HeaderBatch,
  INBOX_ORIGIN,
  MailAuthError,
  type MailProvider,
  type SyncState,
  type TrashedMessage,
} from '../provider.js';
import { senderAddress } from '../shared/sender-address.js';
import { BATCH_MODIFY_LIMIT } from './api.js';
import { GmailHistoryExpiredError, runChanges } from './changes.js';
import { GmailClient } from './client.js';
import { putBack } from './moves.js';
import { createFilterOnce, createOrganiser, fromAddress, toFolder } from './organise.js';
import { DEFAULT_DISCOVERY, freshScanState, runScan } from './scan.js';
import type { ScanContext } from './scan-context.js';
import { senderQuery } from './scan-query.js';
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
  /**
   * How deep into each sender's newest messages metadata may be fetched (default 5); within them only what
   * keeps names, links and detection exact (usually two). The rest are only counted.
   */
  detailPerSender?: number;
  /** Most unknown ids fetched per discovery round (default 25; rounds size themselves, see scan.ts). */
  discoveryChunk?: number;
  /** Length budget of a discovery query with its `-from:` exclusions (default 1,500 characters). */
  maxQueryLength?: number;
}

export { BATCH_MODIFY_LIMIT };

export type GmailProvider = MailProvider & {
  quotaUnitsSpent(): number;
  /** Units by what they bought: the scan's steps (scan-context.ts SCAN_KINDS), else the Gmail method. */
  quotaUnitsByKind(): Record<string, number>;
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
    if (!state) {
      // No usable Gmail checkpoint (another adapter's, or unreadable): as below, only a full scan is sure
      // to miss nothing, and the messages counted before keep their ids.
      yield* runScan(ctx, await freshScanState(ctx));
      return;
    }
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

  const organiser = createOrganiser(client);

  return {
    async verify() {
      await client.refresh();
      const profile = await client.getProfile();
      if (profile.emailAddress.toLowerCase() !== self) {
        throw new MailAuthError(`Google signed in ${profile.emailAddress}, not ${options.email}`);
      }
    },

    async listFolders() {
      const labels = await client.listLabels();
      return labels
        .map(toFolder)
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
      // The sender's mail in every scanned folder (exact From), the trash case of the rules' move.
      const found = await organiser.findSenderMessages({ from: query.from, scope: 'mail' });
      return organiser.moveMessages(found, { kind: 'trash' }, onMoved);
    },

    async restoreFromTrash(query) {
      const address = senderAddress(query.from);
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
      const back: TrashedMessage[] = [...present];
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
          back.push({ id, origin: INBOX_ORIGIN });
          byRule += 1;
        }
      }
      // Each to the labels its move took off (INBOX, the user's labels), the rule's catch to the inbox.
      await putBack(client, back, ['TRASH']);
      // Gmail's ids stay with the message: each is where it was, under the same id.
      await query.onRestored?.(back.map((m) => ({ ...m, previous: m.id })));
      return { restored: present.length + byRule, missing: query.messages.length - present.length };
    },

    fetchMessage: (id) => client.getRaw(id),

    // Blocking twice (a retry) finds the filter the first time made.
    createBlockRule: (address) =>
      createFilterOnce(client, address, { addLabelIds: ['TRASH'], removeLabelIds: ['INBOX'] }),

    async removeBlockRule(ref) {
      await client.deleteFilter(ref);
    },

    ...organiser,

    quotaUnitsSpent: () => client.quotaUnitsSpent(),
    quotaUnitsByKind: () => client.quotaUnitsByKind(),
    async close() {
      // Stateless over HTTP: nothing to close.
    },
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}
