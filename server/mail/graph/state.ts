import type { SyncState } from '../provider.js';

/**
 * Where one folder stands, keyed in the state by the Graph folder id (ids of folders never change).
 *
 * A folder goes through three phases:
 * 1. listing: the folder's messages newest first, page by page; `next` is the `@odata.nextLink` to go on
 *    from (null before the first page). `top` is the newest message when the listing began: anything newer
 *    arrived during the scan and is left to step 2, so it is neither missed nor read twice. `prev` holds
 *    the ids of the last page read: mail arriving at the top shifts Graph's `$skip` pages down, which would
 *    otherwise hand the end of one page out again at the start of the next.
 * 2. baseline (`listed`): one delta round of the folder to get its first `@odata.deltaLink`; the messages
 *    it shows newer than `top` are fetched and handed out.
 * 3. `done`: the daily check follows `deltaLink`; `deltaNext` is the nextLink of a round under way. It
 *    also follows `flagsLink`, a second delta query of the folder (changeType=updated, id and isRead
 *    only) for the read states of mail counted before; null until the first check runs its first round.
 */
export interface GraphFolderCheckpoint {
  /** Display path when last seen (informational; folders are matched by id). */
  path: string;
  next: string | null;
  prev: string[];
  top: { at: string | null; ids: string[] } | null;
  listed: boolean;
  done: boolean;
  deltaLink: string | null;
  deltaNext: string | null;
  flagsLink: string | null;
}

export interface GraphSyncState {
  v: 1;
  kind: 'graph';
  folders: Record<string, GraphFolderCheckpoint>;
  /** Messages handed out by the scan so far, so a resumed scan's progress does not restart at 0. */
  scanned: number;
}

export function emptyState(): GraphSyncState {
  return { v: 1, kind: 'graph', folders: {}, scanned: 0 };
}

export function freshCheckpoint(path: string): GraphFolderCheckpoint {
  return {
    path,
    next: null,
    prev: [],
    top: null,
    listed: false,
    done: false,
    deltaLink: null,
    deltaNext: null,
    flagsLink: null,
  };
}

/**
 * Reads a stored state. A folder entry that does not make sense is dropped, which rescans that folder:
 * reading a message twice is recoverable (ids are stable), skipping mail is not. A state that is not a
 * Graph one (another adapter's, an unknown version) is read as none: every folder is read afresh.
 */
export function readState(raw: SyncState | null | undefined): GraphSyncState {
  const state = emptyState();
  if (!raw || typeof raw !== 'object' || raw.v !== 1 || raw.kind !== 'graph') return state;
  if (typeof raw.scanned === 'number' && Number.isSafeInteger(raw.scanned) && raw.scanned >= 0) {
    state.scanned = raw.scanned;
  }
  const folders = raw.folders;
  if (!folders || typeof folders !== 'object') return state;
  for (const [id, value] of Object.entries(folders as Record<string, unknown>)) {
    const cp = readCheckpoint(value);
    if (cp) state.folders[id] = cp;
  }
  return state;
}

const isLinkOrNull = (v: unknown): v is string | null =>
  v === null || (typeof v === 'string' && /^https?:\/\//.test(v));
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function readCheckpoint(value: unknown): GraphFolderCheckpoint | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const { path, listed, done, next, deltaLink, deltaNext, prev } = v;
  if (typeof path !== 'string' || typeof listed !== 'boolean' || typeof done !== 'boolean') return null;
  if (!isLinkOrNull(next) || !isLinkOrNull(deltaLink) || !isLinkOrNull(deltaNext) || !isStrings(prev))
    return null;
  let top: GraphFolderCheckpoint['top'] = null;
  if (v.top !== null) {
    const t = v.top as Record<string, unknown> | undefined;
    if (!t || !(t.at === null || typeof t.at === 'string') || !isStrings(t.ids)) return null;
    top = { at: t.at as string | null, ids: [...t.ids] };
  }
  if (listed && next !== null) return null;
  if (done && (!listed || deltaLink === null)) return null;
  if (!done && (deltaLink !== null || deltaNext !== null)) return null;
  // Absent until a check has read the flags: the next check starts the flags query.
  const flagsLink =
    done && typeof v.flagsLink === 'string' && /^https?:\/\//.test(v.flagsLink) ? v.flagsLink : null;
  return { path, next, prev: [...prev], top, listed, done, deltaLink, deltaNext, flagsLink };
}

/** A snapshot for a batch: the caller may hold on to it while the walk goes on. */
export function snapshot(state: GraphSyncState): SyncState {
  return structuredClone(state) as unknown as SyncState;
}
