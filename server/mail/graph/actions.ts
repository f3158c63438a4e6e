import {
  MailAuthError,
  MailConnectionError,
  type OutgoingMessage,
  type SendResult,
  type TrashResult,
} from '../provider.js';
import { backoffMs, parseRetryAfter, sleep } from '../retry.js';
import { collect, type GraphContext, type GraphFolder, IMMUTABLE_IDS, mapLimit } from './api.js';
import { type GraphClient, GraphError, isGraphError, REAUTH_MESSAGE } from './client.js';
import { listAll } from './folders.js';

// What the unsubscribe engine does in an Outlook mailbox: send a mailto request, move a sender's mail to
// Deleted Items, keep future mail out with an Inbox rule (and lift it), and fetch one message for preview.

/** Requests per JSON batch (graph/json-batching). */
const JSON_BATCH_LIMIT = 20;
const MOVE_ATTEMPTS = 5;
/** Doubling from 1 s between tries of refused moves that name no Retry-After; no wait over a minute. */
const MOVE_BACKOFF = { baseMs: 1000, maxMs: 60_000, jitter: false };

interface BatchAnswer {
  responses?: Array<{ id: string; status: number; headers?: Record<string, string>; body?: unknown }>;
}

interface GraphMessageRule {
  id: string;
  sequence?: number;
  conditions?: { fromAddresses?: Array<{ emailAddress?: { address?: string | null } | null }> } | null;
  actions?: { moveToFolder?: string | null } | null;
}

const enc = encodeURIComponent;

/** message: send (sendMail): 202 Accepted with no body once Exchange has taken the message. */
export async function sendMail(client: GraphClient, message: OutgoingMessage): Promise<SendResult> {
  await client.post(
    '/me/sendMail',
    {
      message: {
        subject: message.subject,
        body: { contentType: 'Text', content: message.text },
        toRecipients: [{ emailAddress: { address: message.to } }],
      },
      saveToSentItems: true,
    },
    { unsafe: true },
  );
  return { accepted: true, response: 'Microsoft Graph sendMail: 202 Accepted' };
}

/** Every message from `from` in the scanned folders, moved to the well-known Deleted Items folder. */
export async function trashSender(ctx: GraphContext, from: string): Promise<TrashResult> {
  const address = from.trim().toLowerCase();
  if (!address) throw new Error('moveToTrash needs a sender address');
  const filter = `from/emailAddress/address eq '${address.replace(/'/g, "''")}'`;
  const folders = (await listAll(ctx)).filter((f) => f.scanned);
  const ids: string[] = [];
  for (const folder of folders) {
    const url = `/me/mailFolders/${enc(folder.id)}/messages?$filter=${enc(filter)}&$select=id&$top=1000`;
    ids.push(...(await collect<{ id: string }>(ctx.client, url, [IMMUTABLE_IDS])).map((m) => m.id));
  }
  // message: move to the well-known Deleted Items folder, in JSON batches.
  return moveAll(ctx, ids, 'deleteditems');
}

/**
 * message: move of many messages in JSON batches of 20 (graph/json-batching), a few batches at a time.
 * Requests refused inside a batch (429, 5xx) are sent again after the longest Retry-After among them; a
 * message gone meanwhile (404) is not counted.
 */
async function moveAll(
  { client, concurrency }: GraphContext,
  ids: string[],
  destinationId: string,
): Promise<TrashResult> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += JSON_BATCH_LIMIT) chunks.push(ids.slice(i, i + JSON_BATCH_LIMIT));
  let moved = 0;
  let calls = 0;
  await mapLimit(chunks, concurrency, async (chunk) => {
    let pending = chunk;
    for (let attempt = 1; pending.length > 0; attempt++) {
      calls += 1;
      const answer = await client.post<BatchAnswer>('/$batch', {
        requests: pending.map((id, n) => ({
          id: String(n),
          method: 'POST',
          url: `/me/messages/${enc(id)}/move`,
          headers: { 'Content-Type': 'application/json', Prefer: IMMUTABLE_IDS },
          body: { destinationId },
        })),
      });
      const byId = new Map((answer.responses ?? []).map((r) => [r.id, r]));
      const again: string[] = [];
      let waitMs = 0;
      for (const [n, id] of pending.entries()) {
        const r = byId.get(String(n));
        const status = r?.status ?? 0;
        if (status >= 200 && status < 300) moved += 1;
        else if (status === 404) continue;
        else if (status === 401 || status === 403) {
          throw new MailAuthError(REAUTH_MESSAGE, {
            cause: new Error(`move answered ${status} in a batch`),
          });
        } else if (status === 0 || status === 429 || status >= 500) {
          again.push(id);
          const asked = parseRetryAfter(r?.headers?.['Retry-After'] ?? r?.headers?.['retry-after'] ?? null);
          waitMs = Math.max(waitMs, asked ?? backoffMs(attempt, MOVE_BACKOFF));
        } else {
          const code = (r?.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
          throw new GraphError(status, code, `Microsoft Graph answered ${status} ${code} to a move`);
        }
      }
      if (again.length > 0 && attempt >= MOVE_ATTEMPTS) {
        throw new MailConnectionError(
          `Microsoft Graph kept refusing ${again.length} moves; try again later.`,
        );
      }
      if (again.length > 0) await sleep(Math.min(waitMs, MOVE_BACKOFF.maxMs));
      pending = again;
    }
  });
  return { moved, calls };
}

/** The raw RFC 822 source of a message, or null when it is gone. */
export async function fetchRaw(client: GraphClient, id: string): Promise<Buffer | null> {
  try {
    return await client.getRaw(`/me/messages/${enc(id)}/$value`, [IMMUTABLE_IDS]);
  } catch (err) {
    // Deleted (or moved out of reach): nothing left to show.
    if (isGraphError(err, 404)) return null;
    throw err;
  }
}

/** An Inbox rule moving the sender's future mail to Deleted Items; an existing one is reused. */
export async function createBlockRule(client: GraphClient, address: string): Promise<{ ref: string }> {
  const from = address.trim().toLowerCase();
  // messageRuleActions.moveToFolder takes a folder id, so the Deleted Items alias is resolved first.
  const trash = await client.get<GraphFolder>('/me/mailFolders/deleteditems?$select=id');
  const rules = await collect<GraphMessageRule>(client, '/me/mailFolders/inbox/messageRules', [
    IMMUTABLE_IDS,
  ]);
  const existing = rules.find(
    (r) =>
      r.actions?.moveToFolder === trash.id &&
      (r.conditions?.fromAddresses ?? []).some((a) => a.emailAddress?.address?.toLowerCase() === from),
  );
  if (existing) return { ref: existing.id };
  const sequence = rules.reduce((n, r) => Math.max(n, r.sequence ?? 0), 0) + 1;
  const rule = await client.post<GraphMessageRule>('/me/mailFolders/inbox/messageRules', {
    displayName: `Inbox Genie: block ${from}`,
    sequence,
    isEnabled: true,
    conditions: { fromAddresses: [{ emailAddress: { address: from } }] },
    actions: { moveToFolder: trash.id, stopProcessingRules: true },
  });
  return { ref: rule.id };
}

export async function removeBlockRule(client: GraphClient, ref: string): Promise<void> {
  try {
    await client.delete(`/me/mailFolders/inbox/messageRules/${enc(ref)}`);
  } catch (err) {
    // Deleted by the user in Outlook's settings already.
    if (!isGraphError(err, 404)) throw err;
  }
}
