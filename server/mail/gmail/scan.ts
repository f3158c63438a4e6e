import { parseFrom } from '../headers/detect.js';
import { emptyHeaderFields, headerFieldsFromPairs } from '../headers/headers.js';
import { type HeaderBatch, type MessageHeaders, SCAN_HEADER_FIELDS } from '../provider.js';
import { GmailApiError, type GmailMessage } from './api.js';
import type { GmailClient } from './client.js';
import { type GmailSyncState, type ScanCheckpoint, snapshot } from './state.js';

// The full scan, driven by search so that its cost grows with the number of senders, not with the size of
// the mailbox (README.md in this folder): discovery searches newest first, one metadata get per unknown
// message until its sender is known, then a `from:` id listing per sender for an exact count.

/** Exactly what detection reads (docs/ARCHITECTURE.md, the mail port), asked for with format=metadata. */
export const METADATA_HEADERS: readonly string[] = SCAN_HEADER_FIELDS;

/** Gmail has labels, not folders; a message id is valid mailbox-wide, so every message reports All Mail. */
export const GMAIL_FOLDER = '[Gmail]/All Mail';

/** Discovery searches, in order. Each is exhausted before the next; spam and trash are never listed. */
export const DEFAULT_DISCOVERY = [
  'unsubscribe',
  'category:promotions',
  'category:social',
  'category:updates',
  'category:forums',
];

export interface ScanContext {
  client: GmailClient;
  /** The mailbox's own address: never a subscription, excluded from discovery. */
  self: string;
  passes: readonly string[];
  /** Metadata gets per sender beyond the discovery hit: its newest messages. */
  detailPerSender: number;
  /**
   * Most unknown ids fetched per discovery round. Rounds start at 5 and then size themselves by how many
   * new senders the last one found: a get whose sender turns out to be another's in the same round is waste.
   */
  discoveryChunk: number;
  maxQueryLength: number;
}

const MIN_QUERY_LENGTH = 200;
const FIRST_CHUNK = 5;
const LIST_CONCURRENCY = 4;

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
    const q = discoveryQuery(term, ctx.self, cp.senders, cp.queryLength);
    const pageToken = cp.cursor?.q === q ? cp.cursor.pageToken : null;
    cp.cursor = { q, pageToken };
    let page: Awaited<ReturnType<GmailClient['listMessages']>>;
    try {
      page = await ctx.client.listMessages({ q, pageToken });
    } catch (err) {
      if (!(err instanceof GmailApiError) || err.status !== 400) throw err;
      if (pageToken) {
        // A page token Gmail no longer accepts: the same query from the top, known ids cost no gets.
        cp.cursor = { q, pageToken: null };
        continue;
      }
      // Gmail does not document a query length limit; a refused query gets half the exclusions.
      if (cp.queryLength <= MIN_QUERY_LENGTH || q === discoveryQuery(term, ctx.self)) throw err;
      cp.queryLength = Math.max(MIN_QUERY_LENGTH, Math.floor(cp.queryLength / 2));
      continue;
    }
    const later = page.nextPageToken ? Math.max(0, page.resultSizeEstimate - page.ids.length) : 0;
    let unknown = page.ids.filter((id) => !known.has(id));
    let countedHere = false;
    while (unknown.length > 0) {
      const chunk = unknown.slice(0, chunkSize);
      const got = await ctx.client.getMetadata(chunk, METADATA_HEADERS);
      const found = new Map<string, MessageHeaders[]>();
      for (const id of chunk) {
        known.add(id);
        const message = got.get(id);
        if (!message) continue; // deleted since it was listed
        const headers = toMessageHeaders(message);
        const address = parseFrom(headers.fields.from)?.address;
        // A counted sender's message that its listing did not have arrived after it: the daily check has it.
        if (!address || address === ctx.self || cp.senders[address] !== undefined) continue;
        const list = found.get(address);
        if (list) list.push(headers);
        else found.set(address, [headers]);
      }
      chunkSize = Math.max(1, Math.min(ctx.discoveryChunk, found.size * 2));
      if (found.size > 0) {
        const messages = await countSenders(ctx, cp, found, known, counted);
        countedHere = true;
        unknown = unknown.filter((id) => !known.has(id));
        progress.scanned = cp.scanned;
        progress.total = cp.scanned + unknown.length + later;
        yield { messages, state: snapshot(state), progress: { ...progress } };
      } else {
        unknown = unknown.filter((id) => !known.has(id));
      }
    }
    if (countedHere && discoveryQuery(term, ctx.self, cp.senders, cp.queryLength) !== q) {
      // New exclusions fit: start over with the narrower query rather than page through counted senders.
      cp.cursor = null;
      continue;
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

/** `term -from:self -from:<counted senders, most messages first, as many as the length budget allows>`. */
export function discoveryQuery(
  term: string,
  self: string,
  senders: Readonly<Record<string, number>> = {},
  budget = 0,
): string {
  let q = `${term} -from:${searchAddress(self)}`;
  const ranked = Object.entries(senders).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [address] of ranked) {
    const part = ` -from:${searchAddress(address)}`;
    if (q.length + part.length > budget) break;
    q += part;
  }
  return q;
}

export function senderQuery(address: string): string {
  return `from:${searchAddress(address)}`;
}

/** An address as Gmail's search (and a filter's `from`) reads it: quoted unless plainly an address. */
export function searchAddress(address: string): string {
  return /^[a-z0-9._%+'@-]+$/i.test(address) ? address : `"${address.replace(/"/g, '')}"`;
}

/**
 * Lists every id of each new sender, fetches metadata of its newest few, and returns the batch: fetched
 * messages with their real header fields, the others as counted-only entries (see countedOnly). A second
 * listing per sender, `from:<address> is:unread` (5 units a page of 500), gives every message its read
 * state without a get: the read rate covers all of the sender's mail, not only the few fetched.
 */
async function countSenders(
  ctx: ScanContext,
  cp: ScanCheckpoint,
  found: Map<string, MessageHeaders[]>,
  known: Set<string>,
  counted: Set<string>,
): Promise<MessageHeaders[]> {
  const senders = [...found.entries()];
  const both = await mapLimit(senders, LIST_CONCURRENCY, ([address]) =>
    Promise.all([
      ctx.client.listAllIds(senderQuery(address)),
      ctx.client.listAllIds(`${senderQuery(address)} is:unread`),
    ]),
  );
  const listings = both.map(([ids]) => ids);
  const unread = new Set(both.flatMap(([, ids]) => ids));
  const wanted: string[] = [];
  for (const [i, [, discovered]] of senders.entries()) {
    const have = new Set(discovered.map((m) => m.id));
    for (const id of listings[i]!.slice(0, ctx.detailPerSender)) if (!have.has(id)) wanted.push(id);
  }
  const details = wanted.length > 0 ? await ctx.client.getMetadata(wanted, METADATA_HEADERS) : new Map();

  const out: MessageHeaders[] = [];
  for (const [i, [address, discovered]] of senders.entries()) {
    const fetched = new Map(discovered.map((m) => [m.id, m]));
    const ids = [...listings[i]!];
    for (const m of discovered) if (!ids.includes(m.id)) ids.push(m.id);
    for (const id of ids) {
      const m = details.get(id);
      if (m) fetched.set(id, toMessageHeaders(m));
    }
    const newest = [...fetched.values()]
      .filter((m) => parseFrom(m.fields.from)?.address === address)
      .sort((a, b) => (b.date ?? 0) - (a.date ?? 0))[0];
    const from = newest?.fields.from ?? `<${address}>`;
    const real: MessageHeaders[] = [];
    const rest: MessageHeaders[] = [];
    for (const id of ids) {
      known.add(id);
      // Deleted between the listing and the get, or already counted under another sender.
      if (details.get(id) === null || counted.has(id)) continue;
      counted.add(id);
      const m = fetched.get(id);
      if (m) real.push(m);
      else rest.push(countedOnly(id, from, !unread.has(id)));
    }
    real.sort((a, b) => (b.date ?? 0) - (a.date ?? 0));
    out.push(...real, ...rest);
    cp.senders[address] = real.length + rest.length;
    cp.scanned += real.length + rest.length;
  }
  return out;
}

/**
 * After a restart the ids of the senders already counted are listed again (5 units per 500): discovery
 * must skip them without a get, and the final skipIds need them. Ids beyond the stored count are the newest,
 * arrived since the sender was counted; they stay uncounted, for the daily check.
 */
async function rebuild(ctx: ScanContext, cp: ScanCheckpoint, known: Set<string>, counted: Set<string>) {
  const senders = Object.entries(cp.senders);
  const listings = await mapLimit(senders, LIST_CONCURRENCY, ([address]) =>
    ctx.client.listAllIds(senderQuery(address)),
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

export function toMessageHeaders(message: GmailMessage): MessageHeaders {
  const fields = headerFieldsFromPairs(message.payload?.headers ?? []);
  return {
    id: message.id,
    folder: GMAIL_FOLDER,
    date: messageDate(fields.date, message.internalDate),
    fields,
    // format=metadata carries the labels: read is the absence of UNREAD.
    seen: message.labelIds ? !message.labelIds.includes('UNREAD') : null,
  };
}

/**
 * A message known only from its sender's `from:` listing: it is counted, but its header fields were not
 * fetched (5 units each). `from` repeats the sender's newest From so grouping and naming stay exact.
 */
export function countedOnly(id: string, from: string, seen: boolean | null = null): MessageHeaders {
  return { id, folder: GMAIL_FOLDER, date: null, fields: emptyHeaderFields(from), seen };
}

function messageDate(header: string | null, internalDate: string | undefined): number | null {
  const fromHeader = header ? Date.parse(header) : Number.NaN;
  if (Number.isFinite(fromHeader)) return fromHeader;
  const internal = internalDate === undefined ? Number.NaN : Number(internalDate);
  return Number.isFinite(internal) ? internal : null;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
