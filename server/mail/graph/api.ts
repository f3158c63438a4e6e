import type { HeaderPair } from '../headers/headers.js';
import type { GraphClient } from './client.js';

// What the Graph modules share: the shapes of Graph's answers they read, the headers and $select every
// message request uses, and the walk over a listing's pages.

/**
 * Every message request asks for immutable ids, so a message keeps its id for as long as it stays in the
 * mailbox, moves between folders included (graph/outlook-immutable-id).
 */
export const IMMUTABLE_IDS = 'IdType="ImmutableId"';
export const MESSAGE_SELECT = 'id,receivedDateTime,subject,from,internetMessageHeaders,isRead';

export interface GraphPage<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

export interface GraphFolder {
  id: string;
  displayName?: string;
  parentFolderId?: string;
  childFolderCount?: number;
  totalItemCount?: number;
  '@odata.type'?: string;
}

export interface GraphMessage {
  id: string;
  receivedDateTime?: string;
  subject?: string | null;
  from?: { emailAddress?: { name?: string | null; address?: string | null } | null } | null;
  internetMessageHeaders?: HeaderPair[] | null;
  isRead?: boolean;
  '@removed'?: unknown;
}

/** The client and how many requests of one kind may run at once. */
export interface GraphContext {
  client: GraphClient;
  concurrency: number;
}

/** Every item of a listing, its pages followed through @odata.nextLink. */
export async function collect<T>(client: GraphClient, url: string, prefer: string[] = []): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = url;
  while (next) {
    const page: GraphPage<T> = await client.get<GraphPage<T>>(next, prefer);
    items.push(...page.value);
    next = page['@odata.nextLink'];
  }
  return items;
}

/** `fn` over every item, at most `limit` at a time; results in the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}
