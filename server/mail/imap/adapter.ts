import type { ImapFlow } from 'imapflow';
import type { Folder, MailProvider } from '../provider.js';
import {
  closeClient,
  DEFAULT_TIMEOUTS,
  type ImapConnectionOptions,
  openClient,
  toMailError,
} from './connection.js';
import { createFolder } from './folders.js';
import { findSenderMessages, moveMessages, parseImapId, restoreMoved } from './organise.js';
import type { HostConfig } from './presets.js';
import { listMailboxes } from './scan.js';
import { syncInWorker } from './scan-thread.js';
import { sendViaSmtp } from './send.js';
import { moveSenderToTrash, restoreFromTrash } from './trash.js';

export interface ImapProviderOptions extends ImapConnectionOptions {
  /** Messages per batch, and so per checkpoint. */
  batchSize?: number;
  /** SMTP submission server of the mailbox (presets + MAIL_PROVIDER_OVERRIDES); null or unset: cannot send. */
  smtp?: HostConfig | null;
}

// Large enough that the round trip per batch disappears in the transfer, small enough that a killed scan
// redoes little and a batch's headers stay a few MB.
const DEFAULT_BATCH_SIZE = 2000;
const VERIFY_SOCKET_TIMEOUT = 15_000;

export function createImapProvider(options: ImapProviderOptions): MailProvider {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new Error('batchSize must be a positive integer');
  }
  // One logged-in connection serves every call; it is replaced when the server has dropped it.
  let session: Promise<ImapFlow> | null = null;

  async function connected(): Promise<ImapFlow> {
    const current = session;
    if (current) {
      const client = await current.catch(() => null);
      if (client?.usable) return client;
      // Another call may have replaced the dead session meanwhile: share theirs rather than open a second.
      if (session !== current) return connected();
      client?.close();
    }
    return reconnect();
  }

  function reconnect(): Promise<ImapFlow> {
    const next = openClient(options);
    session = next;
    // A failed login is reported to the caller, not kept as the session.
    next.catch(() => {
      if (session === next) session = null;
    });
    return next;
  }

  return {
    async verify() {
      // Someone is waiting on the add-mailbox screen: a server that goes quiet after the greeting gets the
      // same short budget as one that never answers, not the minute a scan allows between batches.
      const socket = Math.min(options.timeouts?.socket ?? DEFAULT_TIMEOUTS.socket, VERIFY_SOCKET_TIMEOUT);
      const client = await openClient({ ...options, timeouts: { ...options.timeouts, socket } });
      await closeClient(client);
    },

    async listFolders(): Promise<Folder[]> {
      const client = await connected();
      try {
        const folders = await listMailboxes(client, false);
        return folders.map(({ path, name, specialUse, scanned }) => ({ path, name, specialUse, scanned }));
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    // Scans and checks read the server on a worker thread while this one commits (scan-thread.ts).
    scan: (from) => syncInWorker(options, 'scan', from, batchSize),
    changesSince: (state, changes) =>
      syncInWorker(options, 'changes', state, batchSize, changes?.knownMessages),

    send: (message) =>
      sendViaSmtp(
        {
          smtp: options.smtp ?? null,
          user: options.user,
          password: options.password,
          timeouts: options.timeouts,
          allowedHosts: options.allowedHosts,
          lookup: options.lookup,
        },
        message,
      ),

    async moveToTrash(query, onMoved) {
      const client = await connected();
      try {
        return await moveSenderToTrash(client, query.from, onMoved);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    async restoreFromTrash(query) {
      const client = await connected();
      try {
        return await restoreFromTrash(client, query.messages, query.onRestored);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    // IMAP has no server-side filter the product can rely on: the caller applies its own rule at every check.
    createBlockRule: async () => null,
    // Our own rule lives in the database only; nothing to remove at the server.
    removeBlockRule: async () => {},

    async findSenderMessages(query) {
      const client = await connected();
      try {
        return await findSenderMessages(client, query);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    async moveMessages(messages, destination, onMoved) {
      const client = await connected();
      try {
        return await moveMessages(client, messages, destination, onMoved);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    async restoreMoved(messages, destination, onRestored) {
      const client = await connected();
      try {
        return await restoreMoved(client, messages, destination, onRestored);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    async createFolder(name) {
      const client = await connected();
      try {
        return await createFolder(client, name);
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    // As for blocks: no server-side filter to rely on, the product files the sender's mail at every check.
    createFolderRule: async () => null,

    async fetchMessage(id) {
      const ref = parseMessageId(id);
      if (!ref) return null;
      const client = await connected();
      try {
        const open = client.mailbox ? client.mailbox.path : null;
        let lock: Awaited<ReturnType<ImapFlow['getMailboxLock']>>;
        try {
          lock = await client.getMailboxLock(ref.folder, { readOnly: true });
        } catch (err) {
          // The server refused to open the folder (renamed, deleted): the message is gone with it.
          if (client.usable) return null;
          throw err;
        }
        try {
          // The folder was already open on this connection (a kept one, mail/pool.ts): ImapFlow does not
          // open it again, and the server tells of mail that arrived since only at a NOOP (or after the
          // next command), so a UID FETCH of a newer message would find nothing.
          if (open !== null && client.mailbox && client.mailbox.path === open) await client.noop();
          const box = client.mailbox;
          if (!box || box.uidValidity.toString() !== ref.uidValidity) return null;
          const msg = await client.fetchOne(String(ref.uid), { source: true }, { uid: true });
          return msg ? (msg.source ?? null) : null;
        } finally {
          lock.release();
        }
      } catch (err) {
        throw toMailError(err, options, 'session', client);
      }
    },

    async close() {
      const current = session;
      session = null;
      const client = await current?.catch(() => null);
      if (client) await closeClient(client);
    },
  };
}

/** `<folder>/<uidvalidity>/<uid>`; the folder may itself contain slashes. */
export function parseMessageId(id: string): { folder: string; uidValidity: string; uid: number } | null {
  const ref = parseImapId(id);
  return ref ? { folder: ref.folder, uidValidity: ref.validity, uid: ref.uid } : null;
}
