import { detectSubscription, parseFrom } from '../headers/detect.js';
import type { MessageHeaders } from '../provider.js';
import { GmailApiError } from './api.js';
import type { GmailClient } from './client.js';
import { SCAN_KINDS, type ScanContext } from './scan-context.js';
import { countedOnly, METADATA_HEADERS, toMessageHeaders } from './scan-messages.js';
import { queryGroups, senderQuery } from './scan-query.js';
import type { ScanCheckpoint } from './state.js';

// Step 3 of the scan (README.md in this folder): each new sender discovery found is listed in full for its
// exact count, as few of its newest messages as exactness needs are fetched, and its messages are handed out
// with their read states.

/** `from:` listings at once. */
export const LIST_CONCURRENCY = 4;

/** A new sender, listed and fetched (listSenders), to be handed out (handOut). */
export interface Pending {
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
export async function listSenders(
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
export async function handOut(
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

/** `fn` of each item, at most `limit` at a time, the results in the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
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
