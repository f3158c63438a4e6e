import { detectSubscription, parseFrom } from '../headers/detect.js';
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
  /**
   * How deep into each sender's newest messages metadata may be fetched (default 5). Within them only what
   * exactness needs is fetched (wantedNext): usually the newest and one more.
   */
  detailPerSender: number;
  /**
   * Most unknown ids fetched per discovery round. Rounds start at 5 and then size themselves by how many
   * new senders the last one found: a get whose sender turns out to be another's in the same round is waste.
   */
  discoveryChunk: number;
  maxQueryLength: number;
}

/** What the scan's units buy, for quotaUnitsByKind (docs/benchmarks.md, "Gmail quota units"). */
export const SCAN_KINDS = {
  discoveryList: 'discovery: list',
  discoveryGet: 'discovery: get',
  senderList: 'sender: id listing',
  readList: 'senders: read-state listing',
  newestGet: 'sender: newest gets',
  resumeList: 'resume: id listing',
  history: 'end: history.list',
} as const;

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
    // Deep in a pass its query stays: a narrower one would list again the pages already passed.
    const deep = cp.cursor?.pageToken ? cp.cursor : null;
    const q = deep?.q ?? discoveryQuery(term, ctx.self, cp.senders, cp.queryLength);
    const pageToken = deep?.pageToken ?? null;
    cp.cursor = { q, pageToken };
    let page: Awaited<ReturnType<GmailClient['listMessages']>>;
    try {
      page = await ctx.client.listMessages({ q, pageToken, kind: SCAN_KINDS.discoveryList });
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
      const got = await ctx.client.getMetadata(chunk, METADATA_HEADERS, SCAN_KINDS.discoveryGet);
      const found = new Map<string, MessageHeaders[]>();
      const waiting = new Set(pending.map((p) => p.address));
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

/** How many counted messages a discovery query's `-from:` exclusions leave out. */
export function excludedMail(q: string, senders: Readonly<Record<string, number>>): number {
  const padded = `${q} `;
  let total = 0;
  for (const [address, count] of Object.entries(senders)) {
    if (padded.includes(` -from:${searchAddress(address)} `)) total += count;
  }
  return total;
}

export function senderQuery(address: string): string {
  return `from:${searchAddress(address)}`;
}

/** An address as Gmail's search (and a filter's `from`) reads it: quoted unless plainly an address. */
export function searchAddress(address: string): string {
  return /^[a-z0-9._%+'@-]+$/i.test(address) ? address : `"${address.replace(/"/g, '')}"`;
}

/** A new sender, listed and fetched (listSenders), to be handed out (handOut). */
interface Pending {
  address: string;
  discovered: MessageHeaders[];
  /** Every id of its `from:` listing, newest first. */
  listing: string[];
  fetched: Map<string, MessageHeaders>;
  /** Ids deleted between the listing and the get. */
  gone: Set<string>;
}

/**
 * Lists every id of each new sender (exact count: 5 units a page of 500) and fetches metadata of as few
 * of its newest messages as exactness needs (wantedNext). Its ids become known: discovery skips them.
 */
async function listSenders(
  ctx: ScanContext,
  found: Map<string, MessageHeaders[]>,
  known: Set<string>,
): Promise<Pending[]> {
  const senders = [...found.entries()];
  const listings = await mapLimit(senders, LIST_CONCURRENCY, ([address]) =>
    ctx.client.listAllIds(senderQuery(address), { kind: SCAN_KINDS.senderList }),
  );
  const out: Pending[] = senders.map(([address, discovered], i) => ({
    address,
    discovered,
    listing: listings[i]!,
    fetched: new Map(discovered.map((m) => [m.id, m])),
    gone: new Set<string>(),
  }));
  // Rounds of one batch each: usually one (the newest, or a second message with list evidence).
  for (;;) {
    const wanted = new Map<string, Pending>();
    for (const p of out) {
      const id = wantedNext(p.listing.slice(0, ctx.detailPerSender), p.fetched, p.gone);
      if (id !== null) wanted.set(id, p);
    }
    if (wanted.size === 0) break;
    const got = await ctx.client.getMetadata([...wanted.keys()], METADATA_HEADERS, SCAN_KINDS.newestGet);
    for (const [id, p] of wanted) {
      const message = got.get(id);
      if (message) p.fetched.set(id, toMessageHeaders(message));
      else p.gone.add(id);
    }
  }
  for (const p of out) {
    for (const id of p.listing) known.add(id);
    for (const m of p.discovered) known.add(m.id);
  }
  return out;
}

/**
 * The batch of these senders: fetched messages with their real header fields, the others as counted-only
 * entries (see countedOnly) with read states from one listing of the senders together (readStates).
 */
async function handOut(
  ctx: ScanContext,
  cp: ScanCheckpoint,
  senders: Pending[],
  counted: Set<string>,
): Promise<MessageHeaders[]> {
  const seen = await readStates(ctx, senders, cp.queryLength);
  const out: MessageHeaders[] = [];
  for (const { address, discovered, listing, fetched, gone } of senders) {
    const ids = [...listing];
    for (const m of discovered) if (!ids.includes(m.id)) ids.push(m.id);
    const newest = [...fetched.values()]
      .filter((m) => parseFrom(m.fields.from)?.address === address)
      .sort((a, b) => (b.date ?? 0) - (a.date ?? 0))[0];
    const from = newest?.fields.from ?? `<${address}>`;
    const real: MessageHeaders[] = [];
    const rest: MessageHeaders[] = [];
    for (const id of ids) {
      // Deleted between the listing and the get, or already counted under another sender.
      if (gone.has(id) || counted.has(id)) continue;
      counted.add(id);
      const m = fetched.get(id);
      if (m) real.push(m);
      else rest.push(countedOnly(id, from, seen(id)));
    }
    real.sort((a, b) => (b.date ?? 0) - (a.date ?? 0));
    out.push(...real, ...rest);
    cp.senders[address] = real.length + rest.length;
    cp.scanned += real.length + rest.length;
  }
  return out;
}

/**
 * The next id of a sender (its listing, newest first) whose metadata exactness needs, or null. Fetched:
 * - the newest message: the sender's name and `lastMessageAt`;
 * - every message down to the newest one with unsubscribe links: the links are the newest (the tally
 *   takes the newest message that has some);
 * - until two fetched messages carry list evidence (or all of them, for a sender of one): the detection
 *   rule wants two when some of the sender's mail is not known to carry it (counted-only entries are not).
 * The caller passes the newest `detailPerSender` ids only: a sender whose mail there lacks links or
 * evidence is not fetched deeper. Read states and counts come from listings.
 */
export function wantedNext(
  listing: readonly string[],
  fetched: ReadonlyMap<string, MessageHeaders>,
  gone: ReadonlySet<string> = new Set(),
): string | null {
  const present = listing.filter((id) => !gone.has(id));
  const missing = present.find((id) => !fetched.has(id)) ?? null;
  if (missing === null) return null;
  if (!fetched.has(present[0]!)) return present[0]!;
  let linked = false;
  for (const id of present) {
    const m = fetched.get(id);
    if (!m) break;
    if (detectSubscription(m.fields).isNewsletter) {
      linked = true;
      break;
    }
  }
  let evidence = 0;
  for (const m of fetched.values()) if (detectSubscription(m.fields).isListMail) evidence += 1;
  return linked && evidence >= Math.min(2, present.length) ? null : missing;
}

/**
 * Whether each listed message of these senders is read, from a search of the senders together:
 * `is:read {from:a from:b …}` in groups within the query budget (halved when Gmail refuses one). Newsletters
 * are mostly unread, so the read ones are the shorter list; when the first page shows most of the group's
 * mail is read, the unread ones are listed instead. Either way every message gets its exact state.
 */
async function readStates(
  ctx: ScanContext,
  senders: readonly Pending[],
  budget: number,
): Promise<(id: string) => boolean> {
  const read = new Set<string>();
  const unread = new Set<string>();
  const run = async (group: number[]): Promise<void> => {
    const within = `{${group.map((i) => senderQuery(senders[i]!.address)).join(' ')}}`;
    const total = group.reduce((n, i) => n + senders[i]!.listing.length, 0);
    let first: Awaited<ReturnType<GmailClient['listMessages']>>;
    try {
      first = await ctx.client.listMessages({ q: `is:read ${within}`, kind: SCAN_KINDS.readList });
    } catch (err) {
      if (!(err instanceof GmailApiError) || err.status !== 400 || group.length === 1) throw err;
      const half = Math.ceil(group.length / 2);
      await run(group.slice(0, half));
      await run(group.slice(half));
      return;
    }
    const mostlyRead = first.nextPageToken !== null && first.resultSizeEstimate * 2 > total;
    if (!mostlyRead) {
      for (const id of first.ids) read.add(id);
      let pageToken = first.nextPageToken;
      while (pageToken) {
        const page = await ctx.client.listMessages({
          q: `is:read ${within}`,
          pageToken,
          kind: SCAN_KINDS.readList,
        });
        for (const id of page.ids) read.add(id);
        pageToken = page.nextPageToken;
      }
      for (const i of group) for (const id of senders[i]!.listing) if (!read.has(id)) unread.add(id);
      return;
    }
    const ids = await ctx.client.listAllIds(`is:unread ${within}`, { kind: SCAN_KINDS.readList });
    const isUnread = new Set(ids);
    for (const i of group) for (const id of senders[i]!.listing) (isUnread.has(id) ? unread : read).add(id);
  };
  for (const group of queryGroups(
    senders.map((p) => p.address),
    budget,
  )) {
    await run(group);
  }
  return (id) => read.has(id) && !unread.has(id);
}

/** Indexes of the senders in groups whose `is:unread {from:… …}` query fits the length budget. */
export function queryGroups(addresses: readonly string[], budget: number): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let length = 'is:unread {}'.length;
  for (const [i, address] of addresses.entries()) {
    const part = senderQuery(address).length + 1;
    if (group.length > 0 && length + part > budget) {
      groups.push(group);
      group = [];
      length = 'is:unread {}'.length;
    }
    group.push(i);
    length += part;
  }
  if (group.length > 0) groups.push(group);
  return groups;
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
