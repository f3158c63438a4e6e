import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { batch } from './batch.js';
import { graphId, HttpError, project, readJson, send } from './http.js';
import { authenticate } from './identity.js';
import { folderJson, folderOf, MESSAGE_DEFAULT, messageJson, moveStored } from './model.js';
import type { FakeState } from './state.js';
import type { FakeMessageRule, FakeSentMail } from './types.js';

// POST and DELETE on Graph: sendMail, message move, mail folders (create), Inbox message rules (create,
// delete), and the entry to $batch.

export const addressesOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value
        .map((r) => (r as { emailAddress?: { address?: unknown } })?.emailAddress?.address)
        .filter((a): a is string => typeof a === 'string' && a.includes('@'))
    : [];

// learn.microsoft.com/graph/api/messagerule-delete: DELETE /me/mailFolders/inbox/messageRules/{id} → 204;
// an unknown id → 404 ErrorItemNotFound.
export function graphDelete(s: FakeState, req: IncomingMessage, res: ServerResponse, url: URL): number {
  const user = authenticate(s, req);
  const [me, collectionName, id, sub, ruleId, ...more] = url.pathname
    .slice('/v1.0/'.length)
    .split('/')
    .map((s) => decodeURIComponent(s));
  if (
    me !== 'me' ||
    collectionName !== 'mailFolders' ||
    id === undefined ||
    sub !== 'messageRules' ||
    !ruleId ||
    more.length > 0
  ) {
    throw new HttpError(405, 'BadRequest', `The fake does not answer DELETE ${url.pathname}.`);
  }
  const index =
    folderOf(user, id).wellKnownName === 'inbox' ? user.rules.findIndex((r) => r.id === ruleId) : -1;
  if (index === -1) {
    throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
  }
  user.rules.splice(index, 1);
  res.writeHead(204);
  res.end();
  return 204;
}

export async function graphPost(
  s: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<number> {
  const user = authenticate(s, req);
  const segments = url.pathname
    .slice('/v1.0/'.length)
    .split('/')
    .map((s) => decodeURIComponent(s));
  const [me, collectionName, id, sub] = segments;
  if (me === '$batch' && segments.length === 1) return batch(s, req, res, await readJson(req));
  if (me !== 'me') throw new HttpError(404, 'BadRequest', 'Only /me is implemented.');
  if (user.noMailbox) {
    throw new HttpError(
      404,
      'MailboxNotEnabledForRESTAPI',
      'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
    );
  }
  const body = await readJson(req);

  if (collectionName === 'sendMail' && id === undefined) {
    const message = body.message as Record<string, unknown> | undefined;
    if (!message || typeof message !== 'object') {
      throw new HttpError(400, 'ErrorInvalidParameter', 'The message parameter is required.');
    }
    const to = addressesOf(message.toRecipients);
    const all = [...to, ...addressesOf(message.ccRecipients), ...addressesOf(message.bccRecipients)];
    if (all.length === 0) {
      throw new HttpError(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
    }
    const rawBody = (message.body ?? {}) as { contentType?: unknown; content?: unknown };
    const saveToSentItems = body.saveToSentItems !== false && body.saveToSentItems !== 'false';
    const subject = typeof message.subject === 'string' ? message.subject : '';
    const mail: FakeSentMail = {
      userId: user.id,
      from: user.email,
      to,
      subject,
      body: {
        contentType: typeof rawBody.contentType === 'string' ? rawBody.contentType : 'Text',
        content: typeof rawBody.content === 'string' ? rawBody.content : '',
      },
      saveToSentItems,
      at: Date.now(),
    };
    s.sentMail.push(mail);
    if (saveToSentItems) {
      const sentId = graphId('AAMkAD');
      const seq = ++user.seq;
      user.messages.set(sentId, {
        id: sentId,
        folderId: folderOf(user, 'sentitems').id,
        subject,
        from: { name: user.displayName, address: user.email },
        receivedDateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        headers: [
          { name: 'From', value: `${user.displayName} <${user.email}>` },
          { name: 'To', value: to.join(', ') },
          { name: 'Subject', value: subject },
        ],
        isRead: true,
        raw: null,
        createdSeq: seq,
        updatedSeq: seq,
      });
    }
    res.writeHead(202, { 'Content-Length': '0', 'request-id': randomBytes(8).toString('hex') });
    res.end();
    return 202;
  }

  if (collectionName === 'messages' && id !== undefined && sub === 'move' && segments.length === 4) {
    const m = user.messages.get(id);
    if (!m) {
      throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    }
    if (typeof body.destinationId !== 'string' || body.destinationId === '') {
      throw new HttpError(400, 'ErrorInvalidParameter', 'The destinationId parameter is required.');
    }
    moveStored(user, m, folderOf(user, body.destinationId));
    return send(res, 201, project(messageJson(m), null, MESSAGE_DEFAULT, true));
  }

  // user-post-mailfolders, mailfolder-post-childfolders: displayName and isHidden are the writable
  // properties; 201 Created with the mailFolder. Exchange keeps sibling names unique without regard to case:
  // a second folder of the name answers 409 ErrorFolderExists.
  if (
    collectionName === 'mailFolders' &&
    (segments.length === 2 || (segments.length === 4 && sub === 'childFolders'))
  ) {
    const parent = id === undefined ? folderOf(user, user.rootId) : folderOf(user, id);
    const displayName = body.displayName;
    if (typeof displayName !== 'string' || displayName.trim() === '') {
      throw new HttpError(400, 'ErrorInvalidParameter', 'displayName is required.');
    }
    if (body.isHidden !== undefined && typeof body.isHidden !== 'boolean') {
      throw new HttpError(400, 'ErrorInvalidParameter', 'isHidden must be a boolean.');
    }
    const lower = displayName.toLowerCase();
    if (
      [...user.folders.values()].some(
        (f) => f.parentId === parent.id && f.displayName.toLowerCase() === lower,
      )
    ) {
      throw new HttpError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
    }
    const folderId = graphId('AQMkAD');
    const folder = {
      id: folderId,
      displayName,
      parentId: parent.id,
      wellKnownName: null,
      hidden: body.isHidden === true,
    };
    user.folders.set(folderId, folder);
    return send(res, 201, {
      '@odata.context': `${s.origin}/v1.0/$metadata#users('${user.id}')/mailFolders/$entity`,
      ...folderJson(user, folder),
    });
  }

  if (
    collectionName === 'mailFolders' &&
    id !== undefined &&
    sub === 'messageRules' &&
    segments.length === 4
  ) {
    if (folderOf(user, id).wellKnownName !== 'inbox') {
      throw new HttpError(400, 'ErrorInvalidParameter', 'Rules can only be created on the Inbox.');
    }
    const actions = (body.actions ?? null) as FakeMessageRule['actions'] | null;
    if (typeof body.displayName !== 'string' || !body.displayName) {
      throw new HttpError(400, 'ErrorInvalidParameter', 'displayName is required.');
    }
    if (!Number.isInteger(body.sequence) || (body.sequence as number) < 1) {
      throw new HttpError(400, 'ErrorInvalidParameter', 'sequence must be a positive integer.');
    }
    if (!actions || typeof actions !== 'object' || Object.keys(actions).length === 0) {
      throw new HttpError(400, 'ErrorInvalidParameter', 'actions is required.');
    }
    if (actions.moveToFolder !== undefined) {
      if (typeof actions.moveToFolder !== 'string' || !user.folders.has(actions.moveToFolder)) {
        throw new HttpError(400, 'ErrorInvalidParameter', 'moveToFolder must be the id of a folder.');
      }
    }
    const conditions = (body.conditions ?? {}) as FakeMessageRule['conditions'];
    const rule: FakeMessageRule = {
      id: randomBytes(12).toString('base64url'),
      displayName: body.displayName,
      sequence: body.sequence as number,
      isEnabled: body.isEnabled !== false,
      conditions: {
        ...(conditions.fromAddresses
          ? {
              fromAddresses: addressesOf(conditions.fromAddresses).map((address) => ({
                emailAddress: { address },
              })),
            }
          : {}),
      },
      actions: { ...actions },
    };
    user.rules.push(rule);
    return send(res, 201, { '@odata.context': `${s.origin}/v1.0/$metadata#messageRules/$entity`, ...rule });
  }
  throw new HttpError(405, 'BadRequest', `The fake does not answer POST ${url.pathname}.`);
}
