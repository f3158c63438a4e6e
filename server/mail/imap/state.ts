import type { SyncState } from '../provider.js';

/**
 * Where one folder stands. The UIDs below `uidNext` have been delivered except, while `done` is false, those
 * in [floor, scannedDownTo): the range a scan (floor 1) or a daily check (floor = the previous uidNext) is
 * still walking down. UIDs at or above `uidNext` arrived after that walk began.
 */
export interface FolderCheckpoint {
  /** A string because IMAP allows 32-bit unsigned values and ImapFlow hands them over as bigint. */
  uidValidity: string;
  uidNext: number;
  scannedDownTo: number;
  done: boolean;
  floor: number;
  /**
   * CONDSTORE: the folder's HIGHESTMODSEQ when its flags were last known to the product (for UIDs below
   * `uidNext`); the daily check asks for the flags changed since (CHANGEDSINCE). null without CONDSTORE,
   * or before the first run that could read it.
   */
  modseq: string | null;
}

export interface ImapSyncState {
  v: 1;
  folders: Record<string, FolderCheckpoint>;
  /** Messages handed out by the scan so far, so a resumed scan's progress does not restart at 0. */
  scanned: number;
}

export function emptyState(): ImapSyncState {
  return { v: 1, folders: {}, scanned: 0 };
}

/**
 * Reads a stored state. A folder entry that does not make sense is dropped, which rescans that folder:
 * reading a message twice is recoverable (ids are stable), skipping mail is not. A state of an unknown
 * version, or another adapter's (Gmail's names its provider, Graph's its kind), is read as none: every
 * folder is read afresh.
 */
export function readState(raw: SyncState | null | undefined): ImapSyncState {
  const state = emptyState();
  if (!raw || typeof raw !== 'object' || raw.v !== 1 || 'kind' in raw || 'provider' in raw) return state;
  if (typeof raw.scanned === 'number' && Number.isSafeInteger(raw.scanned) && raw.scanned >= 0) {
    state.scanned = raw.scanned;
  }
  const folders = raw.folders;
  if (!folders || typeof folders !== 'object') return state;
  for (const [path, value] of Object.entries(folders as Record<string, unknown>)) {
    const cp = readCheckpoint(value);
    if (cp) state.folders[path] = cp;
  }
  return state;
}

function readCheckpoint(value: unknown): FolderCheckpoint | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const uid = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;
  if (typeof v.uidValidity !== 'string' || !/^\d+$/.test(v.uidValidity)) return null;
  if (!uid(v.uidNext) || !uid(v.scannedDownTo) || typeof v.done !== 'boolean') return null;
  const floor = v.floor === undefined ? 1 : v.floor;
  if (!uid(floor) || floor > v.scannedDownTo || v.scannedDownTo > v.uidNext) return null;
  // Absent until a check has read the flags: that folder's flags are read in full once.
  const modseq = typeof v.modseq === 'string' && /^\d{1,20}$/.test(v.modseq) ? v.modseq : null;
  return {
    uidValidity: v.uidValidity,
    uidNext: v.uidNext,
    scannedDownTo: v.scannedDownTo,
    done: v.done,
    floor,
    modseq,
  };
}

/** A snapshot for a batch: the caller may hold on to it while the walk goes on. */
export function snapshot(state: ImapSyncState): SyncState {
  const folders: Record<string, FolderCheckpoint> = {};
  for (const [path, cp] of Object.entries(state.folders)) folders[path] = { ...cp };
  return { v: 1, folders, scanned: state.scanned };
}
