import { parseFrom } from '../headers/detect.js';
import type { HeaderBatch, MessageHeaders } from '../provider.js';
import { GmailApiError } from './api.js';
import type { GmailClient } from './client.js';
import { SCAN_KINDS, type ScanContext } from './scan-context.js';
import { METADATA_HEADERS, toMessageHeaders } from './scan-messages.js';
import { discoveryQuery, excludedMail, queryGroups, senderQuery } from './scan-query.js';
import { handOut, LIST_CONCURRENCY, listSenders, mapLimit, type Pending } from './scan-senders.js';
import { type GmailSyncState, type ScanCheckpoint, snapshot } from './state.js';

// The full scan, driven by search so that its cost grows with the number of senders, not with the size of
// the mailbox (README.md in this folder): discovery searches newest first, one metadata get per unknown
// message until its sender is known, then a `from:` id listing per sender for an exact count
// (scan-senders.ts). The searches are written by scan-query.ts.

/** Discovery searches, in order. Each is exhausted before the next; spam and trash are never listed. */
export const DEFAULT_DISCOVERY = [
  'unsubscribe',
  'category:promotions',
  'category:social',
  'category:updates',
  'category:forums',
];

const MIN_QUERY_LENGTH = 200;
const FIRST_CHUNK = 5;

export async function freshScanState(ctx: ScanContext): Promise<GmailSyncState> {
  const profile = await ctx.client.getProfile();
  return {
    v: 1,
    provider: 'gmail',
    historyId: profile.historyId,
    scan: { pass: 0, cursor: null, senders: {}, scanned: 0, queryLength: ctx.maxQueryLength },
    skipIds: [],
  };
}

export async function* runScan(ctx: ScanContext, state: GmailSyncState): AsyncGenerator<HeaderBatch> {
  const cp = state.scan;
  if (!cp) return;
  if (cp.queryLength < MIN_QUERY_LENGTH) cp.queryLength = ctx.maxQueryLength;
  // Ids of counted senders (skipped by discovery without a get) and ids yielded (for skipIds at the end).
  const known = new Set<string>();
  const counted = new Set<string>();
  await rebuild(ctx, cp, known, counted);
  const progress = { scanned: cp.scanned, total: cp.scanned };
  let chunkSize = Math.min(FIRST_CHUNK, ctx.discoveryChunk);

  while (cp.pass < ctx.passes.length) {
    const term = ctx.passes[cp.pass]!;
    // Deep in a pass its query stays: a narrower one would list again the pages already passed.
    const deep = cp.cursor?.pageToken ? cp.cursor : null;
    const q = deep?.q ?? discoveryQuery(term, ctx.self, cp.senders, cp.queryLength);
    const pageToken = deep?.pageToken ?? null;
    cp.cursor = { q, pageToken };
    const page = await listDiscoveryPage(ctx, cp, term, q, pageToken);
    if (!page) continue;
    const later = page.nextPageToken ? Math.max(0, page.resultSizeEstimate - page.ids.length) : 0;
    let unknown = page.ids.filter((id) => !known.has(id));
    let countedHere = false;
    // Senders listed and fetched but not yet handed out: their read states are listed together, as many
    // as one query holds, so a batch goes out when they fill it (and at the end of the page).
    let pending: Pending[] = [];
    const flush = async function* (all: boolean): AsyncGenerator<HeaderBatch> {
      const groups = queryGroups(
        pending.map((p) => p.address),
        cp.queryLength,
      );
      const ready = all ? groups.length : groups.length - 1;
      if (ready <= 0) return;
      const take = groups.slice(0, ready).flat().length;
      const messages = await handOut(ctx, cp, pending.slice(0, take), counted);
      pending = pending.slice(take);
      countedHere = true;
      progress.scanned = cp.scanned;
      progress.total = cp.scanned + unknown.length + later;
      yield { messages, state: snapshot(state), progress: { ...progress } };
    };
    while (unknown.length > 0) {
      const chunk = unknown.slice(0, chunkSize);
      const waiting = new Set(pending.map((p) => p.address));
      const found = await newSenders(ctx, cp, chunk, known, waiting);
      chunkSize = Math.max(1, Math.min(ctx.discoveryChunk, found.size));
      if (found.size > 0) pending.push(...(await listSenders(ctx, found, known)));
      unknown = unknown.filter((id) => !known.has(id));
      yield* flush(false);
    }
    yield* flush(true);
    if (countedHere && !pageToken) {
      // On the first page, new exclusions that leave out more mail start the query over, narrower, rather
      // than page through counted senders. Once the budget is full, exclusions only trade places.
      const narrower = discoveryQuery(term, ctx.self, cp.senders, cp.queryLength);
      if (excludedMail(narrower, cp.senders) > excludedMail(q, cp.senders)) {
        cp.cursor = null;
        continue;
      }
    }
    if (page.nextPageToken) {
      cp.cursor = { q, pageToken: page.nextPageToken };
      continue;
    }
    cp.pass += 1;
    cp.cursor = null;
  }

  const skipIds = await countedSince(ctx.client, state.historyId, counted);
  const done: GmailSyncState = { ...state, scan: null, skipIds };
  // Carries the final checkpoint; its messages were all in earlier batches.
  yield { messages: [], state: snapshot(done), progress: { scanned: cp.scanned, total: cp.scanned } };
}

/**
 * One page of a discovery search, or null when the checkpoint now says to try again: from the top for a
 * page token Gmail no longer accepts, with half the exclusions for a query it refuses.
 */
async function listDiscoveryPage(
  ctx: ScanContext,
  cp: ScanCheckpoint,
  term: string,
  q: string,
  pageToken: string | null,
): Promise<Awaited<ReturnType<GmailClient['listMessages']>> | null> {
  try {
    return await ctx.client.listMessages({ q, pageToken, kind: SCAN_KINDS.discoveryList });
  } catch (err) {
    if (!(err instanceof GmailApiError) || err.status !== 400) throw err;
    if (pageToken) {
      // A page token Gmail no longer accepts: the same query from the top, known ids cost no gets.
      cp.cursor = { q, pageToken: null };
      return null;
    }
    // Gmail does not document a query length limit; a refused query gets half the exclusions.
    if (cp.queryLength <= MIN_QUERY_LENGTH || q === discoveryQuery(term, ctx.self)) throw err;
    cp.queryLength = Math.max(MIN_QUERY_LENGTH, Math.floor(cp.queryLength / 2));
    return null;
  }
}

/**
 * The metadata of a round of unknown ids (they become known), by sender: only senders neither the user,
 * counted already, nor `waiting` to be handed out.
 */
async function newSenders(
  ctx: ScanContext,
  cp: ScanCheckpoint,
  chunk: readonly string[],
  known: Set<string>,
  waiting: ReadonlySet<string>,
): Promise<Map<string, MessageHeaders[]>> {
  const got = await ctx.client.getMetadata(chunk, METADATA_HEADERS, SCAN_KINDS.discoveryGet);
  const found = new Map<string, MessageHeaders[]>();
  for (const id of chunk) {
    known.add(id);
    const message = got.get(id);
    if (!message) continue; // deleted since it was listed
    const headers = toMessageHeaders(message);
    const address = parseFrom(headers.fields.from)?.address;
    // A counted sender's message that its listing did not have arrived after it: the daily check has it.
    if (!address || address === ctx.self || cp.senders[address] !== undefined || waiting.has(address)) {
      continue;
    }
    const list = found.get(address);
    if (list) list.push(headers);
    else found.set(address, [headers]);
  }
  return found;
}

/**
 * After a restart the ids of the senders already counted are listed again (5 units per 500): discovery
 * must skip them without a get, and the final skipIds need them. Ids beyond the stored count are the newest,
 * arrived since the sender was counted; they stay uncounted, for the daily check.
 */
async function rebuild(ctx: ScanContext, cp: ScanCheckpoint, known: Set<string>, counted: Set<string>) {
  const senders = Object.entries(cp.senders);
  const listings = await mapLimit(senders, LIST_CONCURRENCY, ([address]) =>
    ctx.client.listAllIds(senderQuery(address), { kind: SCAN_KINDS.resumeList }),
  );
  for (const [i, [, count]] of senders.entries()) {
    const ids = listings[i]!;
    const extra = Math.max(0, ids.length - count);
    ids.forEach((id, n) => {
      known.add(id);
      if (n >= extra) counted.add(id);
    });
  }
}

/** Ids the scan counted that history.list shows as added after the scan's start. */
async function countedSince(client: GmailClient, historyId: string, counted: Set<string>): Promise<string[]> {
  const ids = new Set<string>();
  let pageToken: string | null = null;
  try {
    do {
      const page: Awaited<ReturnType<GmailClient['listHistory']>> = await client.listHistory({
        startHistoryId: historyId,
        pageToken,
        kind: SCAN_KINDS.history,
      });
      for (const record of page.history) {
        for (const added of record.messagesAdded ?? []) {
          if (counted.has(added.message.id)) ids.add(added.message.id);
        }
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
  } catch (err) {
    // History this old is gone: the daily check will answer 404 too and rescan.
    if (err instanceof GmailApiError && err.status === 404) return [];
    throw err;
  }
  return [...ids];
}
