import type { ImapFlow, ListResponse, MailboxLockObject } from 'imapflow';
import { parseHeaderBlock } from '../headers/headers.js';
import type { Folder, HeaderBatch, MessageHeaders, ReadStateChange } from '../provider.js';
import { fetchRows } from './fetch-rows.js';
import { type FolderCheckpoint, type ImapSyncState, snapshot } from './state.js';
import { chunkDescending, parseUidSet, type UidRange, uidsToRanges } from './uid-set.js';

// Sent and Drafts hold the user's own mail, Trash and Junk what they already rejected; \All, \Flagged and
// \Important are views that repeat messages kept in other folders, so scanning them would count twice.
const NOT_SCANNED = ['\\Trash', '\\Junk', '\\Sent', '\\Drafts', '\\All', '\\Flagged', '\\Important'];

export interface ListedFolder extends Folder {
  status: { messages: number | null; uidNext: number | null; uidValidity: string | null } | null;
}

export async function listMailboxes(client: ImapFlow, withStatus: boolean): Promise<ListedFolder[]> {
  // Not `listOnly`: that also skips ImapFlow's special-use detection, including the fallback by folder name
  // ("Deleted Messages", "Bulk Mail") for servers without SPECIAL-USE.
  const entries = await client.list(
    withStatus ? { statusQuery: { messages: true, uidNext: true, uidValidity: true } } : {},
  );
  const folders = entries
    .filter((e) => !e.flags.has('\\Noselect') && !e.flags.has('\\NonExistent'))
    .map(toFolder);
  // INBOX first: it is where most newsletters land, so the first subscriptions appear soonest.
  return folders.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function rank(f: Folder): number {
  return f.path === 'INBOX' ? 0 : 1;
}

function toFolder(e: ListResponse): ListedFolder {
  const specialUse = e.specialUse ?? null;
  const excluded = NOT_SCANNED.some((flag) => flag === specialUse || e.flags.has(flag));
  const s = e.status && !('error' in e.status) ? e.status : null;
  return {
    path: e.path,
    name: e.name,
    specialUse,
    scanned: !excluded,
    status: s
      ? {
          messages: s.messages ?? null,
          uidNext: s.uidNext ?? null,
          uidValidity: s.uidValidity === undefined ? null : s.uidValidity.toString(),
        }
      : null,
  };
}

export interface SyncRun {
  client: ImapFlow;
  mode: 'scan' | 'changes';
  state: ImapSyncState;
  batchSize: number;
  /** The daily check's fallback without CONDSTORE: ids of the messages whose flags the product keeps. */
  knownMessages?: () => Promise<string[]>;
}

/** Messages in a fresh scan's first batch (newest INBOX mail): answered within a few ms on loopback. */
const FIRST_BATCH = 100;

/** UID ranges per flags-only UID FETCH of known messages: keeps each command line a few KB. */
const RANGES_PER_FETCH = 500;

/**
 * The scan and the daily check are one walk: each folder that has something left is selected once and its
 * pending UID ranges are fetched from the top down, a checkpoint following every batch.
 */
export async function* syncMailbox(run: SyncRun): AsyncGenerator<HeaderBatch> {
  const { state, mode } = run;
  const folders = (await listMailboxes(run.client, true)).filter((f) => f.scanned);
  // A folder deleted since the last run must not keep a checkpoint that a later folder of the same name inherits.
  const listed = new Set(folders.map((f) => f.path));
  for (const path of Object.keys(state.folders)) if (!listed.has(path)) delete state.folders[path];

  const work = folders.filter((f) => needsWork(mode, state.folders[f.path], f));
  const total =
    mode === 'scan'
      ? folders.reduce((n, f) => n + (f.status?.messages ?? 0), 0)
      : work.reduce((n, f) => n + expectedNew(state.folders[f.path], f.status), 0);
  const progress = { scanned: mode === 'scan' ? state.scanned : 0, total };
  const known = knownUids(run);

  for (const folder of work) {
    const lock = await lockFolder(run.client, folder.path);
    if (!lock) continue;
    try {
      const box = run.client.mailbox;
      if (!box || box.path !== folder.path) throw connectionLost('SELECT');
      const uidValidity = box.uidValidity.toString();
      const uidNext = await selectedUidNext(run.client, folder.status, uidValidity);
      // As of this SELECT (EXAMINE): flag changes made while the walk runs are read again next time.
      const modseq =
        run.client.enabled.has('CONDSTORE') && !box.noModseq && box.highestModseq
          ? box.highestModseq.toString()
          : null;
      let cp = state.folders[folder.path];
      if (mode === 'changes') {
        const opened = { uidValidity, uidNext, messages: box.exists };
        progress.total += expectedNew(cp, opened) - expectedNew(cp, folder.status);
      }
      // Flag changes go with the folder's first batch of new mail (one commit, and the read-ahead of the
      // scans service then overlaps the next folder with real work), or alone when no new mail follows.
      const carry: Carry = { flags: null };
      if (mode === 'changes' && cp && cp.uidValidity === uidValidity && cp.uidNext > 1) {
        // Read states of the mail handed out before (below cp.uidNext); newer mail brings its own.
        const flags = await flagChanges(run, folder.path, cp, modseq, known);
        const moved = cp.modseq !== modseq;
        cp.modseq = modseq;
        if (flags.length > 0 || moved) carry.flags = flags;
      }
      if (!cp || cp.uidValidity !== uidValidity) {
        // A new UIDVALIDITY renumbers everything: the folder is read afresh, flags with the headers.
        cp = { uidValidity, uidNext, scannedDownTo: uidNext, done: false, floor: 1, modseq };
        state.folders[folder.path] = cp;
      }
      if (!cp.done) yield* walk(run, folder.path, cp, progress, carry);
      if (mode === 'changes' && uidNext > cp.uidNext) {
        // The new range becomes the pending one; if the check dies halfway, the next one finishes it.
        cp = {
          uidValidity,
          uidNext,
          scannedDownTo: uidNext,
          done: false,
          floor: cp.uidNext,
          modseq: cp.modseq,
        };
        state.folders[folder.path] = cp;
        yield* walk(run, folder.path, cp, progress, carry);
      }
      if (carry.flags)
        yield { messages: [], flags: carry.flags, state: snapshot(state), progress: { ...progress } };
    } finally {
      lock.release();
    }
  }
}

function needsWork(mode: SyncRun['mode'], cp: FolderCheckpoint | undefined, folder: ListedFolder): boolean {
  // STATUS may lag behind what SELECT sees (Dovecot with mail dropped into maildir behind its back, some
  // hosted servers' caches), so the daily check selects every folder: one round trip each, never a miss.
  if (mode === 'changes' || !cp || !cp.done) return true;
  return !folder.status?.uidValidity || folder.status.uidValidity !== cp.uidValidity;
}

/** How many messages a daily check expects from a folder, from STATUS first and SELECT once it is open. */
function expectedNew(
  cp: FolderCheckpoint | undefined,
  seen: { uidValidity: string | null; uidNext: number | null; messages: number | null } | null,
): number {
  const messages = seen?.messages ?? 0;
  if (!cp || cp.uidValidity !== seen?.uidValidity) return messages;
  const pending = cp.done ? 0 : cp.scannedDownTo - cp.floor;
  const fresh = Math.max(0, (seen.uidNext ?? cp.uidNext) - cp.uidNext);
  return Math.min(messages, pending + fresh);
}

const isUid = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/**
 * UIDNEXT of the folder just selected. RFC 3501 has SELECT and EXAMINE answer it, but not every server does:
 * Courier IMAP answers it to STATUS only. Then the value STATUS gave when the folders were listed (same
 * UIDVALIDITY), raised to the highest UID present + 1 (one `FETCH <exists> (UID)`), since STATUS may lag
 * behind what SELECT sees. Either may be lower than the server's own UIDNEXT (its newest message expunged),
 * never higher than a UID it will give new mail, which is all a checkpoint needs: UIDs at or above it are
 * read by the next check.
 */
async function selectedUidNext(
  client: ImapFlow,
  status: ListedFolder['status'],
  uidValidity: string,
): Promise<number> {
  const box = client.mailbox;
  if (!box) throw connectionLost('SELECT');
  if (isUid(box.uidNext)) return box.uidNext;
  let next = status && status.uidValidity === uidValidity && isUid(status.uidNext) ? status.uidNext : 1;
  if (box.exists > 0) {
    const last = await client.fetchOne('*', { uid: true });
    if (!client.usable || client.mailbox === false) throw connectionLost('FETCH');
    if (last && isUid(last.uid)) next = Math.max(next, last.uid + 1);
  }
  return next;
}

async function lockFolder(client: ImapFlow, path: string): Promise<MailboxLockObject | null> {
  try {
    return await client.getMailboxLock(path, { readOnly: true });
  } catch (err) {
    // Deleted since LIST, or listed but not readable (a shared folder without rights): retrying would fail
    // the same way forever, so the scan goes on without it.
    const e = err as { mailboxMissing?: boolean; responseStatus?: string };
    if (client.usable && (e.mailboxMissing || e.responseStatus === 'NO')) return null;
    throw err;
  }
}

/** Flag changes waiting for the next batch of their folder. */
interface Carry {
  flags: ReadStateChange[] | null;
}

async function* walk(
  run: SyncRun,
  path: string,
  cp: FolderCheckpoint,
  progress: { scanned: number; total: number },
  carry: Carry,
): AsyncGenerator<HeaderBatch> {
  // A fresh scan's first batch is small: the user waits for the first subscriptions to appear.
  const first = run.mode === 'scan' && run.state.scanned === 0 ? FIRST_BATCH : run.batchSize;
  const lo = cp.floor;
  const hi = cp.scannedDownTo - 1;
  // A pending range no wider than one batch is fetched whole (a FETCH names only the UIDs that exist):
  // asking first which of them exist (UID SEARCH) would cost a round trip to learn what the FETCH answers
  // anyway. A daily check's new mail is nearly always such a range.
  const ranges =
    hi < lo
      ? []
      : hi - lo < Math.min(first, run.batchSize)
        ? [{ lo, hi, count: hi - lo + 1 }]
        : await searchUids(run.client, lo, hi);
  const chunks = chunkDescending(ranges, run.batchSize, first);
  if (chunks.length === 0) {
    cp.scannedDownTo = cp.floor;
    cp.done = true;
    return;
  }
  const fetchChunk = (chunk: UidRange) => fetchHeaders(run.client, path, cp.uidValidity, chunk);
  let next: Promise<MessageHeaders[]> | null = fetchChunk(chunks[0]!);
  try {
    for (const [i, chunk] of chunks.entries()) {
      const messages: MessageHeaders[] = await next!;
      // The next batch is requested before this one is handed over, so the server and the network work while
      // the caller stores it.
      next = i + 1 < chunks.length ? fetchChunk(chunks[i + 1]!) : null;
      // Awaited on the next turn or below; this only keeps an early exit from leaving a rejection unobserved.
      next?.catch(() => {});
      cp.scannedDownTo = chunk.lo;
      cp.done = i === chunks.length - 1;
      progress.scanned += messages.length;
      if (run.mode === 'scan') run.state.scanned += messages.length;
      progress.total = Math.max(progress.total, progress.scanned);
      // An empty batch (all of it expunged meanwhile) carries no news; the next batch carries its checkpoint.
      if (messages.length > 0) {
        const flags = carry.flags;
        carry.flags = null;
        yield {
          messages,
          ...(flags ? { flags } : {}),
          state: snapshot(run.state),
          progress: { ...progress },
        };
      }
    }
  } finally {
    // A caller that stops early must not get the mailbox lock released under a FETCH still running in it.
    if (next) await next.catch(() => {});
  }
}

async function searchUids(client: ImapFlow, lo: number, hi: number): Promise<UidRange[]> {
  // ESEARCH answers with a compact set ("1:4000,4002:9000") instead of one number per message.
  const result = await client.search({ uid: `${lo}:${hi}` }, { uid: true, returnOptions: ['ALL'] });
  if (!client.usable) throw connectionLost('UID SEARCH');
  if (!result) throw commandFailed('UID SEARCH');
  if (Array.isArray(result)) return uidsToRanges(result);
  return parseUidSet(result.all ?? '');
}

async function fetchHeaders(
  client: ImapFlow,
  path: string,
  uidValidity: string,
  chunk: UidRange,
): Promise<MessageHeaders[]> {
  const rows = await fetchRows(client, chunk.lo, chunk.hi, (row): MessageHeaders => {
    const fields = parseHeaderBlock(row.header);
    return {
      id: `${path}/${uidValidity}/${row.uid}`,
      folder: path,
      date: messageDate(fields.date, row.internalDate ?? undefined),
      fields,
      seen: row.seen,
    };
  });
  // ImapFlow ends a command quietly when the mailbox is gone, which would pass a dropped connection off as
  // an empty range.
  if (!client.usable || client.mailbox === false) throw connectionLost('UID FETCH');
  return rows.sort((a, b) => b.uid - a.uid).map((r) => r.value);
}

/**
 * Read states of a folder's messages below cp.uidNext that may have changed since the last run. With
 * CONDSTORE and a stored modseq: `UID FETCH 1:<uidNext-1> (FLAGS) (CHANGEDSINCE <modseq>)`, which names
 * only what changed. Otherwise (a server without CONDSTORE, or the first check of a folder scanned before
 * read states were kept): a flags-only fetch of the UIDs the product keeps references of, a few hundred
 * ranges per command. Never headers, never one command per message.
 */
async function flagChanges(
  run: SyncRun,
  path: string,
  cp: FolderCheckpoint,
  modseq: string | null,
  known: (path: string, uidValidity: string) => Promise<number[]>,
): Promise<ReadStateChange[]> {
  const { client } = run;
  const out: ReadStateChange[] = [];
  const read = async (set: string, changedSince: bigint | undefined) => {
    const options = changedSince === undefined ? { uid: true } : { uid: true, changedSince };
    for await (const msg of client.fetch(set, { uid: true, flags: true }, options)) {
      // An unsolicited FETCH (another client changing flags meanwhile) can come without a UID.
      if (typeof msg.uid !== 'number' || msg.uid >= cp.uidNext || !msg.flags) continue;
      out.push({ id: `${path}/${cp.uidValidity}/${msg.uid}`, seen: msg.flags.has('\\Seen') });
    }
    if (!client.usable || client.mailbox === false) throw connectionLost('UID FETCH');
  };
  if (modseq !== null && cp.modseq !== null) {
    if (modseq !== cp.modseq) await read(`1:${cp.uidNext - 1}`, BigInt(cp.modseq));
    return out;
  }
  const ranges = uidsToRanges((await known(path, cp.uidValidity)).filter((uid) => uid < cp.uidNext));
  for (let i = 0; i < ranges.length; i += RANGES_PER_FETCH) {
    const set = ranges
      .slice(i, i + RANGES_PER_FETCH)
      .map((r) => (r.lo === r.hi ? `${r.lo}` : `${r.lo}:${r.hi}`))
      .join(',');
    await read(set, undefined);
  }
  return out;
}

/**
 * The UIDs of the known messages of a folder, by `<folder>/<uidvalidity>`: asked of the product once per
 * check, and only when a folder needs them.
 */
function knownUids(run: SyncRun): (path: string, uidValidity: string) => Promise<number[]> {
  let byFolder: Promise<Map<string, number[]>> | null = null;
  const load = async () => {
    const map = new Map<string, number[]>();
    for (const id of (await run.knownMessages?.()) ?? []) {
      // `<folder>/<uidvalidity>/<uid>`; the folder may itself contain slashes.
      const slash = id.lastIndexOf('/');
      const uid = Number(id.slice(slash + 1));
      if (slash <= 0 || !Number.isSafeInteger(uid) || uid < 1) continue;
      const key = id.slice(0, slash);
      const list = map.get(key);
      if (list) list.push(uid);
      else map.set(key, [uid]);
    }
    return map;
  };
  return async (path, uidValidity) => {
    byFolder ??= load();
    return (await byFolder).get(`${path}/${uidValidity}`) ?? [];
  };
}

export function messageDate(header: string | null, internalDate: Date | string | undefined): number | null {
  const fromHeader = header ? Date.parse(header) : Number.NaN;
  if (Number.isFinite(fromHeader)) return fromHeader;
  const internal = internalDate === undefined ? Number.NaN : new Date(internalDate).getTime();
  return Number.isFinite(internal) ? internal : null;
}

function connectionLost(command: string): Error {
  return Object.assign(new Error(`Connection lost during ${command}`), {
    code: 'EConnectionClosed',
    command,
  });
}

function commandFailed(command: string): Error {
  return Object.assign(new Error(`${command} failed`), { code: 'CommandFailed', command });
}
