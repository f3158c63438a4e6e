import { type HeaderPair, headerFieldsFromPairs } from '../headers/headers.js';
import {
  type Folder,
  type HeaderBatch,
  MailAuthError,
  MailConnectionError,
  type MailProvider,
  type MessageHeaders,
  type SyncState,
  type TrashResult,
} from '../provider.js';
import {
  GraphClient,
  type GraphClientOptions,
  GraphError,
  isGraphError,
  REAUTH_MESSAGE,
  retryAfterMs,
} from './client.js';
import {
  freshCheckpoint,
  type GraphFolderCheckpoint,
  type GraphSyncState,
  readState,
  snapshot,
} from './state.js';

// Outlook / Microsoft 365 mailboxes through Microsoft Graph v1.0 (GUIDE §4): folders from /me/mailFolders
// and their childFolders, headers from `internetMessageHeaders` (returned only when named in $select),
// newest first with $orderby, pages followed through @odata.nextLink, and the daily check through each
// folder's delta link (message: delta, changeType=created).
//
// Duplicates: every request asks for immutable ids (`Prefer: IdType="ImmutableId"`), so a message keeps its
// id for as long as it stays in the mailbox, moves between folders included (graph/outlook-immutable-id).
// The scan hands each message of a folder out once (see state.ts for how mail that arrives mid-scan is
// kept apart). The one deliberate repeat is the full rescan of a folder after Graph has dropped its delta
// state (410 Gone): messages already handed out come again with the same ids, and the caller has to
// recognise them by id.

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

const IMMUTABLE_IDS = 'IdType="ImmutableId"';
const MESSAGE_SELECT = 'id,receivedDateTime,subject,from,internetMessageHeaders';
// v1.0 mailFolder has no wellKnownName (beta only), so well-known folders are found by their aliases.
const FOLDER_SELECT = 'id,displayName,parentFolderId,childFolderCount,totalItemCount';

/**
 * Well-known folders that a scan skips with everything below them: the user's own mail (sent, drafts,
 * outbox), what they already threw away (deleted items, junk), Skype logs, Outlook's sync logs, and mail
 * scheduled to come back to the Inbox (it is read there when it does).
 */
const NOT_SCANNED = [
  'deleteditems',
  'junkemail',
  'sentitems',
  'drafts',
  'outbox',
  'conversationhistory',
  'syncissues',
  'scheduled',
] as const;
const SPECIAL_USE: Record<string, string> = {
  inbox: '\\Inbox',
  archive: '\\Archive',
  sentitems: '\\Sent',
  drafts: '\\Drafts',
  deleteditems: '\\Trash',
  junkemail: '\\Junk',
};
const WELL_KNOWN = ['inbox', 'archive', ...NOT_SCANNED];

interface GraphPage<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

interface GraphFolder {
  id: string;
  displayName?: string;
  parentFolderId?: string;
  childFolderCount?: number;
  totalItemCount?: number;
  '@odata.type'?: string;
}

interface GraphMessage {
  id: string;
  receivedDateTime?: string;
  subject?: string | null;
  from?: { emailAddress?: { name?: string | null; address?: string | null } | null } | null;
  internetMessageHeaders?: HeaderPair[] | null;
  '@removed'?: unknown;
}

/** Requests per JSON batch (graph/json-batching). */
const JSON_BATCH_LIMIT = 20;
const MOVE_ATTEMPTS = 5;

interface BatchAnswer {
  responses?: Array<{ id: string; status: number; headers?: Record<string, string>; body?: unknown }>;
}

interface GraphMessageRule {
  id: string;
  sequence?: number;
  conditions?: { fromAddresses?: Array<{ emailAddress?: { address?: string | null } | null }> } | null;
  actions?: { moveToFolder?: string | null } | null;
}

export interface ListedFolder extends Folder {
  id: string;
  total: number;
}

interface Progress {
  scanned: number;
  total: number;
}

export function createGraphProvider(options: GraphProviderOptions): MailProvider {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new Error('pageSize must be an integer from 1 to 1000');
  }
  const deltaPageSize = options.deltaPageSize ?? DEFAULT_DELTA_PAGE_SIZE;
  const concurrency = options.fetchConcurrency ?? DEFAULT_FETCH_CONCURRENCY;
  const client = new GraphClient(options);
  const enc = encodeURIComponent;

  async function listAll(): Promise<ListedFolder[]> {
    const known = await wellKnownIds();
    const out: ListedFolder[] = [];
    let level: Array<{ parent: ListedFolder | null; url: string }> = [
      { parent: null, url: `/me/mailFolders?$top=100&$select=${FOLDER_SELECT}` },
    ];
    while (level.length > 0) {
      const listed = await mapLimit(level, concurrency, async ({ parent, url }) => {
        const children = await collect<GraphFolder>(url);
        return children.map((f) => toFolder(f, parent, known));
      });
      level = [];
      for (const folder of listed.flat()) {
        out.push(folder.listed);
        if (folder.childCount > 0) {
          level.push({
            parent: folder.listed,
            url: `/me/mailFolders/${enc(folder.listed.id)}/childFolders?$top=100&$select=${FOLDER_SELECT}`,
          });
        }
      }
    }
    // Inbox first: most newsletters land there, so the first subscriptions appear soonest.
    const rank = (f: ListedFolder) => (f.specialUse === '\\Inbox' ? 0 : 1);
    return out.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Folder id → well-known name, by GET /me/mailFolders/{name}; a name the mailbox lacks answers 404. */
  async function wellKnownIds(): Promise<Map<string, string>> {
    const found = await mapLimit(WELL_KNOWN, concurrency, async (name) => {
      try {
        const f = await client.get<GraphFolder>(`/me/mailFolders/${name}?$select=id`);
        return [f.id, name] as const;
      } catch (err) {
        if (isGraphError(err, 404)) return null;
        throw err;
      }
    });
    return new Map(found.filter((e): e is readonly [string, string] => e !== null));
  }

  function toFolder(
    f: GraphFolder,
    parent: ListedFolder | null,
    known: Map<string, string>,
  ): { listed: ListedFolder; childCount: number } {
    const name = f.displayName ?? '';
    const wellKnown = known.get(f.id);
    const excluded =
      (parent !== null && !parent.scanned) ||
      (wellKnown !== undefined && (NOT_SCANNED as readonly string[]).includes(wellKnown)) ||
      // Search folders are views over other folders: reading them would count mail twice.
      f['@odata.type'] === '#microsoft.graph.mailSearchFolder';
    return {
      listed: {
        id: f.id,
        path: parent ? `${parent.path}/${name}` : name,
        name,
        specialUse: (wellKnown && SPECIAL_USE[wellKnown]) ?? null,
        scanned: !excluded,
        total: f.totalItemCount ?? 0,
      },
      childCount: f.childFolderCount ?? 0,
    };
  }

  async function collect<T>(url: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = url;
    while (next) {
      const page: GraphPage<T> = await client.get<GraphPage<T>>(next);
      items.push(...page.value);
      next = page['@odata.nextLink'];
    }
    return items;
  }

  /** Every item of a listing that does not need the immutable-id header. */
  async function collectWith<T>(url: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = url;
    while (next) {
      const page: GraphPage<T> = await client.get<GraphPage<T>>(next, [IMMUTABLE_IDS]);
      items.push(...page.value);
      next = page['@odata.nextLink'];
    }
    return items;
  }

  /**
   * message: move of many messages in JSON batches of 20 (graph/json-batching), a few batches at a time.
   * Requests refused inside a batch (429, 5xx) are sent again after the longest Retry-After among them; a
   * message gone meanwhile (404) is not counted.
   */
  async function moveAll(ids: string[], destinationId: string): Promise<TrashResult> {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += JSON_BATCH_LIMIT) chunks.push(ids.slice(i, i + JSON_BATCH_LIMIT));
    let moved = 0;
    let calls = 0;
    await mapLimit(chunks, concurrency, async (chunk) => {
      let pending = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        calls += 1;
        const answer = await client.post<BatchAnswer>('/$batch', {
          requests: pending.map((id, n) => ({
            id: String(n),
            method: 'POST',
            url: `/me/messages/${enc(id)}/move`,
            headers: { 'Content-Type': 'application/json', Prefer: IMMUTABLE_IDS },
            body: { destinationId },
          })),
        });
        const byId = new Map((answer.responses ?? []).map((r) => [r.id, r]));
        const again: string[] = [];
        let waitMs = 0;
        for (const [n, id] of pending.entries()) {
          const r = byId.get(String(n));
          const status = r?.status ?? 0;
          if (status >= 200 && status < 300) moved += 1;
          else if (status === 404) continue;
          else if (status === 401 || status === 403) {
            throw new MailAuthError(REAUTH_MESSAGE, {
              cause: new Error(`move answered ${status} in a batch`),
            });
          } else if (status === 0 || status === 429 || status >= 500) {
            again.push(id);
            const asked = retryAfterMs(r?.headers?.['Retry-After'] ?? r?.headers?.['retry-after'] ?? null);
            waitMs = Math.max(waitMs, asked ?? 1000 * 2 ** (attempt - 1));
          } else {
            const code = (r?.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
            throw new GraphError(status, code, `Microsoft Graph answered ${status} ${code} to a move`);
          }
        }
        if (again.length > 0 && attempt >= MOVE_ATTEMPTS) {
          throw new MailConnectionError(
            `Microsoft Graph kept refusing ${again.length} moves; try again later.`,
          );
        }
        if (again.length > 0) await new Promise((r) => setTimeout(r, Math.min(waitMs, 60_000)));
        pending = again;
      }
    });
    return { moved, calls };
  }

  async function fetchMessages(ids: string[], folder: ListedFolder): Promise<MessageHeaders[]> {
    const got = await mapLimit(ids, concurrency, async (id) => {
      try {
        return await client.get<GraphMessage>(`/me/messages/${enc(id)}?$select=${MESSAGE_SELECT}`, [
          IMMUTABLE_IDS,
        ]);
      } catch (err) {
        // Deleted since the delta round named it.
        if (isGraphError(err, 404)) return null;
        throw err;
      }
    });
    return got.filter((m): m is GraphMessage => m !== null).map((m) => toHeaders(m, folder.path));
  }

  async function* sync(mode: 'scan' | 'changes', from: SyncState | null): AsyncGenerator<HeaderBatch> {
    const state = readState(from);
    const folders = (await listAll()).filter((f) => f.scanned);
    // A folder that is gone (or no longer scanned) must not leave a checkpoint behind.
    const listed = new Set(folders.map((f) => f.id));
    for (const id of Object.keys(state.folders)) if (!listed.has(id)) delete state.folders[id];

    const progress: Progress =
      mode === 'scan'
        ? { scanned: state.scanned, total: folders.reduce((n, f) => n + f.total, 0) }
        : { scanned: 0, total: 0 };
    let saved = JSON.stringify(state);
    const batch = (messages: MessageHeaders[]): HeaderBatch => {
      progress.total = Math.max(progress.total, progress.scanned);
      saved = JSON.stringify(state);
      return { messages, state: snapshot(state), progress: { ...progress } };
    };

    for (const folder of folders) {
      let cp = state.folders[folder.id];
      if (cp) cp.path = folder.path;
      if (cp?.done) {
        if (mode === 'scan') continue;
        const outcome = yield* followDelta(folder, cp, state, progress, batch);
        if (outcome === 'ok') continue;
        // 410 Gone: Graph lost the folder's sync state; only a full read of the folder is sure to miss nothing.
        cp = undefined;
      }
      if (!cp) {
        cp = freshCheckpoint(folder.path);
        state.folders[folder.id] = cp;
        if (mode === 'changes') progress.total += folder.total;
      }
      yield* scanFolder(mode, folder, cp, state, progress, batch);
    }
    // A new delta link (or a folder finished without new messages) still has to be stored.
    if (JSON.stringify(state) !== saved) yield batch([]);
  }

  async function* scanFolder(
    mode: 'scan' | 'changes',
    folder: ListedFolder,
    cp: GraphFolderCheckpoint,
    state: GraphSyncState,
    progress: Progress,
    batch: (messages: MessageHeaders[]) => HeaderBatch,
  ): AsyncGenerator<HeaderBatch> {
    const first = `/me/mailFolders/${enc(folder.id)}/messages?$select=${MESSAGE_SELECT}&$top=${pageSize}&$orderby=receivedDateTime desc`;
    while (!cp.listed) {
      let page: GraphPage<GraphMessage>;
      try {
        page = await client.get<GraphPage<GraphMessage>>(cp.next ?? first, [IMMUTABLE_IDS]);
      } catch (err) {
        // Deleted since it was listed: nothing left to read in it.
        if (isGraphError(err, 404)) {
          delete state.folders[folder.id];
          return;
        }
        throw err;
      }
      if (cp.top === null) cp.top = watermark(page.value);
      const prev = new Set(cp.prev);
      const messages: MessageHeaders[] = [];
      for (const m of page.value) {
        if (prev.has(m.id) || isNewer(m, cp.top)) continue;
        messages.push(toHeaders(m, folder.path));
      }
      cp.prev = page.value.map((m) => m.id);
      cp.next = page['@odata.nextLink'] ?? null;
      cp.listed = cp.next === null;
      count(mode, state, progress, messages.length);
      if (messages.length > 0) yield batch(messages);
    }

    // The first delta link of the folder. Message delta has no `$deltatoken=latest` (that shortcut exists
    // for directory objects and drives only), so the initial round runs to its end with ids and dates only.
    let round: { deltaLink: string; newer: string[] };
    try {
      round = await baseline(folder, cp.top);
    } catch (err) {
      if (isGraphError(err, 404)) {
        delete state.folders[folder.id];
        return;
      }
      throw err;
    }
    const caught = await fetchMessages(round.newer, folder);
    Object.assign(cp, {
      done: true,
      deltaLink: round.deltaLink,
      deltaNext: null,
      next: null,
      prev: [],
      top: null,
    });
    count(mode, state, progress, caught.length);
    if (caught.length > 0) yield batch(caught);
  }

  /** One initial delta round; returns its deltaLink and the messages newer than the listing's top. */
  async function baseline(
    folder: ListedFolder,
    top: GraphFolderCheckpoint['top'],
  ): Promise<{ deltaLink: string; newer: string[] }> {
    // changeType=created is encoded into the links: later rounds name only mail that entered the folder
    // (delivered or moved in), not flags being set on mail already counted.
    const start = `/me/mailFolders/${enc(folder.id)}/messages/delta?changeType=created&$select=id,receivedDateTime`;
    for (let tries = 1; ; tries++) {
      const newer = new Set<string>();
      let url = start;
      try {
        for (;;) {
          const page = await client.get<GraphPage<GraphMessage>>(url, [
            IMMUTABLE_IDS,
            `odata.maxpagesize=${deltaPageSize}`,
          ]);
          for (const m of page.value) if (!m['@removed'] && isNewer(m, top)) newer.add(m.id);
          const next = page['@odata.nextLink'];
          const deltaLink = page['@odata.deltaLink'];
          if (next) url = next;
          else if (deltaLink) return { deltaLink, newer: [...newer] };
          else throw new MailConnectionError('Microsoft Graph ended a delta round without a link.');
        }
      } catch (err) {
        // The round's own state expired under it: start the round again, once.
        if (isGraphError(err, 410) && tries < 2) continue;
        throw err;
      }
    }
  }

  async function* followDelta(
    folder: ListedFolder,
    cp: GraphFolderCheckpoint,
    state: GraphSyncState,
    progress: Progress,
    batch: (messages: MessageHeaders[]) => HeaderBatch,
  ): AsyncGenerator<HeaderBatch, 'ok' | 'gone'> {
    const seen = new Set<string>();
    let url = cp.deltaNext ?? cp.deltaLink!;
    for (;;) {
      let page: GraphPage<GraphMessage>;
      try {
        page = await client.get<GraphPage<GraphMessage>>(url, [
          IMMUTABLE_IDS,
          `odata.maxpagesize=${deltaPageSize}`,
        ]);
      } catch (err) {
        if (isGraphError(err, 410)) return 'gone';
        if (isGraphError(err, 404)) {
          delete state.folders[folder.id];
          return 'ok';
        }
        throw err;
      }
      const fresh = page.value.filter((m) => !m['@removed'] && !seen.has(m.id)).map((m) => m.id);
      for (const id of fresh) seen.add(id);
      progress.total += fresh.length;
      const messages = await fetchMessages(fresh, folder);
      const next = page['@odata.nextLink'];
      const deltaLink = page['@odata.deltaLink'];
      if (next) cp.deltaNext = next;
      else if (deltaLink) Object.assign(cp, { deltaLink, deltaNext: null });
      else throw new MailConnectionError('Microsoft Graph ended a delta round without a link.');
      count('changes', state, progress, messages.length);
      if (messages.length > 0) yield batch(messages);
      if (!next) return 'ok';
      url = next;
    }
  }

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
      const folders = await listAll();
      return folders.map(({ path, name, specialUse, scanned }) => ({ path, name, specialUse, scanned }));
    },

    scan: (from) => sync('scan', from),
    changesSince: (state) => sync('changes', state),

    async send(message) {
      // message: send (sendMail): 202 Accepted with no body once Exchange has taken the message.
      await client.post(
        '/me/sendMail',
        {
          message: {
            subject: message.subject,
            body: { contentType: 'Text', content: message.text },
            toRecipients: [{ emailAddress: { address: message.to } }],
          },
          saveToSentItems: true,
        },
        { unsafe: true },
      );
      return { accepted: true, response: 'Microsoft Graph sendMail: 202 Accepted' };
    },

    async moveToTrash(query) {
      const address = query.from.trim().toLowerCase();
      if (!address) throw new Error('moveToTrash needs a sender address');
      const filter = `from/emailAddress/address eq '${address.replace(/'/g, "''")}'`;
      const folders = (await listAll()).filter((f) => f.scanned);
      const ids: string[] = [];
      for (const folder of folders) {
        const url = `/me/mailFolders/${enc(folder.id)}/messages?$filter=${enc(filter)}&$select=id&$top=1000`;
        ids.push(...(await collectWith<{ id: string }>(url)).map((m) => m.id));
      }
      // message: move to the well-known Deleted Items folder, in JSON batches.
      return moveAll(ids, 'deleteditems');
    },

    async fetchMessage(id) {
      try {
        return await client.getRaw(`/me/messages/${enc(id)}/$value`, [IMMUTABLE_IDS]);
      } catch (err) {
        // Deleted (or moved out of reach): nothing left to show.
        if (isGraphError(err, 404)) return null;
        throw err;
      }
    },

    async createBlockRule(address) {
      const from = address.trim().toLowerCase();
      // messageRuleActions.moveToFolder takes a folder id, so the Deleted Items alias is resolved first.
      const trash = await client.get<GraphFolder>('/me/mailFolders/deleteditems?$select=id');
      const rules = await collectWith<GraphMessageRule>('/me/mailFolders/inbox/messageRules');
      const existing = rules.find(
        (r) =>
          r.actions?.moveToFolder === trash.id &&
          (r.conditions?.fromAddresses ?? []).some((a) => a.emailAddress?.address?.toLowerCase() === from),
      );
      if (existing) return { ref: existing.id };
      const sequence = rules.reduce((n, r) => Math.max(n, r.sequence ?? 0), 0) + 1;
      const rule = await client.post<GraphMessageRule>('/me/mailFolders/inbox/messageRules', {
        displayName: `Inbox Genie: block ${from}`,
        sequence,
        isEnabled: true,
        conditions: { fromAddresses: [{ emailAddress: { address: from } }] },
        actions: { moveToFolder: trash.id, stopProcessingRules: true },
      });
      return { ref: rule.id };
    },

    async removeBlockRule(ref) {
      try {
        await client.delete(`/me/mailFolders/inbox/messageRules/${enc(ref)}`);
      } catch (err) {
        // Deleted by the user in Outlook's settings already.
        if (!isGraphError(err, 404)) throw err;
      }
    },

    async close() {
      // Stateless HTTP: nothing to hang up.
    },
  };
}

function count(mode: 'scan' | 'changes', state: GraphSyncState, progress: Progress, n: number): void {
  progress.scanned += n;
  if (mode === 'scan') state.scanned += n;
}

/** The newest receivedDateTime of a listing's first page and the ids that carry it. */
function watermark(page: GraphMessage[]): { at: string | null; ids: string[] } {
  let at: number | null = null;
  for (const m of page) {
    const t = time(m);
    if (t !== null && (at === null || t > at)) at = t;
  }
  if (at === null) return { at: null, ids: [] };
  return { at: new Date(at).toISOString(), ids: page.filter((m) => time(m) === at).map((m) => m.id) };
}

/** Received after the listing's first page was read (so not part of the listing). */
function isNewer(m: GraphMessage, top: GraphFolderCheckpoint['top']): boolean {
  // No page read yet: nothing to compare with. An empty folder at the start: everything in it is newer.
  if (top === null) return false;
  if (top.at === null) return true;
  const t = time(m);
  if (t === null) return false;
  const at = Date.parse(top.at);
  return t > at || (t === at && !top.ids.includes(m.id));
}

function time(m: GraphMessage): number | null {
  const t = m.receivedDateTime ? Date.parse(m.receivedDateTime) : Number.NaN;
  return Number.isFinite(t) ? t : null;
}

export function toHeaders(m: GraphMessage, folder: string): MessageHeaders {
  const fields = headerFieldsFromPairs(m.internetMessageHeaders ?? []);
  // Mail from inside the same organisation can come without internet headers: the message's own
  // properties stand in for the fields detection needs most.
  const sender = m.from?.emailAddress;
  if (fields.from === null && sender?.address) fields.from = formatAddress(sender.name ?? '', sender.address);
  if (fields.subject === null && typeof m.subject === 'string') fields.subject = m.subject;
  const fromHeader = fields.date ? Date.parse(fields.date) : Number.NaN;
  return {
    id: m.id,
    folder,
    date: Number.isFinite(fromHeader) ? fromHeader : time(m),
    fields,
  };
}

function formatAddress(name: string, address: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.toLowerCase() === address.toLowerCase()) return `<${address}>`;
  return `"${trimmed.replace(/["\\]/g, '\\$&')}" <${address}>`;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}
