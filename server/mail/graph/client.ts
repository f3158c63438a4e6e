import { MailApiError, MailAuthError, MailConnectionError } from '../provider.js';
import type { OAuthClient } from '../shared/oauth-client.js';
import { nextRetry, parseRetryAfter, RetryLaterError, type RetryPolicy, sleep } from '../shared/retry.js';

// HTTP to Microsoft Graph v1.0 and the Microsoft identity platform v2 token endpoint: access tokens from
// the stored refresh token, retries where Microsoft asks for them, and the mapping of every failure onto
// the port's MailAuthError / MailConnectionError (anything else is a bug of ours and passes through).

export const GRAPH_BASE_URL = 'https://graph.microsoft.com/v1.0';
/** The identity platform v2 endpoints of the multi-tenant app: `${this}/authorize`, `${this}/token`. */
export const LOGIN_BASE_URL = 'https://login.microsoftonline.com/common/oauth2/v2.0';
/** Delegated scopes of the Outlook connection. Graph takes the short names as its own. */
export const OUTLOOK_SCOPES = [
  'openid',
  'email',
  'offline_access',
  'Mail.ReadWrite',
  'Mail.Send',
  'MailboxSettings.ReadWrite',
];

/**
 * Where the Microsoft calls go. With `MICROSOFT_BASE_URL` set (tests), every call goes to that one origin
 * with the real path kept: `${origin}/v1.0/...` for Graph and `${origin}/common/oauth2/v2.0/...` for the
 * identity platform. test/helpers/graph-fake.ts serves exactly these paths.
 */
export function microsoftBaseUrls(origin?: string | null): { baseUrl: string; loginBaseUrl: string } {
  if (!origin) return { baseUrl: GRAPH_BASE_URL, loginBaseUrl: LOGIN_BASE_URL };
  const o = origin.replace(/\/+$/, '');
  return { baseUrl: `${o}/v1.0`, loginBaseUrl: `${o}/common/oauth2/v2.0` };
}

/** Graph's knobs of the one retry policy (shared/retry.ts). */
export interface GraphRetryOptions {
  /** Tries per request, the first included. */
  attempts: number;
  /** Ceiling of the doubled wait when the answer names none. */
  maxWaitMs: number;
  /** First wait when the answer names none; doubled on each further try. */
  backoffMs: number;
  /** A longer Retry-After is not slept through: the request gives up with RetryLaterError. */
  maxRetryAfterMs: number;
}

export interface GraphClientOptions extends OAuthClient {
  refreshToken: string;
  /** Graph root; default https://graph.microsoft.com/v1.0. */
  baseUrl?: string;
  /** Identity platform root; default https://login.microsoftonline.com/common/oauth2/v2.0. */
  loginBaseUrl?: string;
  fetchImpl?: typeof fetch;
  /**
   * Microsoft answers every refresh with a new refresh token. The old one keeps working for a while, but
   * the caller should store the new one; it is awaited before the new access token is used.
   */
  onRefreshToken?: (refreshToken: string) => void | Promise<void>;
  /** Per request, until the whole answer has arrived. Default 15 s. */
  timeoutMs?: number;
  retry?: Partial<GraphRetryOptions>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_RETRY: GraphRetryOptions = {
  attempts: 5,
  maxWaitMs: 60_000,
  backoffMs: 1_000,
  maxRetryAfterMs: 60_000,
};

// 429 and 503 come with Retry-After (graph/throttling); 500/502/504 are the other transient answers the
// Graph error reference lists.
const TRANSIENT = new Set([429, 500, 502, 503, 504]);
// Token endpoint errors that mean the user has to sign in again (RFC 6749 §5.2 and the identity platform's
// additions); anything else there (invalid_client, invalid_request) is our configuration.
const GRANT_ERRORS = new Set(['invalid_grant', 'interaction_required', 'consent_required', 'login_required']);
// Renew this long before Microsoft's expiry, so a token does not lapse between check and use.
const EXPIRY_MARGIN_MS = 60_000;

export const REAUTH_MESSAGE =
  'Microsoft no longer accepts this mailbox connection. Connect the Outlook account again.';

/** A Graph answer the caller may want to act on (404 of a deleted folder, 410 of an expired delta link). */
export class GraphError extends MailApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export function isGraphError(err: unknown, status: number): err is GraphError {
  return err instanceof GraphError && err.status === status;
}

interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export class GraphClient {
  private refreshToken: string;
  private readonly fetch: typeof fetch;
  private readonly base: URL;
  private readonly tokenUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private access: { token: string; expiresAt: number } | null = null;
  private refreshing: Promise<string> | null = null;

  constructor(private readonly options: GraphClientOptions) {
    this.refreshToken = options.refreshToken;
    this.fetch = options.fetchImpl ?? fetch;
    this.base = new URL(`${(options.baseUrl ?? GRAPH_BASE_URL).replace(/\/+$/, '')}/`);
    this.tokenUrl = `${(options.loginBaseUrl ?? LOGIN_BASE_URL).replace(/\/+$/, '')}/token`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { attempts, maxWaitMs, backoffMs, maxRetryAfterMs } = { ...DEFAULT_RETRY, ...options.retry };
    this.retry = { attempts, baseMs: backoffMs, maxMs: maxWaitMs, jitter: false, maxRetryAfterMs };
  }

  /**
   * GET of a path under the Graph root (`/me/...`) or of a link Graph handed out (`@odata.nextLink`,
   * `@odata.deltaLink`), which is used exactly as given.
   */
  get<T>(target: string, prefer: string[] = []): Promise<T> {
    return this.request<T>('GET', target, undefined, prefer, false);
  }

  /** GET of a path whose answer is not JSON (`/me/messages/{id}/$value`): the body's bytes. */
  getRaw(target: string, prefer: string[] = []): Promise<Buffer> {
    return this.request<Buffer>('GET', target, undefined, prefer, false, true);
  }

  /**
   * POST of a JSON body to a path under the Graph root. `unsafe` requests (sendMail) are retried only after
   * 429 or 503, which Graph answers before doing anything; never after a network failure or another 5xx.
   */
  post<T>(target: string, body: unknown, options: { prefer?: string[]; unsafe?: boolean } = {}): Promise<T> {
    return this.request<T>('POST', target, body, options.prefer ?? [], options.unsafe ?? false);
  }

  /** DELETE of a path under the Graph root (a message rule): 204 with no body. */
  delete(target: string): Promise<void> {
    return this.request<void>('DELETE', target, undefined, [], false);
  }

  private async request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    target: string,
    body: unknown,
    prefer: string[],
    unsafe: boolean,
    raw = false,
  ): Promise<T> {
    const url = this.resolve(target);
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const token = await this.accessToken();
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: raw ? '*/*' : 'application/json',
      };
      if (prefer.length > 0) headers.Prefer = prefer.join(', ');
      const init: RequestInit = { method, headers };
      if (method === 'POST') {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body ?? {});
      }
      let res: RawResponse;
      try {
        res = await this.send(url, init, 'Microsoft Graph', raw);
      } catch (err) {
        if (unsafe && err instanceof MailConnectionError) {
          throw new MailConnectionError(
            `${err.message} The request may have been carried out; not retried.`,
            {
              cause: err,
            },
          );
        }
        throw err;
      }
      if (res.status >= 200 && res.status < 300) return res.body as T;
      if (res.status === 401) {
        // The token may have been revoked or expired early: one fresh token, then the user has to act.
        if (renewed) throw new MailAuthError(REAUTH_MESSAGE, { cause: graphError(res) });
        if (this.access?.token === token) this.access = null;
        renewed = true;
        attempt--;
        continue;
      }
      // ErrorAccessDenied: the consent no longer covers the mailbox.
      if (res.status === 403) throw new MailAuthError(REAUTH_MESSAGE, { cause: graphError(res) });
      if (TRANSIENT.has(res.status)) {
        const refusedBeforeWork = res.status === 429 || res.status === 503;
        if (!unsafe || refusedBeforeWork) {
          const waitMs = this.waitFor(res, attempt, 'Microsoft Graph');
          if (waitMs !== null) {
            await sleep(waitMs);
            continue;
          }
        }
        throw new MailConnectionError(`Microsoft Graph kept answering ${res.status}; try again later.`, {
          cause: graphError(res),
        });
      }
      throw graphError(res);
    }
  }

  /** A valid access token, refreshed when missing or about to expire; one refresh at a time. */
  async accessToken(): Promise<string> {
    if (this.access && this.access.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return this.access.token;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<string> {
    // identity platform v2, "Refresh the access token": form-encoded, client secret in the body.
    const body = new URLSearchParams({
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: this.refreshToken,
      scope: OUTLOOK_SCOPES.join(' '),
    }).toString();
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(
        this.tokenUrl,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body,
        },
        'The Microsoft sign-in service',
      );
      const answer = (res.body ?? {}) as {
        access_token?: string;
        refresh_token?: string;
        expires_in?: number;
        error?: string;
        error_description?: string;
      };
      if (res.status === 200 && typeof answer.access_token === 'string') {
        if (typeof answer.refresh_token === 'string' && answer.refresh_token !== this.refreshToken) {
          this.refreshToken = answer.refresh_token;
          await this.options.onRefreshToken?.(answer.refresh_token);
        }
        const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in * 1000 : 3_600_000;
        this.access = { token: answer.access_token, expiresAt: Date.now() + lifetime };
        return answer.access_token;
      }
      const error = answer.error ?? '';
      if (GRANT_ERRORS.has(error)) {
        throw new MailAuthError(REAUTH_MESSAGE, {
          cause: new Error(firstLine(answer.error_description) ?? error),
        });
      }
      const transient = TRANSIENT.has(res.status) || error === 'temporarily_unavailable';
      const waitMs = transient ? this.waitFor(res, attempt, 'The Microsoft sign-in service') : null;
      if (waitMs !== null) {
        await sleep(waitMs);
        continue;
      }
      if (transient) {
        throw new MailConnectionError('The Microsoft sign-in service is not answering; try again later.');
      }
      // invalid_client and the like: the app registration or our request is wrong, not the user's grant.
      throw new Error(
        `The Microsoft token endpoint refused the refresh (${res.status} ${error || 'no error code'}): ${
          firstLine(answer.error_description) ?? ''
        }`,
      );
    }
  }

  /** One HTTP exchange, body included, under the timeout; network failures become MailConnectionError. */
  private async send(url: string, init: RequestInit, who: string, raw = false): Promise<RawResponse> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await this.fetch(url, { ...init, signal });
      if (raw && res.ok) {
        return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      }
      text = await res.text();
    } catch (err) {
      if (signal.aborted) {
        throw new MailConnectionError(
          `${who} did not answer within ${Math.round(this.timeoutMs / 1000)} s.`,
          {
            cause: err,
          },
        );
      }
      throw new MailConnectionError(`Could not reach ${who}.`, { cause: err });
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch (err) {
        // A proxy's HTML error page in place of JSON: the service is not answering properly.
        if (res.ok) throw new MailConnectionError(`${who} sent a malformed answer.`, { cause: err });
      }
    }
    return { status: res.status, headers: res.headers, body };
  }

  private resolve(target: string): string {
    if (!/^https?:\/\//i.test(target)) {
      return new URL(target.replace(/^\/+/, ''), this.base).toString();
    }
    // Links come from Graph; still, the bearer token goes nowhere but the Graph root it was issued for.
    const url = new URL(target);
    if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) {
      throw new Error(
        `Refusing to follow a link outside ${this.base.toString()}: ${url.origin}${url.pathname}`,
      );
    }
    return target;
  }

  /**
   * The wait before the next try (Retry-After as asked: Graph sends it with 429 and 503; else doubling from
   * backoffMs), or null when the tries are used up; a Retry-After past the policy's cap gives up at once.
   */
  private waitFor(res: RawResponse, attempt: number, who: string): number | null {
    const step = nextRetry(this.retry, attempt, parseRetryAfter(res.headers.get('retry-after')));
    if (step.retry) return step.waitMs;
    if (step.reason === 'too-long') throw new RetryLaterError(who, step.retryAfterMs);
    return null;
  }
}

function graphError(res: RawResponse): GraphError {
  const error = (res.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : '';
  const message = typeof error?.message === 'string' ? error.message : '';
  return new GraphError(
    res.status,
    code,
    `Microsoft Graph answered ${res.status} ${code}: ${message}`.trim(),
  );
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split(/\r?\n/)[0];
}
