import {
  type HeaderBatch,
  MailConnectionError,
  type MessageHeaders,
  type ReadStateChange,
  type SyncState,
} from '../provider.js';
import {
  type GraphContext,
  type GraphMessage,
  type GraphPage,
  IMMUTABLE_IDS,
  MESSAGE_SELECT,
} from './api.js';
import { isGraphError } from './client.js';
import { type ListedFolder, listAll } from './folders.js';
import { fetchMessages, receivedAt, toHeaders } from './messages.js';
import {
  freshCheckpoint,
  type GraphFolderCheckpoint,
  type GraphSyncState,
  readState,
  snapshot,
} from './state.js';

// The scan and the daily check (see state.ts for the phases of a folder): the folders' messages newest
// first with $orderby, pages followed through @odata.nextLink, then each folder's delta link
// (message: delta, changeType=created), and a second delta query per folder for read states
// (changeType=updated, id and isRead: a flag change costs no message fetch).
//
// Duplicates: the scan hands each message of a folder out once (see state.ts for how mail that arrives
// mid-scan is kept apart). The one deliberate repeat is the full rescan of a folder after Graph has
// dropped its delta state (410 Gone): messages already handed out come again with the same ids (immutable
// ids, api.ts), and the caller has to recognise them by id.

export interface SyncOptions extends GraphContext {
  /** Messages per listing page ($top), and so per batch and checkpoint. */
  pageSize: number;
  /** Prefer: odata.maxpagesize of delta rounds (Graph may send fewer). */
  deltaPageSize: number;
}

interface Progress {
  scanned: number;
  total: number;
}

const enc = encodeURIComponent;

export async function* sync(
  ctx: SyncOptions,
  mode: 'scan' | 'changes',
  from: SyncState | null,
): AsyncGenerator<HeaderBatch> {
  const state = readState(from);
  const folders = (await listAll(ctx)).filter((f) => f.scanned);
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
      const outcome = yield* followDelta(ctx, folder, cp, state, progress, batch);
      if (outcome === 'ok') {
        if (state.folders[folder.id] === cp) yield* followFlags(ctx, folder, cp, batch);
        continue;
      }
      // 410 Gone: Graph lost the folder's sync state; only a full read of the folder is sure to miss nothing.
      cp = undefined;
    }
    if (!cp) {
      cp = freshCheckpoint(folder.path);
      state.folders[folder.id] = cp;
      if (mode === 'changes') progress.total += folder.total;
    }
    yield* scanFolder(ctx, mode, folder, cp, state, progress, batch);
  }
  // A new delta link (or a folder finished without new messages) still has to be stored.
  if (JSON.stringify(state) !== saved) yield batch([]);
}

async function* scanFolder(
  ctx: SyncOptions,
  mode: 'scan' | 'changes',
  folder: ListedFolder,
  cp: GraphFolderCheckpoint,
  state: GraphSyncState,
  progress: Progress,
  batch: (messages: MessageHeaders[]) => HeaderBatch,
): AsyncGenerator<HeaderBatch> {
  const { client, pageSize } = ctx;
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
    round = await baseline(ctx, folder, cp.top);
  } catch (err) {
    if (isGraphError(err, 404)) {
      delete state.folders[folder.id];
      return;
    }
    throw err;
  }
  const caught = await fetchMessages(ctx, round.newer, folder);
  Object.assign(cp, {
    done: true,
    deltaLink: round.deltaLink,
    deltaNext: null,
    next: null,
    prev: [],
    top: null,
    flagsLink: null,
  });
  count(mode, state, progress, caught.length);
  if (caught.length > 0) yield batch(caught);
}

/** One initial delta round; returns its deltaLink and the messages newer than the listing's top. */
async function baseline(
  { client, deltaPageSize }: SyncOptions,
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
  ctx: SyncOptions,
  folder: ListedFolder,
  cp: GraphFolderCheckpoint,
  state: GraphSyncState,
  progress: Progress,
  batch: (messages: MessageHeaders[]) => HeaderBatch,
): AsyncGenerator<HeaderBatch, 'ok' | 'gone'> {
  const { client, deltaPageSize } = ctx;
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
    const messages = await fetchMessages(ctx, fresh, folder);
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

/**
 * The read states of the folder's mail that changed since the last check: a delta query with
 * changeType=updated selecting id and isRead. Its first round (no flagsLink yet: the first check after
 * the scan, or after Graph dropped the state) names every message of the folder with its current state;
 * later rounds only messages changed since (read, unread, flagged, categorised: the product takes isRead).
 * Messages new since the last check come through the created query with their state, so a "changed"
 * entry is one counted before, or one the product does not keep (its id then matches no reference).
 */
async function* followFlags(
  { client, deltaPageSize }: SyncOptions,
  folder: ListedFolder,
  cp: GraphFolderCheckpoint,
  batch: (messages: MessageHeaders[]) => HeaderBatch,
): AsyncGenerator<HeaderBatch> {
  const start = `/me/mailFolders/${enc(folder.id)}/messages/delta?changeType=updated&$select=id,isRead`;
  let url = cp.flagsLink ?? start;
  let restarted = false;
  for (;;) {
    let page: GraphPage<GraphMessage>;
    try {
      page = await client.get<GraphPage<GraphMessage>>(url, [
        IMMUTABLE_IDS,
        `odata.maxpagesize=${deltaPageSize}`,
      ]);
    } catch (err) {
      // The query's state expired: a first round again (it reports every message's current state), once.
      if (isGraphError(err, 410) && !restarted) {
        restarted = true;
        url = start;
        continue;
      }
      // The folder is gone since it was listed: the next run drops it.
      if (isGraphError(err, 404)) return;
      throw err;
    }
    const flags: ReadStateChange[] = [];
    for (const m of page.value) {
      if (!m['@removed'] && typeof m.isRead === 'boolean') flags.push({ id: m.id, seen: m.isRead });
    }
    const next = page['@odata.nextLink'];
    const deltaLink = page['@odata.deltaLink'];
    if (!next && !deltaLink)
      throw new MailConnectionError('Microsoft Graph ended a delta round without a link.');
    // The link moves on with the round's last page; a check stopped midway redoes the round (a state
    // applied twice is the same state).
    if (!next) cp.flagsLink = deltaLink ?? null;
    if (flags.length > 0) yield { ...batch([]), flags };
    if (!next) return;
    url = next;
  }
}

function count(mode: 'scan' | 'changes', state: GraphSyncState, progress: Progress, n: number): void {
  progress.scanned += n;
  if (mode === 'scan') state.scanned += n;
}

/** The newest receivedDateTime of a listing's first page and the ids that carry it. */
function watermark(page: GraphMessage[]): { at: string | null; ids: string[] } {
  let at: number | null = null;
  for (const m of page) {
    const t = receivedAt(m);
    if (t !== null && (at === null || t > at)) at = t;
  }
  if (at === null) return { at: null, ids: [] };
  return { at: new Date(at).toISOString(), ids: page.filter((m) => receivedAt(m) === at).map((m) => m.id) };
}

/** Received after the listing's first page was read (so not part of the listing). */
function isNewer(m: GraphMessage, top: GraphFolderCheckpoint['top']): boolean {
  // No page read yet: nothing to compare with. An empty folder at the start: everything in it is newer.
  if (top === null) return false;
  if (top.at === null) return true;
  const t = receivedAt(m);
  if (t === null) return false;
  const at = Date.parse(top.at);
  return t > at || (t === at && !top.ids.includes(m.id));
}
