import { MailAuthError, MailConnectionError, type MovedMessage, type TrashedMessage } from '../provider.js';
import { backoffMs, parseRetryAfter, sleep } from '../retry.js';
import { type GraphContext, IMMUTABLE_IDS, mapLimit } from './api.js';
import { GraphError, REAUTH_MESSAGE } from './client.js';

// Requests about many messages at once through JSON batching (graph/json-batching): the moves of a block,
// a sender rule and their undo, and the look-ups of where moved messages are now.

/** Requests per JSON batch (graph/json-batching). */
const JSON_BATCH_LIMIT = 20;
const BATCH_ATTEMPTS = 5;
/** Doubling from 1 s between tries of refused requests that name no Retry-After; no wait over a minute. */
const BATCH_BACKOFF = { baseMs: 1000, maxMs: 60_000, jitter: false };

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
 * (429, 5xx, or no answer) are sent again after the longest Retry-After among them; an item gone (404) is
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
  await mapLimit(chunks, concurrency, async (chunk) => {
    let pending = chunk;
    for (let attempt = 1; pending.length > 0; attempt++) {
      calls += 1;
      const answer = await client.post<BatchAnswer>('/$batch', {
        requests: pending.map((item, n) => {
          const { method, url, body } = request(item);
          return body === undefined
            ? { id: String(n), method, url, headers: { Prefer: IMMUTABLE_IDS } }
            : {
                id: String(n),
                method,
                url,
                headers: { 'Content-Type': 'application/json', Prefer: IMMUTABLE_IDS },
                body,
              };
        }),
      });
      const byId = new Map((answer.responses ?? []).map((r) => [r.id, r]));
      const again: T[] = [];
      const done: Array<{ item: T; body: unknown }> = [];
      let waitMs = 0;
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
          waitMs = Math.max(waitMs, asked ?? backoffMs(attempt, BATCH_BACKOFF));
        } else {
          const code = (r?.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
          throw new GraphError(status, code, `Microsoft Graph answered ${status} ${code} to a ${what}`);
        }
      }
      if (done.length > 0) await onDone(done);
      if (again.length > 0 && attempt >= BATCH_ATTEMPTS) {
        throw new MailConnectionError(
          `Microsoft Graph kept refusing ${again.length} requests (${what}); try again later.`,
        );
      }
      if (again.length > 0) await sleep(Math.min(waitMs, BATCH_BACKOFF.maxMs));
      pending = again;
    }
  });
  return calls;
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
