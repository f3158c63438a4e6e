import { normalizeEmail } from '#contract/validation.js';
import {
  INBOX_ORIGIN,
  type MovedMessage,
  type OutgoingMessage,
  type RestoreResult,
  type SendResult,
  type TrashedMessage,
  type TrashResult,
} from '../provider.js';
import { senderAddress } from '../shared/sender-address.js';
import { collect, type GraphContext, type GraphFolder, IMMUTABLE_IDS, mapLimit } from './api.js';
import { moveAll } from './batch.js';
import { type GraphClient, isGraphError } from './client.js';
import { listAll } from './folders.js';

// What the unsubscribe engine does in an Outlook mailbox: send a mailto request, move a sender's mail to
// Deleted Items, keep future mail out with an Inbox rule (and lift it), and fetch one message for preview.
// organise.ts (the sender rules and the Screener) builds on the same sender listing, restore and rules.

interface GraphMessageRule {
  id: string;
  sequence?: number;
  conditions?: { fromAddresses?: Array<{ emailAddress?: { address?: string | null } | null }> } | null;
  actions?: { moveToFolder?: string | null } | null;
}

interface SenderMessage {
  id: string;
  receivedDateTime?: string;
  from?: { emailAddress?: { address?: string | null } | null } | null;
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
  onMoved?: (moved: MovedMessage[]) => Promise<void>,
): Promise<TrashResult> {
  const address = senderAddress(from);
  const folders = (await listAll(ctx)).filter((f) => f.scanned);
  const items: TrashedMessage[] = [];
  for (const folder of folders) {
    const found = await senderMessages(ctx, folder.id, address);
    // Where each one was: undoing the block moves it back there.
    items.push(...found.map((m) => ({ id: m.id, origin: folder.id })));
  }
  // message: move to the well-known Deleted Items folder, in JSON batches. What the block records is the
  // trash's own shape: where each message is and where it was.
  return moveAll(ctx, items, 'deleteditems', onMoved);
}

/**
 * The sender's messages in a folder, with when each arrived: Graph's case-insensitive `eq` on the From
 * address, and `before` (epoch ms) as a receivedDateTime bound. The From address is checked again on the
 * answer, so only that exact address counts whatever the server matched.
 */
export async function senderMessages(
  ctx: GraphContext,
  folderId: string,
  address: string,
  before?: number,
): Promise<Array<{ id: string; receivedDateTime?: string }>> {
  let filter = `from/emailAddress/address eq '${address.replace(/'/g, "''")}'`;
  if (before !== undefined) filter += ` and receivedDateTime lt ${new Date(before).toISOString()}`;
  const url = `/me/mailFolders/${enc(folderId)}/messages?$filter=${enc(filter)}&$select=id,receivedDateTime,from&$top=1000`;
  const found = await collect<SenderMessage>(ctx.client, url, [IMMUTABLE_IDS]);
  return (
    found
      // Matched in the one form every adapter uses (normalizeEmail's: also NFC, as `address` is).
      .filter((m) => normalizeEmail(m.from?.emailAddress?.address ?? '') === address)
      .map(({ id, receivedDateTime }) => ({ id, receivedDateTime }))
  );
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
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  const address = senderAddress(from);
  const trashed = await senderMessages(ctx, 'deleteditems', address);
  const inTrash = new Set(trashed.map((m) => m.id));
  const result = await restoreFrom(
    ctx,
    messages.filter((m) => inTrash.has(m.id)),
    messages.length,
    onRestored,
  );
  // The block's Inbox rule moved the sender's mail arriving since it was made: back to the inbox too.
  if (ruleSince !== undefined) {
    const recorded = new Set(messages.map((m) => m.id));
    const byRule = trashed
      .filter((m) => !recorded.has(m.id) && Date.parse(m.receivedDateTime ?? '') >= ruleSince)
      .map((m) => ({ id: m.id, origin: 'inbox' }));
    if (byRule.length > 0) result.restored += (await moveAll(ctx, byRule, 'inbox', onRestored)).moved;
  }
  return result;
}

/**
 * Moves messages still where a block or a sender rule put them back to the folders they came from; to the
 * Inbox when that folder is gone (deleted by the user since). Of `recorded` messages, those not moved
 * (not `present`, or deleted meanwhile) are counted missing.
 */
export async function restoreFrom(
  ctx: GraphContext,
  present: TrashedMessage[],
  recorded: number,
  onRestored?: (moved: MovedMessage[]) => Promise<void>,
): Promise<RestoreResult> {
  const byOrigin = new Map<string, TrashedMessage[]>();
  for (const m of present) {
    const list = byOrigin.get(m.origin);
    if (list) list.push(m);
    else byOrigin.set(m.origin, [m]);
  }
  // INBOX_ORIGIN (mail an Inbox rule filed, never seen in the inbox) is the well-known inbox: Graph's
  // well-known names are lower case, and no folder id is spelled INBOX.
  const origins = await mapLimit([...byOrigin.keys()], ctx.concurrency, async (origin) =>
    origin && origin !== INBOX_ORIGIN && (await folderExists(ctx.client, origin)) ? origin : 'inbox',
  );
  let restored = 0;
  for (const [n, list] of [...byOrigin.values()].entries()) {
    restored += (await moveAll(ctx, list, origins[n]!, onRestored)).moved;
  }
  return { restored, missing: recorded - restored };
}

/** mailFolder: get; a folder deleted (or never there) answers 404. */
async function folderExists(client: GraphClient, id: string): Promise<boolean> {
  try {
    await client.get<GraphFolder>(`/me/mailFolders/${enc(id)}?$select=id`);
    return true;
  } catch (err) {
    if (isGraphError(err, 404)) return false;
    throw err;
  }
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
  // messageRuleActions.moveToFolder takes a folder id, so the Deleted Items alias is resolved first.
  const trash = await client.get<GraphFolder>('/me/mailFolders/deleteditems?$select=id');
  return inboxRule(client, address, trash.id, 'block');
}

/**
 * An enabled Inbox rule (messagerule-post-messagerules) moving mail from `address` to the folder and
 * stopping there; an existing rule of the same sender and folder (a retry, a rule made before) is reused.
 * `verb` names what it does in Outlook's rule list.
 */
export async function inboxRule(
  client: GraphClient,
  address: string,
  folderId: string,
  verb: 'block' | 'file',
): Promise<{ ref: string }> {
  const from = senderAddress(address);
  const rules = await collect<GraphMessageRule>(client, '/me/mailFolders/inbox/messageRules', [
    IMMUTABLE_IDS,
  ]);
  const existing = rules.find(
    (r) =>
      r.actions?.moveToFolder === folderId &&
      (r.conditions?.fromAddresses ?? []).some((a) => a.emailAddress?.address?.toLowerCase() === from),
  );
  if (existing) return { ref: existing.id };
  const sequence = rules.reduce((n, r) => Math.max(n, r.sequence ?? 0), 0) + 1;
  const rule = await client.post<GraphMessageRule>('/me/mailFolders/inbox/messageRules', {
    displayName: `Inbox Genie: ${verb} ${from}`,
    sequence,
    isEnabled: true,
    conditions: { fromAddresses: [{ emailAddress: { address: from } }] },
    actions: { moveToFolder: folderId, stopProcessingRules: true },
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
