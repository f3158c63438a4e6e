import { headerFieldsFromPairs } from '../headers/headers.js';
import type { MessageHeaders } from '../provider.js';
import { type GraphContext, type GraphMessage, IMMUTABLE_IDS, MESSAGE_SELECT, mapLimit } from './api.js';
import { isGraphError } from './client.js';
import type { ListedFolder } from './folders.js';

// Graph messages as the port's MessageHeaders: headers from `internetMessageHeaders` (returned only when
// named in $select), the message's own properties standing in where those are missing.

/** The named messages, a few at a time; one deleted meanwhile is left out. */
export async function fetchMessages(
  { client, concurrency }: GraphContext,
  ids: string[],
  folder: ListedFolder,
): Promise<MessageHeaders[]> {
  const got = await mapLimit(ids, concurrency, async (id) => {
    try {
      return await client.get<GraphMessage>(
        `/me/messages/${encodeURIComponent(id)}?$select=${MESSAGE_SELECT}`,
        [IMMUTABLE_IDS],
      );
    } catch (err) {
      // Deleted since the delta round named it.
      if (isGraphError(err, 404)) return null;
      throw err;
    }
  });
  return got.filter((m): m is GraphMessage => m !== null).map((m) => toHeaders(m, folder.path));
}

export function toHeaders(m: GraphMessage, folder: string): MessageHeaders {
  const fields = headerFieldsFromPairs(m.internetMessageHeaders ?? []);
  // Mail from inside the same organisation can come without internet headers: the message's own
  // properties stand in for the fields detection needs most.
  const sender = m.from?.emailAddress;
  if (fields.from === null && sender?.address) fields.from = formatAddress(sender.name ?? '', sender.address);
  if (fields.subject === null && typeof m.subject === 'string') fields.subject = m.subject;
  const fromHeader = fields.date ? Date.parse(fields.date) : Number.NaN;
  return {
    id: m.id,
    folder,
    date: Number.isFinite(fromHeader) ? fromHeader : receivedAt(m),
    fields,
    seen: typeof m.isRead === 'boolean' ? m.isRead : null,
  };
}

/** receivedDateTime as epoch milliseconds, null when missing or unreadable. */
export function receivedAt(m: GraphMessage): number | null {
  const t = m.receivedDateTime ? Date.parse(m.receivedDateTime) : Number.NaN;
  return Number.isFinite(t) ? t : null;
}

function formatAddress(name: string, address: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.toLowerCase() === address.toLowerCase()) return `<${address}>`;
  return `"${trimmed.replace(/["\\]/g, '\\$&')}" <${address}>`;
}
