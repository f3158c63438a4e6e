import { MailAuthError, MailConnectionError, type MovedMessage, type TrashedMessage } from '../provider.js';
import { parseRetryAfter, type RetryPolicy, retryRefused } from '../shared/retry.js';
import { type GraphContext, IMMUTABLE_IDS, mapLimit } from './api.js';
import { GraphError, REAUTH_MESSAGE } from './client.js';

// Requests about many messages at once through JSON batching (graph/json-batching): the moves of a block,
// a sender rule and their undo, and the look-ups of where moved messages are now.

/** Requests per JSON batch (graph/json-batching). */
const JSON_BATCH_LIMIT = 20;
/**
 * Five tries of refused requests, doubling from 1 s when they name no Retry-After; a Retry-After over a
 * minute is not slept through (shared/retry.ts).
 */
const BATCH_RETRY: RetryPolicy = {
  attempts: 5,
  baseMs: 1000,
  maxMs: 60_000,
  jitter: false,
  maxRetryAfterMs: 60_000,
};

interface BatchAnswer {
  responses?: Array<{ id: string; status: number; headers?: Record<string, string>; body?: unknown }>;
}

/** One request of a batch: a path under the Graph root, as for GraphClient. */
export interface BatchRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

const enc = encodeURIComponent;

/**
 * One request per item, in JSON batches of 20, a few batches at a time. Requests refused inside a batch
 * (429, 5xx, or no answer) are sent again after the longest Retry-After among them (shared/retry.ts); an item gone (404) is
 * left out of what `onDone` hears; 401 and 403 mean the grant no longer covers the mailbox. `onDone` hears
 * of each batch's answered items with the body Graph answered. Answers the number of batches sent.
 */
export async function inBatches<T>(
  { client, concurrency }: GraphContext,
  items: readonly T[],
  request: (item: T) => BatchRequest,
  what: string,
  onDone: (done: Array<{ item: T; body: unknown }>) => Promise<void>,
): Promise<number> {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += JSON_BATCH_LIMIT) chunks.push(items.slice(i, i + JSON_BATCH_LIMIT));
  let calls = 0;
  await mapLimit(chunks, concurrency, (chunk) =>
    retryRefused(
      chunk,
      async (pending) => {
        calls += 1;
        const answer = await client.post<BatchAnswer>('/$batch', {
          requests: pending.map((item, n) => batchEntry(String(n), request(item))),
        });
        const byId = new Map((answer.responses ?? []).map((r) => [r.id, r]));
        const again: T[] = [];
        const done: Array<{ item: T; body: unknown }> = [];
        let retryAfterMs: number | null = null;
        for (const [n, item] of pending.entries()) {
          const r = byId.get(String(n));
          const status = r?.status ?? 0;
          if (status >= 200 && status < 300) done.push({ item, body: r?.body });
          else if (status === 404) continue;
          else if (status === 401 || status === 403) {
            throw new MailAuthError(REAUTH_MESSAGE, {
              cause: new Error(`${what} answered ${status} in a batch`),
            });
          } else if (status === 0 || status === 429 || status >= 500) {
            again.push(item);
            const asked = parseRetryAfter(r?.headers?.['Retry-After'] ?? r?.headers?.['retry-after'] ?? null);
            if (asked !== null) retryAfterMs = Math.max(retryAfterMs ?? 0, asked);
          } else {
            const code = (r?.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
            throw new GraphError(status, code, `Microsoft Graph answered ${status} ${code} to a ${what}`);
          }
        }
        if (done.length > 0) await onDone(done);
        return { again, retryAfterMs };
      },
      {
        policy: BATCH_RETRY,
        what: `Microsoft Graph ${what}`,
        exhausted: (left) =>
          new MailConnectionError(
            `Microsoft Graph kept refusing ${left} requests (${what}); try again later.`,
          ),
      },
    ),
  );
  return calls;
}

/** One request of a JSON batch, with immutable ids asked for. */
function batchEntry(id: string, { method, url, body }: BatchRequest) {
  return body === undefined
    ? { id, method, url, headers: { Prefer: IMMUTABLE_IDS } }
    : { id, method, url, headers: { 'Content-Type': 'application/json', Prefer: IMMUTABLE_IDS }, body };
}

/**
 * message: move of many messages to one folder (an id or a well-known name). A message gone meanwhile
 * (404) is not counted. `onMoved` hears of each batch's moves: the message's id after the move (immutable
 * ids keep it), where it came from, and its id before.
 */
export async function moveAll(
  ctx: GraphContext,
  items: readonly TrashedMessage[],
  destinationId: string,
  onMoved?: (moved: MovedMessage[]) => Promise<void>,
): Promise<{ moved: number; calls: number }> {
  let moved = 0;
  const calls = await inBatches(
    ctx,
    items,
    (item) => ({ method: 'POST', url: `/me/messages/${enc(item.id)}/move`, body: { destinationId } }),
    'move',
    async (done) => {
      moved += done.length;
      await onMoved?.(
        done.map(({ item, body }) => {
          const id = (body as { id?: unknown } | undefined)?.id;
          return { id: typeof id === 'string' && id ? id : item.id, origin: item.origin, previous: item.id };
        }),
      );
    },
  );
  return { moved, calls };
}

/** Where each of the messages is now (message: get, parentFolderId); one gone for good is left out. */
export async function whereNow(ctx: GraphContext, ids: readonly string[]): Promise<Map<string, string>> {
  const at = new Map<string, string>();
  await inBatches(
    ctx,
    ids,
    (id) => ({ method: 'GET', url: `/me/messages/${enc(id)}?$select=id,parentFolderId` }),
    'message look-up',
    async (done) => {
      for (const { item, body } of done) {
        const folder = (body as { parentFolderId?: unknown } | undefined)?.parentFolderId;
        if (typeof folder === 'string' && folder) at.set(item, folder);
      }
    },
  );
  return at;
}
