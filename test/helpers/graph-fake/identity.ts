import { createHash, randomBytes, sign } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, HttpError, page, readBody, send } from './http.js';
import type { FakeState, FakeUser } from './state.js';

// The Microsoft identity platform side of the fake: the authorization endpoint (account picker and
// consent), the token endpoint (authorization code with PKCE, refresh), signed id_tokens, and the bearer
// check every Graph request goes through.

// v2-oauth2-auth-code-flow, "Refresh the access token".
export async function token(s: FakeState, req: IncomingMessage, res: ServerResponse): Promise<number> {
  if (req.method !== 'POST') return send(res, 405, { error: 'invalid_request' });
  const form = new URLSearchParams(await readBody(req));
  const oauthError = (status: number, error: string, description: string) =>
    send(res, status, {
      error,
      error_description: `${description}\r\nTrace ID: ${randomBytes(8).toString('hex')}`,
      error_codes: [status === 401 ? 7000215 : 70000],
      timestamp: new Date().toISOString(),
    });
  if (form.get('client_id') !== s.clientId || form.get('client_secret') !== s.clientSecret) {
    return oauthError(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
  }
  if (form.get('grant_type') === 'authorization_code') return redeemCode(s, form, req, res, oauthError);
  if (form.get('grant_type') !== 'refresh_token') {
    return oauthError(
      400,
      'unsupported_grant_type',
      'AADSTS70003: The app requested an unsupported grant type.',
    );
  }
  const presented = form.get('refresh_token') ?? '';
  const grant = s.refreshTokens.get(presented);
  if (grant) s.owners.set(req, grant.userId);
  if (!grant || grant.revoked) {
    return oauthError(
      400,
      'invalid_grant',
      'AADSTS70000: The provided value for the input parameter refresh_token is not valid.',
    );
  }
  const access = `at-${randomBytes(24).toString('base64url')}`;
  s.accessTokens.set(access, { userId: grant.userId, expiresAt: Date.now() + s.lifetime * 1000 });
  let refresh = presented;
  if (s.rotate) {
    refresh = `rt-${randomBytes(24).toString('base64url')}`;
    s.refreshTokens.set(refresh, { userId: grant.userId, revoked: false });
  }
  return send(res, 200, {
    token_type: 'Bearer',
    scope: form.get('scope') ?? '',
    expires_in: s.lifetime,
    ext_expires_in: s.lifetime,
    access_token: access,
    refresh_token: refresh,
  });
}

// v2-oauth2-auth-code-flow, "Request an authorization code": the account picker and consent in one step.
export async function authorize(
  s: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<number> {
  const params = new URLSearchParams(url.search);
  if (req.method === 'POST') for (const [k, v] of new URLSearchParams(await readBody(req))) params.set(k, v);
  else if (req.method !== 'GET') return page(res, 405, 'Method not allowed', '');
  const get = (name: string) => params.get(name) ?? '';
  if (get('client_id') !== s.clientId) {
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
    if (s.redirectUris && !s.redirectUris.includes(redirectUri)) throw new Error('unregistered');
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
  const user = hint ? [...s.users.values()].find((u) => u.email.toLowerCase() === hint) : undefined;
  if (!user) {
    // The account picker: one form per account, and a way to decline.
    const hidden = [...params]
      .filter(([k]) => k !== 'login_hint' && k !== 'cancel')
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    const forms = [...s.users.values()]
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
  s.codes.set(code, {
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
  s.authorizations.push({ userId: user.id, scope: get('scope'), codeChallengeMethod: method });
  s.owners.set(req, user.id);
  return back({ code });
}

// v2-oauth2-auth-code-flow, "Redeem a code for an access token".
export function redeemCode(
  s: FakeState,
  form: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  oauthError: (status: number, error: string, description: string) => number,
): number {
  const pending = s.codes.get(form.get('code') ?? '');
  if (!pending || pending.expiresAt <= Date.now()) {
    return oauthError(
      400,
      'invalid_grant',
      'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.',
    );
  }
  s.owners.set(req, pending.userId);
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
  const user = s.users.get(pending.userId)!;
  const scopes = pending.scope.split(/\s+/).filter(Boolean);
  const access = `at-${randomBytes(24).toString('base64url')}`;
  s.accessTokens.set(access, { userId: user.id, expiresAt: Date.now() + s.lifetime * 1000 });
  const body: Record<string, unknown> = {
    token_type: 'Bearer',
    scope: scopes.join(' '),
    expires_in: s.lifetime,
    ext_expires_in: s.lifetime,
    access_token: access,
  };
  if (scopes.includes('offline_access')) {
    const refresh = `rt-${randomBytes(24).toString('base64url')}`;
    s.refreshTokens.set(refresh, { userId: user.id, revoked: false });
    body.refresh_token = refresh;
  }
  if (scopes.includes('openid')) body.id_token = idToken(s, user, scopes, pending.nonce);
  return send(res, 200, body);
}

export function idToken(s: FakeState, user: FakeUser, scopes: string[], nonce: string | null): string {
  const now = Math.floor(Date.now() / 1000);
  const oid = `${user.id.slice(0, 8)}-${user.id.slice(8, 12)}-${user.id.slice(12, 16)}-${user.id.slice(16, 20)}-${user.id.slice(20, 32)}`;
  const claims: Record<string, unknown> = {
    ver: '2.0',
    iss: `${s.origin}/${user.tenantId}/v2.0`,
    sub: createHash('sha256').update(`${user.id}:${s.clientId}`).digest('base64url').slice(0, 43),
    aud: s.clientId,
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
  const input = `${encode({ typ: 'JWT', alg: 'RS256', kid: s.keyId })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), s.signingKey.privateKey).toString('base64url')}`;
}

export function authenticate(s: FakeState, req: IncomingMessage): FakeUser {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer (.+)$/.exec(header);
  const grant = match ? s.accessTokens.get(match[1]!) : undefined;
  const user = grant ? s.users.get(grant.userId) : undefined;
  if (user) s.owners.set(req, user.id);
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
export function bearerOwner(s: FakeState, req: IncomingMessage): string | null {
  const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  return (match && s.accessTokens.get(match[1]!)?.userId) ?? null;
}
