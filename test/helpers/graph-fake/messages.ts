import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { delta } from './delta.js';
import { collection, HttpError, parseSelect, project, send } from './http.js';
import { authenticate } from './identity.js';
import {
  byReceived,
  FOLDER_PROPS,
  folderJson,
  folderOf,
  MESSAGE_DEFAULT,
  MESSAGE_PROPS,
  messageJson,
  messagesOf,
  mimeOf,
} from './model.js';
import type { FakeState, FakeUser, StoredFolder, StoredMessage } from './state.js';

// GET on Graph: /me, mail folders and their children, a folder's messages ($select, $orderby, $filter on
// the sender and the time received), message rules, one message, and its MIME content ($value).

export function graph(s: FakeState, req: IncomingMessage, res: ServerResponse, url: URL): number {
  if (req.method !== 'GET') throw new HttpError(405, 'BadRequest', 'The fake answers GET only.');
  const user = authenticate(s, req);
  for (const key of url.searchParams.keys()) {
    if (key === '$filter' && /\/mailFolders\/[^/]+\/messages$/.test(url.pathname)) continue;
    if (key === '$filter' || key === '$search' || key === '$expand') {
      throw new HttpError(400, 'BadRequest', `The fake does not implement ${key}.`);
    }
  }
  const segments = url.pathname
    .slice('/v1.0/'.length)
    .split('/')
    .map((s) => decodeURIComponent(s));
  const [me, collectionName, id, sub, fn] = segments;
  if (me !== 'me') throw new HttpError(404, 'BadRequest', 'Only /me is implemented.');

  if (collectionName === undefined) {
    const select = parseSelect(
      url.searchParams.get('$select'),
      ['id', 'displayName', 'mail', 'userPrincipalName'],
      'user',
    );
    return send(
      res,
      200,
      project(
        { id: user.id, displayName: user.displayName, mail: user.email, userPrincipalName: user.email },
        select,
        ['id', 'displayName', 'mail', 'userPrincipalName'],
        false,
      ),
    );
  }

  if (user.noMailbox && (collectionName === 'mailFolders' || collectionName === 'messages')) {
    throw new HttpError(
      404,
      'MailboxNotEnabledForRESTAPI',
      'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
    );
  }

  if (collectionName === 'mailFolders') {
    const includeHidden = url.searchParams.get('includeHiddenFolders') === 'true';
    if (id === undefined) {
      const select = parseSelect(url.searchParams.get('$select'), FOLDER_PROPS, 'mailFolder');
      const top = [...user.folders.values()]
        .filter((f) => f.parentId === user.rootId && (includeHidden || !f.hidden))
        .map((f) => project(folderJson(user, f), select, FOLDER_PROPS, false));
      return collection(s, res, url, top, 10);
    }
    const folder = folderOf(user, id);
    if (sub === undefined) {
      const select = parseSelect(url.searchParams.get('$select'), FOLDER_PROPS, 'mailFolder');
      return send(res, 200, project(folderJson(user, folder), select, FOLDER_PROPS, false));
    }
    if (sub === 'childFolders' && fn === undefined) {
      const select = parseSelect(url.searchParams.get('$select'), FOLDER_PROPS, 'mailFolder');
      const children = [...user.folders.values()]
        .filter((f) => f.parentId === folder.id && (includeHidden || !f.hidden))
        .map((f) => project(folderJson(user, f), select, FOLDER_PROPS, false));
      return collection(s, res, url, children, 10);
    }
    if (sub === 'messages' && fn === undefined) return listMessages(s, res, url, user, folder);
    if (sub === 'messages' && fn === 'delta') return delta(s, req, res, url, user, folder);
    if (sub === 'messageRules' && fn === undefined) {
      const rules = folder.wellKnownName === 'inbox' ? user.rules.map((r) => ({ ...r })) : [];
      return collection(s, res, url, rules, 1000);
    }
  }

  // learn.microsoft.com/graph/api/message-get (example 5): `/$value` is the MIME content, text/plain.
  if (collectionName === 'messages' && id !== undefined && sub === '$value') {
    const m = user.messages.get(id);
    if (!m) throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const text = m.raw ?? mimeOf(m);
    res.writeHead(200, {
      'Content-Type': 'text/plain',
      'Content-Length': String(Buffer.byteLength(text)),
      'request-id': randomBytes(8).toString('hex'),
    });
    res.end(text);
    return 200;
  }

  if (collectionName === 'messages' && id !== undefined && sub === undefined) {
    const m = user.messages.get(id);
    if (!m) throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const select = parseSelect(url.searchParams.get('$select'), MESSAGE_PROPS, 'message');
    return send(res, 200, project(messageJson(m), select, MESSAGE_DEFAULT, true));
  }
  throw new HttpError(400, 'BadRequest', `Resource not found for the segment '${segments.join('/')}'.`);
}

export function listMessages(
  s: FakeState,
  res: ServerResponse,
  url: URL,
  user: FakeUser,
  folder: StoredFolder,
): number {
  const select = parseSelect(url.searchParams.get('$select'), MESSAGE_PROPS, 'message');
  const orderby = url.searchParams.get('$orderby') ?? 'receivedDateTime desc';
  const order = /^receivedDateTime( (asc|desc))?$/i.exec(orderby.trim());
  if (!order) throw new HttpError(400, 'BadRequest', `The fake orders by receivedDateTime only: ${orderby}`);
  const direction = (order[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc';
  const filter = parseMessageFilter(url.searchParams.get('$filter'));
  // message-list ("Using filter and orderby in the same query"): a property in $orderby must come first in
  // $filter, else Exchange refuses the query as too costly.
  if (filter && url.searchParams.has('$orderby') && filter.first !== 'receivedDateTime') {
    throw new HttpError(
      400,
      'InefficientFilter',
      'The restriction or sort order is too complex for this operation.',
    );
  }
  const items = messagesOf(user, folder.id)
    .filter((m) => filter === null || filter.test(m))
    .sort(byReceived(direction))
    .map((m) => project(messageJson(m), select, MESSAGE_DEFAULT, true));
  return collection(s, res, url, items, 10);
}

// The $filter clauses the fake implements (query-parameters, filter; OData ABNF): the sender's address
// compared with `eq` (case-insensitive, as Exchange compares strings; '' escapes a quote), and
// receivedDateTime compared with a DateTimeOffset literal (unquoted), joined with `and`.
const FROM_CLAUSE = /\s*from\/emailAddress\/address\s+eq\s+'((?:[^']|'')*)'\s*/iy;
const RECEIVED_CLAUSE =
  /\s*receivedDateTime\s+(eq|ne|lt|le|gt|ge)\s+(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2}))\s*/iy;
const AND = /and(?=\s)/iy;

export interface MessageFilter {
  /** The property of the first clause (for the $orderby rule). */
  first: 'from' | 'receivedDateTime';
  test(m: StoredMessage): boolean;
}

/** A `$filter` of the clauses above; null when absent; 400 for anything else. */
export function parseMessageFilter(raw: string | null): MessageFilter | null {
  if (raw === null) return null;
  const refuse = () =>
    new HttpError(400, 'BadRequest', `The fake does not implement this $filter: ${raw.slice(0, 200)}`);
  const tests: Array<(m: StoredMessage) => boolean> = [];
  let first: MessageFilter['first'] | null = null;
  let at = 0;
  for (;;) {
    FROM_CLAUSE.lastIndex = at;
    RECEIVED_CLAUSE.lastIndex = at;
    const from = FROM_CLAUSE.exec(raw);
    const received = from ? null : RECEIVED_CLAUSE.exec(raw);
    if (from) {
      const address = from[1]!.replace(/''/g, "'").toLowerCase();
      tests.push((m) => m.from?.address.toLowerCase() === address);
      first ??= 'from';
      at = FROM_CLAUSE.lastIndex;
    } else if (received) {
      const bound = Date.parse(received[2]!);
      if (!Number.isFinite(bound)) throw refuse();
      const compare = COMPARE[received[1]!.toLowerCase() as keyof typeof COMPARE];
      tests.push((m) => compare(Date.parse(m.receivedDateTime), bound));
      first ??= 'receivedDateTime';
      at = RECEIVED_CLAUSE.lastIndex;
    } else throw refuse();
    if (at === raw.length) break;
    AND.lastIndex = at;
    if (!AND.test(raw)) throw refuse();
    at = AND.lastIndex;
  }
  return { first: first!, test: (m) => tests.every((t) => t(m)) };
}

const COMPARE = {
  eq: (a: number, b: number) => a === b,
  ne: (a: number, b: number) => a !== b,
  lt: (a: number, b: number) => a < b,
  le: (a: number, b: number) => a <= b,
  gt: (a: number, b: number) => a > b,
  ge: (a: number, b: number) => a >= b,
};
