import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { graphError, HttpError, send } from './http.js';
import { authorize, bearerOwner, token } from './identity.js';
import { graphDelete, graphPost } from './mail-write.js';
import { graph } from './messages.js';
import { mailbox, newUser } from './model.js';
import { createState, type FakeState } from './state.js';
import type { Fault, GraphFake, GraphFakeOptions } from './types.js';

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
// - learn.microsoft.com/graph/api/user-post-mailfolders, mailfolder-post-childfolders: `POST /me/mailFolders`
//   and `POST /me/mailFolders/{id}/childFolders` with `{displayName, isHidden}`, answered 201 Created with
//   the mailFolder; a name a sibling already has (compared without case) answers 409 ErrorFolderExists.
// - learn.microsoft.com/graph/api/mailfolder-post-messagerules, mailfolder-list-messagerules,
//   resources/messagerule: rules live on the Inbox only; displayName, sequence and actions are required;
//   201 Created with the rule. Enabled rules are applied, by sequence, to mail added to the Inbox
//   (conditions.fromAddresses; actions moveToFolder / delete, stopProcessingRules).
// - learn.microsoft.com/graph/json-batching: `POST /v1.0/$batch` with `{requests: [{id, method, url, headers,
//   body}]}`, at most 20 requests, relative URLs without the version, a JSON body needing its Content-Type;
//   answered 200 with `{responses: [{id, status, headers, body}]}`, each request run as if sent alone (a
//   throttled one answers 429 with its own Retry-After) under the outer request's authorization.
// - learn.microsoft.com/graph/query-parameters (filter), message-list: the `$filter` the fake implements on
//   a folder's messages is `from/emailAddress/address eq '…'` (case-insensitive, '' escapes a quote) and
//   `receivedDateTime lt|le|gt|ge|eq|ne <DateTimeOffset>`, joined with `and`; with `$orderby` too, the
//   ordered property must come first in the filter, else 400 InefficientFilter.
//
// The sign-in page of the fake lists its users as forms (like the real account picker): posting one back
// with `login_hint` signs that user in and consents; posting `cancel` declines. A GET whose `login_hint`
// names a user skips the page (single sign-on).
//
// Path mapping (the same as the adapter's `microsoftBaseUrls`): one origin serves both hosts with their
// real paths: `/v1.0/...` for graph.microsoft.com and `/{tenant}/oauth2/v2.0/...` for
// login.microsoftonline.com.

export type {
  FakeAddress,
  FakeHeader,
  FakeMailbox,
  FakeMessageInput,
  FakeMessageRule,
  FakeSentMail,
  FakeUserOptions,
  Fault,
  FaultKind,
  GraphFake,
  GraphFakeOptions,
  LoggedRequest,
} from './types.js';
export { CONSUMER_TENANT } from './types.js';

export async function startGraphFake(options: GraphFakeOptions = {}): Promise<GraphFake> {
  const s = createState(options);
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const log = (status: number | 'hang') =>
      s.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        status,
        at: Date.now(),
        userId: s.owners.get(req) ?? bearerOwner(s, req),
      });
    handle(s, req, res)
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
  s.origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url: s.origin,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    requests: s.requests,
    sentMail: s.sentMail,
    authorizations: s.authorizations,
    addUser(email, opts) {
      const user = newUser(email, opts);
      s.users.set(user.id, user);
      return mailbox(s, user);
    },
    fault(fault) {
      s.faults.push({ ...fault });
    },
    invalidateDeltaTokens(folderId) {
      for (const [token, state] of s.deltaTokens)
        if (!folderId || state.folderId === folderId) s.invalid.add(token);
      for (const [token, round] of s.rounds)
        if (!folderId || round.folderId === folderId) s.invalid.add(token);
    },
    expireAccessTokens() {
      for (const t of s.accessTokens.values()) t.expiresAt = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function takeFault(s: FakeState, req: IncomingMessage): Fault | null {
  const line = `${req.method} ${req.url}`;
  const fault = s.faults.find((f) => f.count > 0 && (!f.match || f.match.test(line)));
  if (!fault) return null;
  fault.count--;
  return fault;
}

async function handle(s: FakeState, req: IncomingMessage, res: ServerResponse): Promise<number | 'hang'> {
  const fault = takeFault(s, req);
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
  const url = new URL(req.url ?? '/', s.origin);
  if (/^\/[^/]+\/oauth2\/v2\.0\/token$/.test(url.pathname)) return token(s, req, res);
  if (/^\/[^/]+\/oauth2\/v2\.0\/authorize$/.test(url.pathname)) return authorize(s, req, res, url);
  if (/^\/[^/]+\/discovery\/v2\.0\/keys$/.test(url.pathname)) {
    return send(res, 200, {
      keys: [{ ...s.signingKey.publicKey.export({ format: 'jwk' }), kid: s.keyId, use: 'sig', alg: 'RS256' }],
    });
  }
  if (url.pathname.startsWith('/v1.0/')) {
    try {
      if (req.method === 'POST') return await graphPost(s, req, res, url);
      if (req.method === 'DELETE') return graphDelete(s, req, res, url);
      return graph(s, req, res, url);
    } catch (e) {
      if (e instanceof HttpError) return graphError(res, e);
      throw e;
    }
  }
  return send(res, 404, { error: { code: 'NotFound', message: `No route ${url.pathname}` } });
}
