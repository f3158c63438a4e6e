import {
  MailAuthError,
  MailConnectionError,
  type OutgoingMessage,
  type RestoreResult,
  type SendResult,
  type TrashedMessage,
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
export async function trashSender(
  ctx: GraphContext,
  from: string,
  onMoved?: (moved: TrashedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const address = from.trim().toLowerCase();
  if (!address) throw new Error('moveToTrash needs a sender address');
  const folders = (await listAll(ctx)).filter((f) => f.scanned);
  const items: TrashedMessage[] = [];
  for (const folder of folders) {
    const ids = await senderIds(ctx, folder.id, address);
    // Where each one was: undoing the block moves it back there.
    items.push(...ids.map((id) => ({ id, origin: folder.id })));
  }
  // message: move to the well-known Deleted Items folder, in JSON batches.
  return moveAll(ctx, items, 'deleteditems', onMoved);
}

/** Ids of the messages from `address` in one folder. */
async function senderIds(ctx: GraphContext, folderId: string, address: string): Promise<string[]> {
  return (await senderMessages(ctx, folderId, address)).map((m) => m.id);
}

/** The sender's messages in a folder, with when each arrived. */
async function senderMessages(
  ctx: GraphContext,
  folderId: string,
  address: string,
): Promise<Array<{ id: string; receivedDateTime?: string }>> {
  const filter = `from/emailAddress/address eq '${address.replace(/'/g, "''")}'`;
  const url = `/me/mailFolders/${enc(folderId)}/messages?$filter=${enc(filter)}&$select=id,receivedDateTime&$top=1000`;
  return collect<{ id: string; receivedDateTime?: string }>(ctx.client, url, [IMMUTABLE_IDS]);
}

/**
 * Moves messages a block trashed back to the folders they came from. Only those still in Deleted Items
 * move: one deleted for good, or taken out of the trash by the user meanwhile, is counted missing.
 */
export async function restoreSender(
  ctx: GraphContext,
  from: string,
  messages: TrashedMessage[],
  ruleSince?: number,
): Promise<RestoreResult> {
  const address = from.trim().toLowerCase();
  const trashed = await senderMessages(ctx, 'deleteditems', address);
  const inTrash = new Set(trashed.map((m) => m.id));
  const byOrigin = new Map<string, TrashedMessage[]>();
  for (const m of messages) {
    if (!inTrash.has(m.id) || !m.origin) continue;
    byOrigin.set(m.origin, [...(byOrigin.get(m.origin) ?? []), m]);
  }
  let restored = 0;
  for (const [origin, list] of byOrigin) {
    restored += (await moveAll(ctx, list, origin)).moved;
  }
  const missing = messages.length - restored;
  // The block's Inbox rule moved the sender's mail arriving since it was made: back to the inbox too.
  if (ruleSince !== undefined) {
    const recorded = new Set(messages.map((m) => m.id));
    const byRule = trashed
      .filter((m) => !recorded.has(m.id) && Date.parse(m.receivedDateTime ?? '') >= ruleSince)
      .map((m) => ({ id: m.id, origin: 'inbox' }));
    if (byRule.length > 0) restored += (await moveAll(ctx, byRule, 'inbox')).moved;
  }
  return { restored, missing };
}

/**
 * message: move of many messages in JSON batches of 20 (graph/json-batching), a few batches at a time.
 * Requests refused inside a batch (429, 5xx) are sent again after the longest Retry-After among them; a
 * message gone meanwhile (404) is not counted. `onMoved` hears of each batch's moves: the message's id
 * after the move (immutable ids keep it) and where it came from.
 */
async function moveAll(
  { client, concurrency }: GraphContext,
  items: TrashedMessage[],
  destinationId: string,
  onMoved?: (moved: TrashedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const chunks: TrashedMessage[][] = [];
  for (let i = 0; i < items.length; i += JSON_BATCH_LIMIT) chunks.push(items.slice(i, i + JSON_BATCH_LIMIT));
  let moved = 0;
  let calls = 0;
  await mapLimit(chunks, concurrency, async (chunk) => {
    let pending = chunk;
    for (let attempt = 1; pending.length > 0; attempt++) {
      calls += 1;
      const answer = await client.post<BatchAnswer>('/$batch', {
        requests: pending.map((item, n) => ({
          id: String(n),
          method: 'POST',
          url: `/me/messages/${enc(item.id)}/move`,
          headers: { 'Content-Type': 'application/json', Prefer: IMMUTABLE_IDS },
          body: { destinationId },
        })),
      });
      const byId = new Map((answer.responses ?? []).map((r) => [r.id, r]));
      const again: TrashedMessage[] = [];
      const done: TrashedMessage[] = [];
      let waitMs = 0;
      for (const [n, item] of pending.entries()) {
        const r = byId.get(String(n));
        const status = r?.status ?? 0;
        if (status >= 200 && status < 300) {
          moved += 1;
          const id = (r?.body as { id?: unknown } | undefined)?.id;
          done.push({ id: typeof id === 'string' && id ? id : item.id, origin: item.origin });
        } else if (status === 404) continue;
        else if (status === 401 || status === 403) {
          throw new MailAuthError(REAUTH_MESSAGE, {
            cause: new Error(`move answered ${status} in a batch`),
          });
        } else if (status === 0 || status === 429 || status >= 500) {
          again.push(item);
          const asked = parseRetryAfter(r?.headers?.['Retry-After'] ?? r?.headers?.['retry-after'] ?? null);
          waitMs = Math.max(waitMs, asked ?? backoffMs(attempt, MOVE_BACKOFF));
        } else {
          const code = (r?.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
          throw new GraphError(status, code, `Microsoft Graph answered ${status} ${code} to a move`);
        }
      }
      if (done.length > 0) await onMoved?.(done);
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
