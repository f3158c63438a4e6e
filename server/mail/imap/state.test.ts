import { describe, expect, it } from 'vitest';
import { readState, snapshot } from './state.js';

const cp = {
  uidValidity: '1700000000',
  uidNext: 50,
  scannedDownTo: 20,
  done: false,
  floor: 1,
  modseq: '18446744073709551000',
};

describe('IMAP sync state', () => {
  it('starts empty from nothing', () => {
    expect(readState(null)).toEqual({ v: 1, folders: {}, scanned: 0 });
    expect(readState({})).toEqual({ v: 1, folders: {}, scanned: 0 });
  });

  it('survives a JSON round trip unchanged', () => {
    const state = readState({
      v: 1,
      scanned: 30,
      folders: { INBOX: cp, 'Newsletters/Café': { ...cp, done: true } },
    });
    expect(readState(JSON.parse(JSON.stringify(snapshot(state))))).toEqual(state);
  });

  it('reads a checkpoint without floor as a full scan', () => {
    const { floor: _, ...old } = cp;
    expect(readState({ v: 1, folders: { INBOX: old } }).folders.INBOX).toEqual(cp);
  });

  it('reads a checkpoint without a usable modseq as one whose flags are not known yet', () => {
    const { modseq: _, ...old } = cp;
    expect(readState({ v: 1, folders: { INBOX: old } }).folders.INBOX).toEqual({ ...cp, modseq: null });
    for (const modseq of [42, '-1', '1e9', '', '123456789012345678901']) {
      expect(readState({ v: 1, folders: { INBOX: { ...cp, modseq } } }).folders.INBOX?.modseq).toBeNull();
    }
  });

  it('drops a folder whose checkpoint makes no sense, so that folder is read again', () => {
    const state = readState({
      v: 1,
      scanned: -4,
      folders: {
        INBOX: cp,
        A: { ...cp, uidValidity: 17 },
        B: { ...cp, scannedDownTo: 60 },
        C: { ...cp, floor: 30 },
        D: { ...cp, done: 'yes' },
        E: null,
      },
    });
    expect(Object.keys(state.folders)).toEqual(['INBOX']);
    expect(state.scanned).toBe(0);
  });

  it("reads a state it does not know, or another adapter's, as none (every folder read afresh)", () => {
    const empty = { v: 1, folders: {}, scanned: 0 };
    expect(readState({ v: 2, folders: { INBOX: cp }, scanned: 3 })).toEqual(empty);
    expect(readState({ v: 1, kind: 'graph', folders: { INBOX: cp }, scanned: 3 })).toEqual(empty);
    expect(readState({ v: 1, provider: 'gmail', historyId: '42', scan: null, skipIds: [] })).toEqual(empty);
  });

  it('hands out snapshots the walk does not change afterwards', () => {
    const state = readState({ v: 1, folders: { INBOX: cp } });
    const snap = snapshot(state) as { folders: Record<string, { scannedDownTo: number }> };
    state.folders.INBOX!.scannedDownTo = 5;
    expect(snap.folders.INBOX!.scannedDownTo).toBe(20);
  });
});
