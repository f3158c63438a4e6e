import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A local stand-in for the parts of Microsoft Graph v1.0 and of the Microsoft identity platform v2 token
// endpoint that the Outlook adapter (server/mail/graph) uses, written from Microsoft's documentation rather
// than from the adapter, so that the adapter's tests exercise the documented behaviour:
//
// - learn.microsoft.com/graph/api/resources/mailfolder (v1.0): folder properties, well-known folder names
//   usable in place of ids, `wellKnownName` is a beta-only property (v1.0 answers 400 to `$select` of it),
//   hidden folders left out of listings.
// - learn.microsoft.com/graph/api/user-list-mailfolders, mailfolder-list-childfolders: top-level folders
//   and children, `$top` / `$skip`, `@odata.nextLink`.
// - learn.microsoft.com/graph/api/mailfolder-list-messages, resources/message: `internetMessageHeaders`
//   is returned only when `$select` names it; default page size 10, `$top` 1–1000; `$orderby`.
// - learn.microsoft.com/graph/paging: `@odata.nextLink` is an absolute URL carrying every query option;
//   for messages it pages with `$skip`, which clients must treat as opaque.
// - learn.microsoft.com/graph/api/message-delta, graph/delta-query-messages, graph/delta-query-overview:
//   per-folder rounds, `changeType=created|updated|deleted`, options encoded into the state tokens
//   (`$skiptoken` in nextLink, `$deltatoken` in deltaLink), `Prefer: odata.maxpagesize` (default 10),
//   removed items as `{"@removed": {"reason": …}}`, an expired sync state answered with 410 Gone.
// - learn.microsoft.com/graph/outlook-immutable-id: with `Prefer: IdType="ImmutableId"` a message keeps its
//   id when moved between folders. The fake always behaves that way (it never renumbers).
// - learn.microsoft.com/graph/errors, graph/throttling: error bodies `{"error":{"code","message"}}`, 401
//   `InvalidAuthenticationToken`, 429 and 503 with `Retry-After` in seconds.
// - learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow ("Refresh the access token"):
//   `POST /{tenant}/oauth2/v2.0/token` with `grant_type=refresh_token`; the answer carries a new refresh
//   token (the old one is not revoked by its use); a revoked grant answers 400 `invalid_grant`; a wrong
//   client secret 401 `invalid_client`.
// - learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow ("Request an authorization code",
//   "Redeem a code for an access token"): `GET /{tenant}/oauth2/v2.0/authorize` with client_id,
//   response_type=code, redirect_uri, scope, state, code_challenge(_method) (PKCE, RFC 7636: S256 or plain),
//   answered on redirect_uri with `code` and `state`, or `error=access_denied` when the user declines;
//   `grant_type=authorization_code` with code, redirect_uri and code_verifier; codes are single-use and
//   short-lived; a refresh token only for `offline_access`, an id_token only for `openid`.
// - learn.microsoft.com/entra/identity-platform/id-token-claims-reference: v2.0 id_token claims (`iss` =
//   `https://login.microsoftonline.com/{tid}/v2.0`, `aud` = client id, `tid`, `oid`, `preferred_username`,
//   `email` with the email scope); personal accounts live in tenant 9188040d-6c67-4c5b-b112-36a304b66dad;
//   the optional claim `xms_edov` says whether the tenant verified the email's domain (the
//   migrate-off-email-claim-authorization guidance).
//
// - learn.microsoft.com/graph/api/user-sendmail: `POST /me/sendMail` with `{message, saveToSentItems}`
//   (saveToSentItems defaults to true), answered 202 Accepted with no body; a message without recipients
//   is refused (400 ErrorInvalidRecipients). The fake records what was sent and files it in Sent Items.
// - learn.microsoft.com/graph/api/message-move: `POST /me/messages/{id}/move` with `destinationId` (a
//   folder id or a well-known name), answered 201 Created with the moved message.
// - learn.microsoft.com/graph/api/mailfolder-post-messagerules, mailfolder-list-messagerules,
//   resources/messagerule: rules live on the Inbox only; displayName, sequence and actions are required;
//   201 Created with the rule. Enabled rules are applied, by sequence, to mail added to the Inbox
//   (conditions.fromAddresses; actions moveToFolder / delete, stopProcessingRules).
// - learn.microsoft.com/graph/json-batching: `POST /v1.0/$batch` with `{requests: [{id, method, url, headers,
//   body}]}`, at most 20 requests, relative URLs without the version, a JSON body needing its Content-Type;
//   answered 200 with `{responses: [{id, status, headers, body}]}`, each request run as if sent alone (a
//   throttled one answers 429 with its own Retry-After) under the outer request's authorization.
// - learn.microsoft.com/graph/query-parameters (filter): the one `$filter` the fake implements is
//   `from/emailAddress/address eq '…'` on a folder's messages (case-insensitive, '' escapes a quote).
//
// The sign-in page of the fake lists its users as forms (like the real account picker): posting one back
// with `login_hint` signs that user in and consents; posting `cancel` declines. A GET whose `login_hint`
// names a user skips the page (single sign-on).
//
// Path mapping (the same as the adapter's `microsoftBaseUrls`): one origin serves both hosts with their
// real paths: `/v1.0/...` for graph.microsoft.com and `/{tenant}/oauth2/v2.0/...` for
// login.microsoftonline.com.

export interface FakeAddress {
  name: string;
  address: string;
}

export interface FakeHeader {
  name: string;
  value: string;
}

export interface FakeMessageInput {
  subject: string;
  from: FakeAddress | null;
  /** ISO 8601; defaults to now. */
  receivedDateTime?: string;
  /** null: a message that came with no internet headers (Graph omits them for some internal mail). */
  headers?: FakeHeader[] | null;
  isRead?: boolean;
  /** The MIME source `GET /me/messages/{id}/$value` answers; built from the fields when unset. */
  raw?: string;
}

interface StoredFolder {
  id: string;
  displayName: string;
  parentId: string | null;
  wellKnownName: string | null;
  hidden: boolean;
}

interface StoredMessage {
  id: string;
  folderId: string;
  subject: string;
  from: FakeAddress | null;
  receivedDateTime: string;
  headers: FakeHeader[] | null;
  isRead: boolean;
  raw: string | null;
  /** Change sequence at which the message entered its folder, and of its last change. */
  createdSeq: number;
  updatedSeq: number;
}

interface FakeUser {
  id: string;
  email: string;
  displayName: string;
  folders: Map<string, StoredFolder>;
  messages: Map<string, StoredMessage>;
  tombstones: Array<{ id: string; folderId: string; seq: number }>;
  rules: FakeMessageRule[];
  seq: number;
  rootId: string;
  /** When true every access token of the user is refused, even a fresh one (a disabled mailbox). */
  refuseGraph: boolean;
  /** An account without an Exchange Online mailbox: mail calls answer 404 MailboxNotEnabledForRESTAPI. */
  noMailbox: boolean;
  /** The directory (tenant) of the account: the consumer tenant for personal accounts. */
  tenantId: string;
  /** The optional `xms_edov` claim; left out of id_tokens when null. */
  emailDomainVerified: boolean | null;
}

/** Personal Microsoft accounts (Outlook.com, Hotmail): the consumer tenant. */
export const CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export interface FakeUserOptions {
  /** Tenant of the account; default the consumer tenant (a personal Outlook.com account). */
  tenantId?: string;
  /** Adds the optional claim `xms_edov` with this value to the user's id_tokens. */
  emailDomainVerified?: boolean;
}

/** An authorization code waiting to be redeemed (v2-oauth2-auth-code-flow). */
interface PendingCode {
  userId: string;
  redirectUri: string;
  scope: string;
  challenge: string | null;
  method: 'S256' | 'plain';
  nonce: string | null;
  expiresAt: number;
  redeemed: boolean;
}

/** One round of a delta query: what it returns was fixed when the round began. */
interface DeltaRound {
  userId: string;
  folderId: string;
  changeType: 'created' | 'updated' | 'deleted' | null;
  select: string[] | null;
  items: Array<{ removed: string } | { message: StoredMessage }>;
  /** The change sequence the round covers up to; the next round reports what came after. */
  watermark: number;
  offset: number;
  pageSize: number;
}

interface DeltaState {
  userId: string;
  folderId: string;
  changeType: DeltaRound['changeType'];
  select: string[] | null;
  since: number;
}

export type FaultKind = 'throttle' | 'unavailable' | 'error' | 'hang';

export interface Fault {
  kind: FaultKind;
  /** How many matching requests get the fault. */
  count: number;
  /** Which requests (method + path + query, e.g. `GET /v1.0/me/mailFolders/…`); all when unset. */
  match?: RegExp;
  /** Retry-After seconds for throttle / unavailable (1 by default). */
  retryAfter?: number;
}

export interface LoggedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  status: number | 'hang';
  at: number;
  /** The user whose token the request carried, when it carried a known one. */
  userId: string | null;
}

export interface GraphFakeOptions {
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime in seconds (3599 like the real endpoint). */
  accessTokenLifetime?: number;
  /** Issue a new refresh token on every refresh, as Microsoft does. Default true. */
  rotateRefreshTokens?: boolean;
  /** Registered redirect URIs of the app; any http(s) URI is accepted when unset. */
  redirectUris?: string[];
}

/** A message sent through `POST /me/sendMail`. */
export interface FakeSentMail {
  userId: string;
  from: string;
  to: string[];
  subject: string;
  body: { contentType: string; content: string };
  saveToSentItems: boolean;
  at: number;
}

export interface FakeMessageRule {
  id: string;
  displayName: string;
  sequence: number;
  isEnabled: boolean;
  conditions: { fromAddresses?: Array<{ emailAddress: { name?: string; address: string } }> };
  actions: { moveToFolder?: string; delete?: boolean; stopProcessingRules?: boolean };
}

export interface GraphFake {
  /** The origin to put in MICROSOFT_BASE_URL. */
  url: string;
  /** Every message sent with sendMail, oldest first. */
  sentMail: FakeSentMail[];
  clientId: string;
  clientSecret: string;
  requests: LoggedRequest[];
  addUser(email: string, options?: FakeUserOptions): FakeMailbox;
  /** Authorization codes issued so far (for assertions on the authorization requests). */
  authorizations: Array<{ userId: string; scope: string; codeChallengeMethod: string | null }>;
  /** Makes the next matching requests fail. */
  fault(fault: Fault): void;
  /** Every outstanding delta and skip token of the folder (of every folder when unset) answers 410. */
  invalidateDeltaTokens(folderId?: string): void;
  /** Every access token issued so far is expired. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

export interface FakeMailbox {
  id: string;
  email: string;
  /** A refresh token as the authorization code flow would have issued it. */
  issueRefreshToken(): string;
  /** Revokes every refresh and access token of the user (password reset, consent withdrawn). */
  revokeGrants(): void;
  /** Refresh tokens that the token endpoint has issued, oldest first. */
  refreshTokens(): string[];
  /** Refuse Graph calls even with valid tokens (401), or stop doing so. */
  refuseGraph(refuse: boolean): void;
  /** Make the account one without a mailbox Graph can reach (404 MailboxNotEnabledForRESTAPI). */
  removeMailbox(): void;
  /** Folder id of a well-known folder (inbox, junkemail, …). */
  wellKnown(name: string): string;
  addFolder(displayName: string, parent?: string, options?: { hidden?: boolean }): string;
  addMessage(folderId: string, input: FakeMessageInput): string;
  markRead(messageId: string): void;
  moveMessage(messageId: string, folderId: string): void;
  deleteMessage(messageId: string): void;
  messagesIn(folderId: string): Array<{ id: string; subject: string; receivedDateTime: string }>;
  /** Sender address of each message of a folder (for assertions on moves). */
  sendersIn(folderId: string): string[];
  /** The Inbox message rules of the user. */
  rules(): FakeMessageRule[];
}

// The default folders Exchange Online provisions, by well-known name (resources/mailfolder). Sync Issues
// and its three children are listed like other folders; Recoverable Items lives outside msgfolderroot.
const DEFAULT_FOLDERS: Array<[wellKnown: string, displayName: string, parent: string | null]> = [
  ['inbox', 'Inbox', null],
  ['drafts', 'Drafts', null],
  ['sentitems', 'Sent Items', null],
  ['deleteditems', 'Deleted Items', null],
  ['junkemail', 'Junk Email', null],
  ['outbox', 'Outbox', null],
  ['archive', 'Archive', null],
  ['conversationhistory', 'Conversation History', null],
  ['syncissues', 'Sync Issues', null],
  ['conflicts', 'Conflicts', 'syncissues'],
  ['localfailures', 'Local Failures', 'syncissues'],
  ['serverfailures', 'Server Failures', 'syncissues'],
];

// v1.0 property sets. `wellKnownName` is deliberately missing from folders: it exists only in beta.
const FOLDER_PROPS = [
  'id',
  'displayName',
  'parentFolderId',
  'childFolderCount',
  'totalItemCount',
  'unreadItemCount',
  'isHidden',
];
const MESSAGE_PROPS = [
  'id',
  'createdDateTime',
  'lastModifiedDateTime',
  'receivedDateTime',
  'sentDateTime',
  'subject',
  'from',
  'sender',
  'isRead',
  'parentFolderId',
  'internetMessageId',
  'internetMessageHeaders',
  'bodyPreview',
];
// Returned without $select: everything except the properties the docs say need $select.
const MESSAGE_DEFAULT = MESSAGE_PROPS.filter((p) => p !== 'internetMessageHeaders');

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const graphId = (prefix: string) => `${prefix}${randomBytes(33).toString('base64url')}=`;

export async function startGraphFake(options: GraphFakeOptions = {}): Promise<GraphFake> {
  const clientId = options.clientId ?? `client-${randomBytes(4).toString('hex')}`;
  const clientSecret = options.clientSecret ?? `secret-${randomBytes(8).toString('hex')}`;
  const lifetime = options.accessTokenLifetime ?? 3599;
  const rotate = options.rotateRefreshTokens ?? true;
  const codes = new Map<string, PendingCode>();
  const authorizations: GraphFake['authorizations'] = [];
  // id_tokens are signed RS256 like Microsoft's (the keys are served at /{tenant}/discovery/v2.0/keys).
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomBytes(8).toString('hex');

  const users = new Map<string, FakeUser>();
  const refreshTokens = new Map<string, { userId: string; revoked: boolean }>();
  const accessTokens = new Map<string, { userId: string; expiresAt: number }>();
  const rounds = new Map<string, DeltaRound>();
  const deltaTokens = new Map<string, DeltaState>();
  const invalid = new Set<string>();
  const faults: Fault[] = [];
  const requests: LoggedRequest[] = [];
  const sentMail: FakeSentMail[] = [];
  const sockets = new Set<Socket>();
  const owners = new WeakMap<IncomingMessage, string>();
  let origin = '';

  // --- the mailbox model -------------------------------------------------------------------------

  function folderOf(user: FakeUser, idOrName: string): StoredFolder {
    const direct = user.folders.get(idOrName);
    if (direct) return direct;
    const lower = idOrName.toLowerCase();
    const known = [...user.folders.values()].find((f) => f.wellKnownName === lower);
    if (known) return known;
    throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
  }

  /** Where Inbox rules put a message arriving in `folder` (resources/messagerule). */
  function ruledFolder(user: FakeUser, folder: StoredFolder, from: FakeAddress | null): StoredFolder {
    if (folder.wellKnownName !== 'inbox' || !from) return folder;
    let target = folder;
    const rules = user.rules.filter((r) => r.isEnabled).sort((a, b) => a.sequence - b.sequence);
    for (const rule of rules) {
      const senders = rule.conditions.fromAddresses ?? [];
      if (!senders.some((a) => a.emailAddress.address.toLowerCase() === from.address.toLowerCase())) continue;
      if (rule.actions.delete) target = folderOf(user, 'deleteditems');
      else if (rule.actions.moveToFolder) target = folderOf(user, rule.actions.moveToFolder);
      if (rule.actions.stopProcessingRules) break;
    }
    return target;
  }

  function moveStored(user: FakeUser, m: StoredMessage, target: StoredFolder): void {
    user.tombstones.push({ id: m.id, folderId: m.folderId, seq: ++user.seq });
    m.folderId = target.id;
    m.createdSeq = m.updatedSeq = ++user.seq;
  }

  function messagesOf(user: FakeUser, folderId: string): StoredMessage[] {
    return [...user.messages.values()].filter((m) => m.folderId === folderId);
  }

  function folderJson(user: FakeUser, f: StoredFolder): Record<string, unknown> {
    const inside = messagesOf(user, f.id);
    return {
      id: f.id,
      displayName: f.displayName,
      parentFolderId: f.parentId ?? '',
      childFolderCount: [...user.folders.values()].filter((c) => c.parentId === f.id).length,
      totalItemCount: inside.length,
      unreadItemCount: inside.filter((m) => !m.isRead).length,
      isHidden: f.hidden,
    };
  }

  function messageJson(m: StoredMessage): Record<string, unknown> {
    const from = m.from ? { emailAddress: { name: m.from.name, address: m.from.address } } : null;
    const messageId = m.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value ?? null;
    return {
      id: m.id,
      createdDateTime: m.receivedDateTime,
      lastModifiedDateTime: m.receivedDateTime,
      receivedDateTime: m.receivedDateTime,
      sentDateTime: m.receivedDateTime,
      subject: m.subject,
      from,
      sender: from,
      isRead: m.isRead,
      parentFolderId: m.folderId,
      internetMessageId: messageId,
      // Graph leaves the property out rather than sending an empty list when a message has none.
      ...(m.headers ? { internetMessageHeaders: m.headers.map((h) => ({ ...h })) } : {}),
      bodyPreview: '',
    };
  }

  function project(
    entity: Record<string, unknown>,
    select: string[] | null,
    defaults: string[],
    etag: boolean,
  ): Record<string, unknown> {
    const keys = select ? ['id', ...select.filter((k) => k !== 'id')] : defaults;
    const out: Record<string, unknown> = etag
      ? { '@odata.etag': `W/"${randomBytes(6).toString('base64')}"` }
      : {};
    for (const key of keys) if (key in entity) out[key] = entity[key];
    return out;
  }

  function parseSelect(raw: string | null, known: string[], type: string): string[] | null {
    if (raw === null) return null;
    const props = raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    for (const p of props) {
      if (!known.includes(p)) {
        throw new HttpError(
          400,
          'RequestBroker--ParseUri',
          `Could not find a property named '${p}' on type 'microsoft.graph.${type}'.`,
        );
      }
    }
    return props;
  }

  function parseTop(raw: string | null, fallback: number): number {
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      throw new HttpError(400, 'ErrorInvalidParameter', `Invalid $top value: ${raw}`);
    }
    return n;
  }

  function newUser(email: string, opts: FakeUserOptions = {}): FakeUser {
    const user: FakeUser = {
      id: randomBytes(16).toString('hex'),
      email,
      displayName: email.split('@')[0] ?? email,
      folders: new Map(),
      messages: new Map(),
      tombstones: [],
      rules: [],
      seq: 0,
      rootId: graphId('AQMkAD'),
      refuseGraph: false,
      noMailbox: false,
      tenantId: opts.tenantId ?? CONSUMER_TENANT,
      emailDomainVerified: opts.emailDomainVerified ?? null,
    };
    user.folders.set(user.rootId, {
      id: user.rootId,
      displayName: 'Top of Information Store',
      parentId: null,
      wellKnownName: 'msgfolderroot',
      hidden: false,
    });
    const byName = new Map<string, string>();
    for (const [wellKnownName, displayName, parent] of DEFAULT_FOLDERS) {
      const id = graphId('AQMkAD');
      byName.set(wellKnownName, id);
      const parentId = parent ? byName.get(parent)! : user.rootId;
      user.folders.set(id, { id, displayName, parentId, wellKnownName, hidden: false });
    }
    return user;
  }

  function mailbox(user: FakeUser): FakeMailbox {
    const message = (id: string) => {
      const m = user.messages.get(id);
      if (!m) throw new Error(`No message ${id}`);
      return m;
    };
    return {
      id: user.id,
      email: user.email,
      issueRefreshToken() {
        const token = `rt-${randomBytes(24).toString('base64url')}`;
        refreshTokens.set(token, { userId: user.id, revoked: false });
        return token;
      },
      revokeGrants() {
        for (const t of refreshTokens.values()) if (t.userId === user.id) t.revoked = true;
        for (const [token, t] of accessTokens) if (t.userId === user.id) accessTokens.delete(token);
      },
      refreshTokens: () =>
        [...refreshTokens.entries()].filter(([, t]) => t.userId === user.id).map(([token]) => token),
      refuseGraph(refuse) {
        user.refuseGraph = refuse;
      },
      removeMailbox() {
        user.noMailbox = true;
      },
      wellKnown: (name) => folderOf(user, name).id,
      addFolder(displayName, parent, opts = {}) {
        const parentId = parent ? folderOf(user, parent).id : user.rootId;
        const id = graphId('AQMkAD');
        user.folders.set(id, {
          id,
          displayName,
          parentId,
          wellKnownName: null,
          hidden: opts.hidden ?? false,
        });
        return id;
      },
      addMessage(folderId, input) {
        const folder = ruledFolder(user, folderOf(user, folderId), input.from);
        const id = graphId('AAMkAD');
        const seq = ++user.seq;
        user.messages.set(id, {
          id,
          folderId: folder.id,
          subject: input.subject,
          from: input.from,
          receivedDateTime: input.receivedDateTime ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          headers: input.headers === undefined ? [] : input.headers,
          isRead: input.isRead ?? false,
          raw: input.raw ?? null,
          createdSeq: seq,
          updatedSeq: seq,
        });
        return id;
      },
      markRead(id) {
        const m = message(id);
        m.isRead = true;
        m.updatedSeq = ++user.seq;
      },
      moveMessage(id, folderId) {
        const m = message(id);
        const target = folderOf(user, folderId);
        user.tombstones.push({ id, folderId: m.folderId, seq: ++user.seq });
        m.folderId = target.id;
        m.createdSeq = m.updatedSeq = ++user.seq;
      },
      deleteMessage(id) {
        const m = message(id);
        user.messages.delete(id);
        user.tombstones.push({ id, folderId: m.folderId, seq: ++user.seq });
      },
      sendersIn: (folderId) =>
        messagesOf(user, folderOf(user, folderId).id).map((m) => m.from?.address ?? ''),
      rules: () => user.rules.map((r) => structuredClone(r)),
      messagesIn: (folderId) =>
        messagesOf(user, folderOf(user, folderId).id).map(({ id, subject, receivedDateTime }) => ({
          id,
          subject,
          receivedDateTime,
        })),
    };
  }

  // --- HTTP ----------------------------------------------------------------------------------------

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): number {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; odata.metadata=minimal',
      'Content-Length': String(Buffer.byteLength(text)),
      'request-id': randomBytes(8).toString('hex'),
      ...headers,
    });
    res.end(text);
    return status;
  }

  function graphError(res: ServerResponse, e: HttpError): number {
    return send(
      res,
      e.status,
      { error: { code: e.code, message: e.message, innerError: { date: new Date().toISOString() } } },
      e.headers,
    );
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function takeFault(req: IncomingMessage): Fault | null {
    const line = `${req.method} ${req.url}`;
    const fault = faults.find((f) => f.count > 0 && (!f.match || f.match.test(line)));
    if (!fault) return null;
    fault.count--;
    return fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number | 'hang'> {
    const fault = takeFault(req);
    if (fault) {
      const retryAfter = String(fault.retryAfter ?? 1);
      switch (fault.kind) {
        case 'hang':
          return 'hang';
        case 'throttle':
          // graph/throttling: 429 with a suggested wait in Retry-After.
          return send(
            res,
            429,
            {
              error: {
                code: 'TooManyRequests',
                message: 'Application is over its MailboxConcurrency limit.',
              },
            },
            { 'Retry-After': retryAfter },
          );
        case 'unavailable':
          return send(
            res,
            503,
            { error: { code: 'ServiceUnavailable', message: 'Service Unavailable' } },
            { 'Retry-After': retryAfter },
          );
        case 'error':
          return send(res, 500, { error: { code: 'generalException', message: 'General exception.' } });
      }
    }
    const url = new URL(req.url ?? '/', origin);
    if (/^\/[^/]+\/oauth2\/v2\.0\/token$/.test(url.pathname)) return token(req, res);
    if (/^\/[^/]+\/oauth2\/v2\.0\/authorize$/.test(url.pathname)) return authorize(req, res, url);
    if (/^\/[^/]+\/discovery\/v2\.0\/keys$/.test(url.pathname)) {
      return send(res, 200, {
        keys: [{ ...signingKey.publicKey.export({ format: 'jwk' }), kid: keyId, use: 'sig', alg: 'RS256' }],
      });
    }
    if (url.pathname.startsWith('/v1.0/')) {
      try {
        if (req.method === 'POST') return await graphPost(req, res, url);
        if (req.method === 'DELETE') return graphDelete(req, res, url);
        return graph(req, res, url);
      } catch (e) {
        if (e instanceof HttpError) return graphError(res, e);
        throw e;
      }
    }
    return send(res, 404, { error: { code: 'NotFound', message: `No route ${url.pathname}` } });
  }

  // v2-oauth2-auth-code-flow, "Refresh the access token".
  async function token(req: IncomingMessage, res: ServerResponse): Promise<number> {
    if (req.method !== 'POST') return send(res, 405, { error: 'invalid_request' });
    const form = new URLSearchParams(await readBody(req));
    const oauthError = (status: number, error: string, description: string) =>
      send(res, status, {
        error,
        error_description: `${description}\r\nTrace ID: ${randomBytes(8).toString('hex')}`,
        error_codes: [status === 401 ? 7000215 : 70000],
        timestamp: new Date().toISOString(),
      });
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return oauthError(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
    }
    if (form.get('grant_type') === 'authorization_code') return redeemCode(form, req, res, oauthError);
    if (form.get('grant_type') !== 'refresh_token') {
      return oauthError(
        400,
        'unsupported_grant_type',
        'AADSTS70003: The app requested an unsupported grant type.',
      );
    }
    const presented = form.get('refresh_token') ?? '';
    const grant = refreshTokens.get(presented);
    if (grant) owners.set(req, grant.userId);
    if (!grant || grant.revoked) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS70000: The provided value for the input parameter refresh_token is not valid.',
      );
    }
    const access = `at-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(access, { userId: grant.userId, expiresAt: Date.now() + lifetime * 1000 });
    let refresh = presented;
    if (rotate) {
      refresh = `rt-${randomBytes(24).toString('base64url')}`;
      refreshTokens.set(refresh, { userId: grant.userId, revoked: false });
    }
    return send(res, 200, {
      token_type: 'Bearer',
      scope: form.get('scope') ?? '',
      expires_in: lifetime,
      ext_expires_in: lifetime,
      access_token: access,
      refresh_token: refresh,
    });
  }

  // v2-oauth2-auth-code-flow, "Request an authorization code": the account picker and consent in one step.
  async function authorize(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const params = new URLSearchParams(url.search);
    if (req.method === 'POST')
      for (const [k, v] of new URLSearchParams(await readBody(req))) params.set(k, v);
    else if (req.method !== 'GET') return page(res, 405, 'Method not allowed', '');
    const get = (name: string) => params.get(name) ?? '';
    if (get('client_id') !== clientId) {
      return page(
        res,
        400,
        'Sign in',
        `AADSTS700016: Application with identifier '${escapeHtml(get('client_id'))}' was not found.`,
      );
    }
    const redirectUri = get('redirect_uri');
    let target: URL;
    try {
      target = new URL(redirectUri);
      if (!/^https?:$/.test(target.protocol)) throw new Error('scheme');
      if (options.redirectUris && !options.redirectUris.includes(redirectUri))
        throw new Error('unregistered');
    } catch {
      return page(
        res,
        400,
        'Sign in',
        'AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.',
      );
    }
    // From here on errors go back to the app, on the redirect URI (response_mode=query).
    const back = (query: Record<string, string>) => {
      for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
      if (params.has('state')) target.searchParams.set('state', get('state'));
      res.writeHead(302, { Location: target.toString(), 'Content-Length': '0' });
      res.end();
      return 302;
    };
    const fail = (error: string, description: string) =>
      back({ error, error_description: `${description}\r\nTrace ID: ${randomBytes(8).toString('hex')}` });
    if (get('response_type') !== 'code') {
      return fail('unsupported_response_type', 'AADSTS70005: The response_type is not supported.');
    }
    if (!get('scope').trim())
      return fail('invalid_request', "AADSTS900144: The request body must contain 'scope'.");
    const method = params.get('code_challenge_method') ?? (params.has('code_challenge') ? 'plain' : null);
    if (method !== null && method !== 'S256' && method !== 'plain') {
      return fail('invalid_request', 'AADSTS501491: Invalid code_challenge_method.');
    }
    if (method !== null && !/^[A-Za-z0-9._~-]{43,128}$/.test(get('code_challenge'))) {
      return fail('invalid_request', 'AADSTS501491: Invalid size of code_challenge parameter.');
    }
    if (req.method === 'POST' && params.has('cancel')) {
      return fail('access_denied', 'AADSTS65004: User declined to consent to access the app.');
    }
    const hint = get('login_hint').toLowerCase();
    const user = hint ? [...users.values()].find((u) => u.email.toLowerCase() === hint) : undefined;
    if (!user) {
      // The account picker: one form per account, and a way to decline.
      const hidden = [...params]
        .filter(([k]) => k !== 'login_hint' && k !== 'cancel')
        .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
        .join('');
      const forms = [...users.values()]
        .map(
          (u) =>
            `<form method="post">${hidden}<input type="hidden" name="login_hint" value="${escapeHtml(u.email)}"><button>${escapeHtml(u.email)}</button></form>`,
        )
        .join('\n');
      return page(
        res,
        200,
        'Pick an account',
        `${forms}\n<form method="post">${hidden}<input type="hidden" name="cancel" value="1"><button>Cancel</button></form>`,
      );
    }
    const code = `M.C${randomBytes(3).toString('hex')}_${randomBytes(48).toString('base64url')}`;
    codes.set(code, {
      userId: user.id,
      redirectUri,
      scope: get('scope'),
      challenge: method === null ? null : get('code_challenge'),
      method: method === 'S256' ? 'S256' : 'plain',
      nonce: params.get('nonce'),
      // Authorization codes live about ten minutes.
      expiresAt: Date.now() + 10 * 60_000,
      redeemed: false,
    });
    authorizations.push({ userId: user.id, scope: get('scope'), codeChallengeMethod: method });
    owners.set(req, user.id);
    return back({ code });
  }

  // v2-oauth2-auth-code-flow, "Redeem a code for an access token".
  function redeemCode(
    form: URLSearchParams,
    req: IncomingMessage,
    res: ServerResponse,
    oauthError: (status: number, error: string, description: string) => number,
  ): number {
    const pending = codes.get(form.get('code') ?? '');
    if (!pending || pending.expiresAt <= Date.now()) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.',
      );
    }
    owners.set(req, pending.userId);
    if (pending.redeemed) {
      return oauthError(400, 'invalid_grant', 'AADSTS54005: OAuth2 Authorization code was already redeemed.');
    }
    if (form.get('redirect_uri') !== pending.redirectUri) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS50011: The redirect URI does not match the one used to request the authorization code.',
      );
    }
    if (pending.challenge !== null) {
      const verifier = form.get('code_verifier') ?? '';
      const derived =
        pending.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (!verifier || derived !== pending.challenge) {
        return oauthError(
          400,
          'invalid_grant',
          'AADSTS50148: The code_verifier provided does not match the code_challenge supplied in the authorization request for PKCE.',
        );
      }
    }
    pending.redeemed = true;
    const user = users.get(pending.userId)!;
    const scopes = pending.scope.split(/\s+/).filter(Boolean);
    const access = `at-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(access, { userId: user.id, expiresAt: Date.now() + lifetime * 1000 });
    const body: Record<string, unknown> = {
      token_type: 'Bearer',
      scope: scopes.join(' '),
      expires_in: lifetime,
      ext_expires_in: lifetime,
      access_token: access,
    };
    if (scopes.includes('offline_access')) {
      const refresh = `rt-${randomBytes(24).toString('base64url')}`;
      refreshTokens.set(refresh, { userId: user.id, revoked: false });
      body.refresh_token = refresh;
    }
    if (scopes.includes('openid')) body.id_token = idToken(user, scopes, pending.nonce);
    return send(res, 200, body);
  }

  function idToken(user: FakeUser, scopes: string[], nonce: string | null): string {
    const now = Math.floor(Date.now() / 1000);
    const oid = `${user.id.slice(0, 8)}-${user.id.slice(8, 12)}-${user.id.slice(12, 16)}-${user.id.slice(16, 20)}-${user.id.slice(20, 32)}`;
    const claims: Record<string, unknown> = {
      ver: '2.0',
      iss: `${origin}/${user.tenantId}/v2.0`,
      sub: createHash('sha256').update(`${user.id}:${clientId}`).digest('base64url').slice(0, 43),
      aud: clientId,
      exp: now + 3600,
      iat: now,
      nbf: now,
      name: user.displayName,
      preferred_username: user.email,
      oid,
      tid: user.tenantId,
      ...(nonce ? { nonce } : {}),
      ...(scopes.includes('email') ? { email: user.email } : {}),
      ...(user.emailDomainVerified === null ? {} : { xms_edov: user.emailDomainVerified }),
    };
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const input = `${encode({ typ: 'JWT', alg: 'RS256', kid: keyId })}.${encode(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), signingKey.privateKey).toString('base64url')}`;
  }

  function page(res: ServerResponse, status: number, title: string, body: string): number {
    const html = `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>`;
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(html)),
    });
    res.end(html);
    return status;
  }

  function authenticate(req: IncomingMessage): FakeUser {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    const grant = match ? accessTokens.get(match[1]!) : undefined;
    const user = grant ? users.get(grant.userId) : undefined;
    if (user) owners.set(req, user.id);
    if (!grant || !user) {
      throw new HttpError(401, 'InvalidAuthenticationToken', 'IDX14100: JWT is not well formed.', {
        'WWW-Authenticate': 'Bearer realm=""',
      });
    }
    if (grant.expiresAt <= Date.now() || user.refuseGraph) {
      throw new HttpError(
        401,
        'InvalidAuthenticationToken',
        'Lifetime validation failed, the token is expired.',
        {
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        },
      );
    }
    return user;
  }

  /** For requests answered before authentication (faults): whose token they carried. */
  function bearerOwner(req: IncomingMessage): string | null {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    return (match && accessTokens.get(match[1]!)?.userId) ?? null;
  }

  function nextLink(url: URL, skip: number): string {
    const next = new URL(url.pathname, origin);
    for (const [k, v] of url.searchParams) if (k !== '$skip') next.searchParams.set(k, v);
    next.searchParams.set('$skip', String(skip));
    return next.toString();
  }

  function collection(
    res: ServerResponse,
    url: URL,
    items: Array<Record<string, unknown>>,
    defaultTop: number,
  ): number {
    const top = parseTop(url.searchParams.get('$top'), defaultTop);
    const skip = Number(url.searchParams.get('$skip') ?? 0);
    if (!Number.isInteger(skip) || skip < 0)
      throw new HttpError(400, 'ErrorInvalidParameter', 'Invalid $skip');
    const page = items.slice(skip, skip + top);
    const body: Record<string, unknown> = {
      '@odata.context': `${origin}/v1.0/$metadata#collection`,
      value: page,
    };
    if (skip + top < items.length) body['@odata.nextLink'] = nextLink(url, skip + top);
    return send(res, 200, body);
  }

  function graph(req: IncomingMessage, res: ServerResponse, url: URL): number {
    if (req.method !== 'GET') throw new HttpError(405, 'BadRequest', 'The fake answers GET only.');
    const user = authenticate(req);
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
        return collection(res, url, top, 10);
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
        return collection(res, url, children, 10);
      }
      if (sub === 'messages' && fn === undefined) return listMessages(res, url, user, folder);
      if (sub === 'messages' && fn === 'delta') return delta(req, res, url, user, folder);
      if (sub === 'messageRules' && fn === undefined) {
        const rules = folder.wellKnownName === 'inbox' ? user.rules.map((r) => ({ ...r })) : [];
        return collection(res, url, rules, 1000);
      }
    }

    // learn.microsoft.com/graph/api/message-get (example 5): `/$value` is the MIME content, text/plain.
    if (collectionName === 'messages' && id !== undefined && sub === '$value') {
      const m = user.messages.get(id);
      if (!m)
        throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
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
      if (!m)
        throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      const select = parseSelect(url.searchParams.get('$select'), MESSAGE_PROPS, 'message');
      return send(res, 200, project(messageJson(m), select, MESSAGE_DEFAULT, true));
    }
    throw new HttpError(400, 'BadRequest', `Resource not found for the segment '${segments.join('/')}'.`);
  }

  function mimeOf(m: StoredMessage): string {
    const from = m.from ? `${m.from.name} <${m.from.address}>` : 'unknown@example.com';
    const lines = [
      `From: ${from}`,
      `Subject: ${m.subject}`,
      `Date: ${new Date(m.receivedDateTime).toUTCString()}`,
      ...(m.headers ?? [])
        .filter((h) => !/^(from|subject|date)$/i.test(h.name))
        .map((h) => `${h.name}: ${h.value}`),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ];
    return `${lines.join('\r\n')}\r\n\r\n${m.subject}\r\n`;
  }

  function byReceived(direction: 'asc' | 'desc') {
    // Ties fall back to arrival order so that paging is stable.
    const sign = direction === 'desc' ? -1 : 1;
    return (a: StoredMessage, b: StoredMessage) =>
      sign * (Date.parse(a.receivedDateTime) - Date.parse(b.receivedDateTime) || a.createdSeq - b.createdSeq);
  }

  function listMessages(res: ServerResponse, url: URL, user: FakeUser, folder: StoredFolder): number {
    const select = parseSelect(url.searchParams.get('$select'), MESSAGE_PROPS, 'message');
    const orderby = url.searchParams.get('$orderby') ?? 'receivedDateTime desc';
    const order = /^receivedDateTime( (asc|desc))?$/i.exec(orderby.trim());
    if (!order)
      throw new HttpError(400, 'BadRequest', `The fake orders by receivedDateTime only: ${orderby}`);
    const direction = (order[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc';
    const fromFilter = parseFromFilter(url.searchParams.get('$filter'));
    const items = messagesOf(user, folder.id)
      .filter((m) => fromFilter === null || m.from?.address.toLowerCase() === fromFilter)
      .sort(byReceived(direction))
      .map((m) => project(messageJson(m), select, MESSAGE_DEFAULT, true));
    return collection(res, url, items, 10);
  }

  /** `from/emailAddress/address eq 'x'`, the one $filter the fake implements; null when absent. */
  function parseFromFilter(raw: string | null): string | null {
    if (raw === null) return null;
    const match = /^\s*from\/emailAddress\/address\s+eq\s+'((?:[^']|'')*)'\s*$/i.exec(raw);
    if (!match) throw new HttpError(400, 'BadRequest', `The fake does not implement this $filter: ${raw}`);
    return match[1]!.replace(/''/g, "'").toLowerCase();
  }

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const text = await readBody(req);
    if (!/application\/json/i.test(String(req.headers['content-type'] ?? ''))) {
      throw new HttpError(415, 'UnsupportedMediaType', 'Content-Type must be application/json.');
    }
    try {
      const parsed: unknown = JSON.parse(text || '{}');
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // answered below
    }
    throw new HttpError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }

  const addressesOf = (value: unknown): string[] =>
    Array.isArray(value)
      ? value
          .map((r) => (r as { emailAddress?: { address?: unknown } })?.emailAddress?.address)
          .filter((a): a is string => typeof a === 'string' && a.includes('@'))
      : [];

  /** JSON batching: each request is sent to the fake itself, with the outer request's authorization. */
  async function batch(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
  ): Promise<number> {
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0) {
      throw new HttpError(400, 'BadRequest', 'Invalid batch payload format.');
    }
    if (requests.length > 20) {
      throw new HttpError(400, 'BadRequest', 'Number of requests exceeds the limit of 20.');
    }
    const seen = new Set<string>();
    const responses: Array<Record<string, unknown>> = [];
    for (const raw of requests as Array<Record<string, unknown>>) {
      const id = raw?.id;
      const method = typeof raw?.method === 'string' ? raw.method.toUpperCase() : '';
      const target = raw?.url;
      if (typeof id !== 'string' || !id || seen.has(id) || !method || typeof target !== 'string') {
        throw new HttpError(400, 'BadRequest', 'Each batch request needs a unique id, a method and a url.');
      }
      seen.add(id);
      if (!target.startsWith('/') || target.startsWith('/v1.0/')) {
        throw new HttpError(400, 'BadRequest', 'Batch request urls are relative to the version root.');
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries((raw.headers ?? {}) as Record<string, unknown>)) {
        if (typeof v === 'string') headers[k] = v;
      }
      const hasBody = raw.body !== undefined;
      if (hasBody && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
        throw new HttpError(400, 'BadRequest', 'Batch requests with a body need a Content-Type header.');
      }
      const inner = await fetch(`${origin}/v1.0${target}`, {
        method,
        headers: { ...headers, Authorization: String(req.headers.authorization ?? '') },
        body: hasBody ? JSON.stringify(raw.body) : undefined,
      });
      const text = await inner.text();
      const innerHeaders: Record<string, string> = {};
      for (const name of ['content-type', 'retry-after']) {
        const value = inner.headers.get(name);
        if (value) innerHeaders[name === 'retry-after' ? 'Retry-After' : 'Content-Type'] = value;
      }
      responses.push({
        id,
        status: inner.status,
        headers: innerHeaders,
        ...(text ? { body: JSON.parse(text) as unknown } : {}),
      });
    }
    return send(res, 200, { responses });
  }

  // learn.microsoft.com/graph/api/messagerule-delete: DELETE /me/mailFolders/inbox/messageRules/{id} → 204;
  // an unknown id → 404 ErrorItemNotFound.
  function graphDelete(req: IncomingMessage, res: ServerResponse, url: URL): number {
    const user = authenticate(req);
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

  async function graphPost(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const user = authenticate(req);
    const segments = url.pathname
      .slice('/v1.0/'.length)
      .split('/')
      .map((s) => decodeURIComponent(s));
    const [me, collectionName, id, sub] = segments;
    if (me === '$batch' && segments.length === 1) return batch(req, res, await readJson(req));
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
      sentMail.push(mail);
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
      return send(res, 201, { '@odata.context': `${origin}/v1.0/$metadata#messageRules/$entity`, ...rule });
    }
    throw new HttpError(405, 'BadRequest', `The fake does not answer POST ${url.pathname}.`);
  }

  function gone(): HttpError {
    return new HttpError(
      410,
      'SyncStateNotFound',
      'The sync state generation is not found. Resync is required.',
    );
  }

  function preferredPageSize(req: IncomingMessage): number {
    const prefer = String(req.headers.prefer ?? '');
    const match = /odata\.maxpagesize=(\d+)/i.exec(prefer);
    return match ? Math.min(Number(match[1]), 1000) : 10;
  }

  function delta(
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
      const found = rounds.get(skipToken);
      if (!found || invalid.has(skipToken)) throw gone();
      if (found.userId !== user.id || found.folderId !== folder.id) throw gone();
      round = found;
    } else {
      let state: DeltaState;
      if (deltaToken !== null) {
        const found = deltaTokens.get(deltaToken);
        if (!found || invalid.has(deltaToken)) throw gone();
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
    const link = new URL(`/v1.0/me/mailFolders/${encodeURIComponent(folder.id)}/messages/delta`, origin);
    const body: Record<string, unknown> = {
      '@odata.context': `${origin}/v1.0/$metadata#Collection(message)`,
      value,
    };
    if (round.offset < round.items.length) {
      const token = randomBytes(18).toString('base64url');
      rounds.set(token, round);
      link.searchParams.set('$skiptoken', token);
      body['@odata.nextLink'] = link.toString();
    } else {
      const token = randomBytes(18).toString('base64url');
      deltaTokens.set(token, {
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

  function startRound(user: FakeUser, state: DeltaState, pageSize: number): DeltaRound {
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

  const server: Server = createServer((req, res) => {
    const log = (status: number | 'hang') =>
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        status,
        at: Date.now(),
        userId: owners.get(req) ?? bearerOwner(req),
      });
    handle(req, res)
      .then(log)
      .catch((err: unknown) => {
        log(500);
        if (!res.headersSent) send(res, 500, { error: { code: 'FakeBug', message: String(err) } });
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url: origin,
    clientId,
    clientSecret,
    requests,
    sentMail,
    authorizations,
    addUser(email, opts) {
      const user = newUser(email, opts);
      users.set(user.id, user);
      return mailbox(user);
    },
    fault(fault) {
      faults.push({ ...fault });
    },
    invalidateDeltaTokens(folderId) {
      for (const [token, state] of deltaTokens)
        if (!folderId || state.folderId === folderId) invalid.add(token);
      for (const [token, round] of rounds) if (!folderId || round.folderId === folderId) invalid.add(token);
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
