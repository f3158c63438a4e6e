import { MailAuthError, MailConnectionError } from '../provider.js';
import type { OAuthClient } from '../shared/oauth-client.js';

// Where Google lives, and the refresh-token grant. GOOGLE_BASE_URL unset means the real Google hosts;
// set, every Google call goes to that one origin, laid out as @emulators/google serves it (the Gmail
// paths are the same as Google's; only the OAuth endpoints move).

export interface GoogleEndpoints {
  authorize: string;
  token: string;
  revoke: string;
  userinfo: string;
  /** Origin of the Gmail REST API; paths start with /gmail/v1/. */
  gmail: string;
  /** Gmail's batch endpoint (multipart/mixed, up to 100 calls). */
  batch: string;
}

export function googleEndpoints(baseUrl?: string | null): GoogleEndpoints {
  const base = baseUrl?.trim().replace(/\/+$/, '');
  if (!base) {
    return {
      authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
      token: 'https://oauth2.googleapis.com/token',
      revoke: 'https://oauth2.googleapis.com/revoke',
      userinfo: 'https://www.googleapis.com/oauth2/v2/userinfo',
      gmail: 'https://gmail.googleapis.com',
      batch: 'https://gmail.googleapis.com/batch/gmail/v1',
    };
  }
  return {
    authorize: `${base}/o/oauth2/v2/auth`,
    token: `${base}/oauth2/token`,
    revoke: `${base}/oauth2/revoke`,
    userinfo: `${base}/oauth2/v2/userinfo`,
    gmail: base,
    batch: `${base}/batch/gmail/v1`,
  };
}

export interface AccessToken {
  token: string;
  /** Epoch ms after which the token must not be used. */
  expiresAt: number;
}

export interface RefreshOptions extends OAuthClient {
  endpoints: GoogleEndpoints;
  refreshToken: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * Trades a refresh token for an access token. A revoked, expired or foreign grant (`invalid_grant`) is a
 * MailAuthError: only the user can fix it. A rejected client id/secret is our configuration, not theirs, so
 * it is a plain Error rather than a reason to send every user back through consent.
 */
export async function refreshAccessToken(options: RefreshOptions): Promise<AccessToken> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = options.now ?? Date.now;
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: options.refreshToken,
    client_id: options.clientId,
    client_secret: options.clientSecret,
  });
  let res: Response;
  try {
    res = await fetchImpl(options.endpoints.token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (err) {
    throw new MailConnectionError(`Google token endpoint unreachable: ${describeFetchError(err)}`, {
      cause: err,
    });
  }
  const text = await res.text().catch(() => '');
  const json = parseJson(text) as { access_token?: unknown; expires_in?: unknown; error?: unknown } | null;
  if (res.ok && typeof json?.access_token === 'string') {
    const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    return { token: json.access_token, expiresAt: now() + expiresIn * 1000 };
  }
  const error = typeof json?.error === 'string' ? json.error : '';
  if (error === 'invalid_grant' || error === 'unauthorized_client') {
    throw new MailAuthError(
      'Google refused the stored grant (revoked or expired); sign in with Google again',
    );
  }
  if (error === 'invalid_client') {
    throw new Error('Google rejected GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET (invalid_client)');
  }
  if (res.status >= 500 || res.status === 429) {
    throw new MailConnectionError(`Google token endpoint answered ${res.status}`);
  }
  throw new MailAuthError(`Google token endpoint answered ${res.status}${error ? ` (${error})` : ''}`);
}

/** JSON of an answer body, or null when it is not JSON (an HTML error page, a truncated body). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The most telling part of a fetch failure: the socket error code (ECONNREFUSED…) when there is one. */
export function describeFetchError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}
