import type { SyncState } from '../provider.js';

// The Gmail checkpoint, stored as JSON after every committed batch (README.md in this folder).

export interface ScanCheckpoint {
  /** Index of the discovery search being run. */
  pass: number;
  /** The result page being worked through: re-listed on resume, so nothing on it is lost. */
  cursor: { q: string; pageToken: string | null } | null;
  /** Every sender counted so far (lowercased address -> messages yielded for it). */
  senders: Record<string, number>;
  /** Messages yielded so far. */
  scanned: number;
  /** Budget for the `-from:` exclusions; halved when Gmail refuses a query as too long. */
  queryLength: number;
}

export interface GmailSyncState {
  v: 1;
  provider: 'gmail';
  /**
   * Scan running: users.getProfile's historyId at its start. Scan complete: where the daily check resumes
   * history.list (the last history record fully handled).
   */
  historyId: string;
  /** null once the full scan is complete. */
  scan: ScanCheckpoint | null;
  /** Messages the scan counted although they arrived after historyId: the next check must skip them. */
  skipIds: string[];
}

/** The stored state if it is a usable Gmail checkpoint, else null (and the scan starts afresh). */
export function readGmailState(raw: SyncState | null | undefined): GmailSyncState | null {
  if (raw?.v !== 1 || raw.provider !== 'gmail') return null;
  if (typeof raw.historyId !== 'string' || !/^\d+$/.test(raw.historyId)) return null;
  const skipIds = Array.isArray(raw.skipIds)
    ? raw.skipIds.filter((x): x is string => typeof x === 'string')
    : [];
  if (raw.scan === null) return { v: 1, provider: 'gmail', historyId: raw.historyId, scan: null, skipIds };
  const scan = raw.scan as Partial<ScanCheckpoint> | undefined;
  if (!scan || typeof scan !== 'object') return null;
  const senders: Record<string, number> = {};
  if (scan.senders && typeof scan.senders === 'object') {
    for (const [address, count] of Object.entries(scan.senders)) {
      if (Number.isSafeInteger(count) && count >= 0) senders[address] = count;
    }
  }
  const cursor =
    scan.cursor && typeof scan.cursor.q === 'string'
      ? {
          q: scan.cursor.q,
          pageToken: typeof scan.cursor.pageToken === 'string' ? scan.cursor.pageToken : null,
        }
      : null;
  return {
    v: 1,
    provider: 'gmail',
    historyId: raw.historyId,
    scan: {
      pass: Number.isSafeInteger(scan.pass) && (scan.pass ?? -1) >= 0 ? scan.pass! : 0,
      cursor,
      senders,
      scanned: Number.isSafeInteger(scan.scanned) ? scan.scanned! : 0,
      queryLength: Number.isSafeInteger(scan.queryLength) ? scan.queryLength! : 0,
    },
    skipIds,
  };
}

/** A deep copy to hand out with a batch: the scan keeps mutating its own. */
export function snapshot(state: GmailSyncState): SyncState {
  return JSON.parse(JSON.stringify(state)) as SyncState;
}
