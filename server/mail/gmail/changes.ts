import { parseFrom } from '../headers/detect.js';
import type { HeaderBatch, MessageHeaders, ReadStateChange } from '../provider.js';
import { BATCH_LIMIT, GmailApiError, type HistoryRecord } from './api.js';
import type { GmailClient } from './client.js';
import { METADATA_HEADERS, toMessageHeaders } from './scan-messages.js';
import { type GmailSyncState, snapshot } from './state.js';

// The daily check: history.list from the stored historyId, metadata of each new message (messageAdded),
// and the read state of known ones from the UNREAD label coming and going (labelAdded, labelRemoved):
// history pages cost 2 units each however many records they hold, and no message is fetched for a flag.

const CHECK_HISTORY = ['messageAdded', 'labelAdded', 'labelRemoved'] as const;

/** Gmail no longer has history from the stored historyId (404: older than its retention, or a reset mailbox). */
export class GmailHistoryExpiredError extends Error {
  readonly kind = 'state-expired';
}

// Mail the scan does not count either: spam and trash are never listed, drafts are the user's own.
const NOT_COUNTED = ['SPAM', 'TRASH', 'DRAFT'];

export async function* runChanges(
  client: GmailClient,
  self: string,
  state: GmailSyncState,
): AsyncGenerator<HeaderBatch> {
  const skip = new Set(state.skipIds);
  const records: Array<{ id: string; ids: string[]; flags: ReadStateChange[] }> = [];
  let latest = state.historyId;
  let pageToken: string | null = null;
  try {
    do {
      const page: Awaited<ReturnType<GmailClient['listHistory']>> = await client.listHistory({
        startHistoryId: state.historyId,
        pageToken,
        types: CHECK_HISTORY,
      });
      for (const record of page.history) {
        records.push({ id: record.id, ids: addedIds(record, skip), flags: readStates(record) });
      }
      latest = page.historyId;
      pageToken = page.nextPageToken;
    } while (pageToken);
  } catch (err) {
    if (err instanceof GmailApiError && err.status === 404) {
      throw new GmailHistoryExpiredError(
        `Gmail has no history from ${state.historyId}; a full rescan is needed`,
      );
    }
    throw err;
  }

  const progress = { scanned: 0, total: records.reduce((n, r) => n + r.ids.length, 0) };
  if (records.length === 0) {
    // Nothing added; moving to the mailbox's current id keeps the stored one from ageing out of history.
    if (latest !== state.historyId) {
      yield { messages: [], state: snapshot({ ...state, historyId: latest, skipIds: [] }), progress };
    }
    return;
  }
  const seen = new Set<string>();
  let i = 0;
  while (i < records.length) {
    // Whole records per batch, so the checkpoint (the last record's id) never splits one.
    const ids: string[] = [];
    const flags: ReadStateChange[] = [];
    let last = records[i]!.id;
    while (i < records.length && (ids.length === 0 || ids.length + records[i]!.ids.length <= BATCH_LIMIT)) {
      flags.push(...records[i]!.flags);
      for (const id of records[i]!.ids) {
        if (!seen.has(id)) {
          seen.add(id);
          ids.push(id);
        }
      }
      last = records[i]!.id;
      i++;
    }
    const got = ids.length > 0 ? await client.getMetadata(ids, METADATA_HEADERS) : new Map();
    const messages: MessageHeaders[] = [];
    for (const id of ids) {
      const message = got.get(id);
      // Deleted since, or moved to spam/trash: the scan would not count it either.
      if (!message || message.labelIds?.some((l: string) => NOT_COUNTED.includes(l))) continue;
      const headers = toMessageHeaders(message);
      if (parseFrom(headers.fields.from)?.address === self) continue;
      messages.push(headers);
    }
    progress.scanned += ids.length;
    const finished = i === records.length;
    const next: GmailSyncState = { ...state, historyId: last, skipIds: finished ? [] : state.skipIds };
    yield { messages, flags, state: snapshot(next), progress: { ...progress } };
  }
}

/** UNREAD added: marked unread; removed: read. In record order, so the last change of a message wins. */
function readStates(record: HistoryRecord): ReadStateChange[] {
  const out: ReadStateChange[] = [];
  for (const change of record.labelsAdded ?? []) {
    if (change.labelIds?.includes('UNREAD')) out.push({ id: change.message.id, seen: false });
  }
  for (const change of record.labelsRemoved ?? []) {
    if (change.labelIds?.includes('UNREAD')) out.push({ id: change.message.id, seen: true });
  }
  return out;
}

function addedIds(record: HistoryRecord, skip: Set<string>): string[] {
  return (record.messagesAdded ?? [])
    .map((added) => added.message)
    .filter((m) => !skip.has(m.id) && !m.labelIds?.some((l) => NOT_COUNTED.includes(l)))
    .map((m) => m.id);
}
