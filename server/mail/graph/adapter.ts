import { type Folder, MailAuthError, type MailProvider } from '../provider.js';
import {
  createBlockRule,
  fetchRaw,
  removeBlockRule,
  restoreSender,
  sendMail,
  trashSender,
} from './actions.js';
import { GraphClient, type GraphClientOptions, isGraphError } from './client.js';
import { listAll } from './folders.js';
import {
  createFolder,
  createFolderRule,
  findSenderMessages,
  moveMessages,
  restoreMoved,
} from './organise.js';
import { type SyncOptions, sync } from './sync.js';

// Outlook / Microsoft 365 mailboxes through Microsoft Graph v1.0 (docs/ARCHITECTURE.md, the mail port), put together from
// client.ts (HTTP, tokens, retries), folders.ts (the folder tree), sync.ts (the scan and the daily check
// through delta links), messages.ts (Graph messages as MessageHeaders), actions.ts (send, trash, block
// rules, raw messages for preview), organise.ts (the sender rules and the Screener: find, move, restore,
// folders, filing rules) and batch.ts (their requests in JSON batches).

export interface GraphProviderOptions extends GraphClientOptions {
  /** The mailbox's address (for messages; Graph itself works on /me). */
  email: string;
  /** Messages per listing page ($top), and so per batch and checkpoint. Graph allows 1–1000. */
  pageSize?: number;
  /** Prefer: odata.maxpagesize of delta rounds (Graph may send fewer). */
  deltaPageSize?: number;
  /** Messages fetched at once when a delta round names new ones. */
  fetchConcurrency?: number;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_DELTA_PAGE_SIZE = 500;
const DEFAULT_FETCH_CONCURRENCY = 4;

export function createGraphProvider(options: GraphProviderOptions): MailProvider {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new Error('pageSize must be an integer from 1 to 1000');
  }
  const client = new GraphClient(options);
  const ctx: SyncOptions = {
    client,
    concurrency: options.fetchConcurrency ?? DEFAULT_FETCH_CONCURRENCY,
    pageSize,
    deltaPageSize: options.deltaPageSize ?? DEFAULT_DELTA_PAGE_SIZE,
  };

  return {
    async verify() {
      // A token from the refresh token, then a call the Mail scopes cover: /me itself would need User.Read,
      // which the Outlook connection does not ask for.
      try {
        await client.get('/me/mailFolders/inbox?$select=id');
      } catch (err) {
        // MailboxNotEnabledForRESTAPI and the like: the account signed in, but has no mailbox Graph can read
        // (a personal account without Outlook.com mail, an on-premises mailbox).
        if (isGraphError(err, 404)) {
          throw new MailAuthError('This Microsoft account has no Outlook mailbox that can be connected.', {
            cause: err,
          });
        }
        throw err;
      }
    },

    async listFolders(): Promise<Folder[]> {
      const folders = await listAll(ctx);
      return folders.map(({ path, name, specialUse, scanned }) => ({ path, name, specialUse, scanned }));
    },

    scan: (from) => sync(ctx, 'scan', from),
    changesSince: (state) => sync(ctx, 'changes', state),
    send: (message) => sendMail(client, message),
    moveToTrash: (query, onMoved) => trashSender(ctx, query.from, onMoved),
    restoreFromTrash: (query) =>
      restoreSender(ctx, query.from, query.messages, query.ruleSince, query.onRestored),
    fetchMessage: (id) => fetchRaw(client, id),
    createBlockRule: (address) => createBlockRule(client, address),
    removeBlockRule: (ref) => removeBlockRule(client, ref),
    findSenderMessages: (query) => findSenderMessages(ctx, query),
    moveMessages: (messages, destination, onMoved) => moveMessages(ctx, messages, destination, onMoved),
    restoreMoved: (messages, destination, onRestored) => restoreMoved(ctx, messages, destination, onRestored),
    createFolder: (name) => createFolder(ctx, name),
    createFolderRule: (address, path) => createFolderRule(ctx, address, path),

    async close() {
      // Stateless HTTP: nothing to hang up.
    },
  };
}
