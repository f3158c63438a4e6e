import { MailAuthError, MailConnectionError } from '../provider.js';
import type { OAuthClient } from '../shared/oauth-client.js';
import {
  backoffMs,
  nextRetry,
  parseRetryAfter,
  RetryLaterError,
  type RetryPolicy,
  sleep,
} from '../shared/retry.js';
import { GmailApiError, type GmailMethod, QUOTA_UNITS } from './api.js';
import {
  type AccessToken,
  describeFetchError,
  type GoogleEndpoints,
  googleEndpoints,
  parseJson,
  refreshAccessToken,
} from './google-oauth.js';

// The plumbing under the Gmail client: access tokens, Gmail's error shapes, retries with Retry-After or
// capped exponential backoff with jitter (the one policy of shared/retry.ts), client-side pacing, and the
// count of the quota units spent. client.ts (the endpoints) and batch.ts (batch requests) go through it.

export interface RetryOptions {
  /** Attempts per call, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A longer Retry-After than this is not slept through: the call fails with MailConnectionError. */
  maxRetryAfterMs?: number;
}

export interface PaceOptions {
  /** Sustained rate; Google's per-user limit is 15,000 units a minute = 250 a second. */
  unitsPerSecond: number;
  /** Units that may go out at once before pacing starts. */
  burst: number;
}

export interface GmailClientOptions extends OAuthClient {
  refreshToken: string;
  /** GOOGLE_BASE_URL: unset for Google itself. */
  baseUrl?: string | null;
  fetchImpl?: typeof fetch;
  retry?: RetryOptions;
  /** Client-side pacing so a big scan stays under the per-user quota; false turns it off. */
  pace?: PaceOptions | false;
  requestTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 6,
  baseDelayMs: 1000,
  maxDelayMs: 32_000,
  maxRetryAfterMs: 60_000,
};
/**
 * Tries of the token refresh (within maxAttempts): with the default backoff about 0.5–1 s, then 1–2 s, so a
 * connection the server dropped costs a second or two, and an outage is reported within a few seconds.
 */
const TOKEN_ATTEMPTS = 3;
const DEFAULT_PACE: PaceOptions = { unitsPerSecond: 250, burst: 2500 };
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
const LATER_REASONS = new Set(['dailyLimitExceeded', 'quotaExceeded']);

export interface Failure {
  status: number;
  reason: string | null;
  message: string;
  retryAfterMs: number | null;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export class GmailTransport {
  readonly endpoints: GoogleEndpoints;
  readonly now: () => number;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: Required<RetryOptions>;
  /** The calls' retry policy (shared/retry.ts), for batch.ts's partial retries too. */
  readonly policy: RetryPolicy;
  /** Sleeps between tries (tests count the waits). */
  readonly sleep: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly pace: PaceOptions | false;
  private token: AccessToken | null = null;
  private refreshing: Promise<AccessToken> | null = null;
  private spent = 0;
  private readonly spentBy = new Map<string, number>();
  private bucket: number;
  private bucketAt: number;
  private pacing: Promise<void> = Promise.resolve();

  constructor(private readonly options: GmailClientOptions) {
    this.endpoints = googleEndpoints(options.baseUrl);
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const { maxAttempts, baseDelayMs, maxDelayMs, maxRetryAfterMs } = this.retry;
    this.policy = {
      attempts: maxAttempts,
      baseMs: baseDelayMs,
      maxMs: maxDelayMs,
      jitter: true,
      maxRetryAfterMs,
    };
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.pace = options.pace === undefined ? DEFAULT_PACE : options.pace;
    this.bucket = this.pace ? this.pace.burst : 0;
    this.bucketAt = this.now();
  }

  /** Quota units of every call Gmail answered (rate-limit refusals excluded). */
  quotaUnitsSpent(): number {
    return this.spent;
  }

  /** Units by what they bought: the kind a caller named (the scan's steps), else the Gmail method. */
  quotaUnitsByKind(): Record<string, number> {
    return Object.fromEntries(this.spentBy);
  }

  /** Counts units of a call Gmail answered. */
  spend(units: number, kind: string): void {
    this.spent += units;
    this.spentBy.set(kind, (this.spentBy.get(kind) ?? 0) + units);
  }

  /** Forgets the access token, so the next call gets a new one. */
  dropToken(): void {
    this.token = null;
  }

  /**
   * One call: GET, or POST of a JSON body. `unsafe` calls (not idempotent) are retried only when Gmail
   * refused them outright (rate limits, 401), never after a network failure or a 5xx.
   */
  async call<T>(
    method: GmailMethod,
    path: string,
    post?: { body: unknown; unsafe?: boolean } | { method: 'DELETE' },
    kind: string = method,
  ): Promise<T> {
    const units = QUOTA_UNITS[method];
    const init: RequestInit = !post
      ? { method: 'GET' }
      : 'body' in post
        ? {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(post.body),
          }
        : { method: post.method };
    let authRetried = false;
    for (let attempt = 1; ; attempt++) {
      await this.paced(units);
      const token = await this.accessToken();
      const outcome = await this.send<T>(
        `${this.endpoints.gmail}${path}`,
        init,
        token,
        // batchModify answers 204 with no body.
        async (res) => {
          const text = await res.text();
          return (text ? JSON.parse(text) : null) as T;
        },
      );
      if (outcome.ok) {
        this.spend(units, kind);
        return outcome.value;
      }
      const { failure } = outcome;
      if (failure.status === 401 && !authRetried) {
        // An access token can die before its announced expiry (revocation, rotation): one fresh try.
        authRetried = true;
        this.dropToken();
        continue;
      }
      if (!isRateLimited(failure) && failure.status !== 0) this.spend(units, kind);
      if (post && 'unsafe' in post && post.unsafe && (failure.status === 0 || failure.status >= 500)) {
        throw new MailConnectionError(
          `Gmail ${method}: ${failure.message} (not retried: the request may have been carried out)`,
        );
      }
      await this.handleFailure(failure, attempt, `${method} ${path.split('?')[0]}`);
    }
  }

  /** Sleeps before a retry, or throws when the failure is final or the attempts are used up. */
  async handleFailure(failure: Failure, attempt: number, what: string): Promise<void> {
    this.throwUnlessTransient(failure, what);
    const step = nextRetry(this.policy, attempt, failure.retryAfterMs);
    if (step.retry) return this.sleep(step.waitMs);
    if (step.reason === 'too-long')
      throw new RetryLaterError(`Gmail ${what}: rate limited`, step.retryAfterMs);
    throw new MailConnectionError(`Gmail ${what}: ${failure.message} (gave up after ${attempt} attempts)`);
  }

  /** A failure retrying cannot cure (a refused grant, a bad request) throws at once. */
  throwUnlessTransient(failure: Failure, what: string): void {
    const transient = failure.status === 0 || failure.status >= 500 || isRateLimited(failure);
    if (!transient) throw classify(failure, what);
  }

  async send<T>(
    url: string,
    init: RequestInit,
    token: string,
    read: (res: Response) => Promise<T>,
  ): Promise<Outcome<T>> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      return {
        ok: false,
        failure: { status: 0, reason: null, message: describeFetchError(err), retryAfterMs: null },
      };
    }
    if (res.ok) {
      try {
        return { ok: true, value: await read(res) };
      } catch (err) {
        return {
          ok: false,
          failure: { status: 0, reason: null, message: describeFetchError(err), retryAfterMs: null },
        };
      }
    }
    const text = await res.text().catch(() => '');
    return { ok: false, failure: failureOf(res.status, text, res.headers.get('retry-after'), this.now()) };
  }

  accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - 60_000 > this.now()) return Promise.resolve(this.token.token);
    this.refreshing ??= this.refreshWithRetry().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing.then((t) => {
      this.token = t;
      return t.token;
    });
  }

  /**
   * The refresh-token grant, tried again after a failure of the connection or of Google's side (reset,
   * refused, timeout, 5xx, 429: refreshAccessToken's MailConnectionError) with the calls' backoff, at most
   * TOKEN_ATTEMPTS times; the last failure is thrown as it came. Safe to repeat: the grant changes nothing
   * at Google (the refresh token is not rotated; each answer is one more valid access token). A refused
   * grant or client (MailAuthError, Error) is never tried again.
   */
  private async refreshWithRetry(): Promise<AccessToken> {
    const { baseDelayMs: baseMs, maxDelayMs: maxMs } = this.retry;
    const attempts = Math.min(TOKEN_ATTEMPTS, this.retry.maxAttempts);
    for (let attempt = 1; ; attempt++) {
      try {
        return await refreshAccessToken({
          endpoints: this.endpoints,
          clientId: this.options.clientId,
          clientSecret: this.options.clientSecret,
          refreshToken: this.options.refreshToken,
          fetchImpl: this.fetchImpl,
          timeoutMs: this.timeoutMs,
          now: this.now,
        });
      } catch (err) {
        if (!(err instanceof MailConnectionError) || attempt >= attempts) throw err;
        await this.sleep(backoffMs(attempt, { baseMs, maxMs, jitter: true }));
      }
    }
  }

  /** Token bucket: waits until `units` are available, callers served in order. */
  paced(units: number): Promise<void> {
    const pace = this.pace;
    if (!pace) return Promise.resolve();
    const turn = this.pacing.then(async () => {
      const refill = () => {
        const t = this.now();
        this.bucket = Math.min(pace.burst, this.bucket + ((t - this.bucketAt) / 1000) * pace.unitsPerSecond);
        this.bucketAt = t;
      };
      refill();
      const need = Math.min(units, pace.burst);
      if (this.bucket < need) {
        await this.sleep(((need - this.bucket) / pace.unitsPerSecond) * 1000);
        refill();
      }
      this.bucket -= need;
    });
    this.pacing = turn.catch(() => {});
    return turn;
  }
}

export function isRateLimited(f: Failure): boolean {
  return f.status === 429 || (f.status === 403 && f.reason !== null && RATE_REASONS.has(f.reason));
}

export function classify(f: Failure, what: string): Error {
  if (f.status === 401) return new MailAuthError(`Gmail refused the access token (${what})`);
  if (f.status === 403 && f.reason !== null && LATER_REASONS.has(f.reason)) {
    return new MailConnectionError(`Gmail ${what}: ${f.message}`);
  }
  // Missing scopes, API disabled by the domain admin: consent has to be given again.
  if (f.status === 403) return new MailAuthError(`Gmail ${what}: ${f.message}`);
  if (f.status === 0 || f.status >= 500) return new MailConnectionError(`Gmail ${what}: ${f.message}`);
  return new GmailApiError(`Gmail ${what}: ${f.status} ${f.message}`, f.status, f.reason);
}

export function failureOf(status: number, body: string, retryAfter: string | null, now: number): Failure {
  const json = parseJson(body) as {
    error?: { message?: string; status?: string; errors?: Array<{ reason?: string }> } | string;
  } | null;
  const error = typeof json?.error === 'object' ? json.error : null;
  const reason =
    error?.errors?.[0]?.reason ?? error?.status ?? (typeof json?.error === 'string' ? json.error : null);
  const message = error?.message ?? (body.slice(0, 200) || `HTTP ${status}`);
  return { status, reason, message, retryAfterMs: retryAfterMs(retryAfter, message, now) };
}

/** Retry-After in seconds or as an HTTP date; else the "Retry after <ISO time>" Gmail puts in the message. */
export function retryAfterMs(header: string | null, message: string, now: number): number | null {
  const asked = parseRetryAfter(header, now);
  if (asked !== null) return asked;
  const match = /retry after (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/i.exec(message);
  if (match) {
    const at = Date.parse(match[1]!);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  return null;
}
