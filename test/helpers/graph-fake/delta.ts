import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, parseSelect, project, send } from './http.js';
import { byReceived, MESSAGE_DEFAULT, MESSAGE_PROPS, messageJson, messagesOf } from './model.js';
import type { DeltaRound, DeltaState, FakeState, FakeUser, StoredFolder } from './state.js';

// learn.microsoft.com/graph/api/message-delta, graph/delta-query-messages: per-folder rounds, state tokens,
// `Prefer: odata.maxpagesize`, 410 Gone for an expired sync state.

export function gone(): HttpError {
  return new HttpError(
    410,
    'SyncStateNotFound',
    'The sync state generation is not found. Resync is required.',
  );
}

export function preferredPageSize(req: IncomingMessage): number {
  const prefer = String(req.headers.prefer ?? '');
  const match = /odata\.maxpagesize=(\d+)/i.exec(prefer);
  return match ? Math.min(Number(match[1]), 1000) : 10;
}

export function delta(
  s: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  user: FakeUser,
  folder: StoredFolder,
): number {
  const skipToken = url.searchParams.get('$skiptoken');
  const deltaToken = url.searchParams.get('$deltatoken');
  let round: DeltaRound;
  if (skipToken !== null) {
    const found = s.rounds.get(skipToken);
    if (!found || s.invalid.has(skipToken)) throw gone();
    if (found.userId !== user.id || found.folderId !== folder.id) throw gone();
    round = found;
  } else {
    let state: DeltaState;
    if (deltaToken !== null) {
      const found = s.deltaTokens.get(deltaToken);
      if (!found || s.invalid.has(deltaToken)) throw gone();
      if (found.userId !== user.id || found.folderId !== folder.id) throw gone();
      state = found;
    } else {
      const changeType = url.searchParams.get('changeType');
      if (changeType !== null && !['created', 'updated', 'deleted'].includes(changeType)) {
        throw new HttpError(400, 'ErrorInvalidParameter', `Invalid changeType: ${changeType}`);
      }
      state = {
        userId: user.id,
        folderId: folder.id,
        changeType: changeType as DeltaState['changeType'],
        select: parseSelect(url.searchParams.get('$select'), MESSAGE_PROPS, 'message'),
        // An initial round reports the folder as it is now; changeType filters only later rounds.
        since: -1,
      };
    }
    round = startRound(user, state, preferredPageSize(req));
  }
  const page = round.items.slice(round.offset, round.offset + round.pageSize);
  round.offset += page.length;
  const value = page.map((item) =>
    'removed' in item
      ? { id: item.removed, '@removed': { reason: 'deleted' } }
      : {
          '@odata.type': '#microsoft.graph.message',
          ...project(messageJson(item.message), round.select, MESSAGE_DEFAULT, true),
        },
  );
  const link = new URL(`/v1.0/me/mailFolders/${encodeURIComponent(folder.id)}/messages/delta`, s.origin);
  const body: Record<string, unknown> = {
    '@odata.context': `${s.origin}/v1.0/$metadata#Collection(message)`,
    value,
  };
  if (round.offset < round.items.length) {
    const token = randomBytes(18).toString('base64url');
    s.rounds.set(token, round);
    link.searchParams.set('$skiptoken', token);
    body['@odata.nextLink'] = link.toString();
  } else {
    const token = randomBytes(18).toString('base64url');
    s.deltaTokens.set(token, {
      userId: user.id,
      folderId: folder.id,
      changeType: round.changeType,
      select: round.select,
      since: round.watermark,
    });
    link.searchParams.set('$deltatoken', token);
    body['@odata.deltaLink'] = link.toString();
  }
  return send(res, 200, body);
}

export function startRound(user: FakeUser, state: DeltaState, pageSize: number): DeltaRound {
  const inFolder = messagesOf(user, state.folderId).sort(byReceived('desc'));
  const items: DeltaRound['items'] = [];
  if (state.since < 0) {
    for (const message of inFolder) items.push({ message });
  } else {
    const type = state.changeType;
    for (const message of inFolder) {
      const created = message.createdSeq > state.since;
      const updated = !created && message.updatedSeq > state.since;
      if (
        (created && type !== 'updated' && type !== 'deleted') ||
        (updated && (type === null || type === 'updated'))
      ) {
        items.push({ message });
      }
    }
    if (type === null || type === 'deleted') {
      for (const t of user.tombstones) {
        if (t.folderId === state.folderId && t.seq > state.since && !inFolder.some((m) => m.id === t.id)) {
          items.push({ removed: t.id });
        }
      }
    }
  }
  return {
    userId: user.id,
    folderId: state.folderId,
    changeType: state.changeType,
    select: state.select,
    items,
    watermark: user.seq,
    offset: 0,
    pageSize,
  };
}
