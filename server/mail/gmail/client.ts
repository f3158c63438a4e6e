import { randomBytes } from 'node:crypto';
import {
  type AccessToken,
  describeFetchError,
  type GoogleEndpoints,
  googleEndpoints,
  parseJson,
  refreshAccessToken,
} from '../google-oauth.js';
import { MailAuthError, MailConnectionError } from '../provider.js';

// A small Gmail REST client over fetch: token refresh, Gmail's error shapes, retries with Retry-After or
// capped exponential backoff with jitter, batch requests, and a count of the quota units spent.

/** Units per call, from Google's per-method quota table (15,000 units per user per minute). */
export const QUOTA_UNITS = {
  'messages.list': 5,
  'messages.get': 5,
  'history.list': 2,
  getProfile: 1,
  'labels.list': 1,
  'messages.batchModify': 50,
  'settings.filters.create': 5,
  'settings.filters.list': 1,
  'settings.filters.delete': 5,
  'messages.send': 100,
} as const;

export type GmailMethod = keyof typeof QUOTA_UNITS;

/** A Gmail answer the client does not handle itself (400 bad query, 404 unknown history id, …). */
export class GmailApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | null,
  ) {
    super(message);
  }
}

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

export interface GmailClientOptions {
  refreshToken: string;
  clientId: string;
  clientSecret: string;
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

export interface GmailHeader {
  name: string;
  value: string;
}

export interface GmailMessage {
  id: string;
  threadId?: string;
  labelIds?: string[];
  historyId?: string;
  internalDate?: string;
  payload?: { headers?: GmailHeader[] };
}

export interface GmailProfile {
  emailAddress: string;
  messagesTotal?: number;
  threadsTotal?: number;
  historyId: string;
}

export interface GmailLabel {
  id: string;
  name: string;
  type?: string;
}

export interface MessageList {
  ids: string[];
  nextPageToken: string | null;
  resultSizeEstimate: number;
}

export interface GmailFilterInput {
  criteria: { from?: string };
  action: { addLabelIds?: string[]; removeLabelIds?: string[] };
}

export interface GmailFilter extends GmailFilterInput {
  id: string;
}

export interface HistoryRecord {
  id: string;
  messagesAdded?: Array<{ message: { id: string; labelIds?: string[] } }>;
}

export interface HistoryPage {
  history: HistoryRecord[];
  nextPageToken: string | null;
  historyId: string;
}

/** The most calls one batch request should carry (Google: up to 100, more than 50 invites rate limiting). */
export const BATCH_LIMIT = 50;

const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 6,
  baseDelayMs: 1000,
  maxDelayMs: 32_000,
  maxRetryAfterMs: 60_000,
};
const DEFAULT_PACE: PaceOptions = { unitsPerSecond: 250, burst: 2500 };
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
const LATER_REASONS = new Set(['dailyLimitExceeded', 'quotaExceeded']);

interface Failure {
  status: number;
  reason: string | null;
  message: string;
  retryAfterMs: number | null;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export class GmailClient {
  readonly endpoints: GoogleEndpoints;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: Required<RetryOptions>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly pace: PaceOptions | false;
  private token: AccessToken | null = null;
  private refreshing: Promise<AccessToken> | null = null;
  private spent = 0;
  private bucket: number;
  private bucketAt: number;
  private pacing: Promise<void> = Promise.resolve();

  constructor(private readonly options: GmailClientOptions) {
    this.endpoints = googleEndpoints(options.baseUrl);
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
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

  /** Drops the cached access token and gets a new one: verifies the grant itself. */
  async refresh(): Promise<void> {
    this.token = null;
    await this.accessToken();
  }

  getProfile(): Promise<GmailProfile> {
    return this.call<GmailProfile>('getProfile', '/gmail/v1/users/me/profile');
  }

  async listLabels(): Promise<GmailLabel[]> {
    const res = await this.call<{ labels?: GmailLabel[] }>('labels.list', '/gmail/v1/users/me/labels');
    return res.labels ?? [];
  }

  async listMessages(params: {
    q: string;
    pageToken?: string | null;
    maxResults?: number;
    includeSpamTrash?: boolean;
  }): Promise<MessageList> {
    const query = new URLSearchParams({
      q: params.q,
      maxResults: String(params.maxResults ?? 500),
      includeSpamTrash: String(params.includeSpamTrash ?? false),
    });
    if (params.pageToken) query.set('pageToken', params.pageToken);
    const res = await this.call<{
      messages?: Array<{ id: string }>;
      nextPageToken?: string;
      resultSizeEstimate?: number;
    }>('messages.list', `/gmail/v1/users/me/messages?${query}`);
    return {
      ids: (res.messages ?? []).map((m) => m.id),
      nextPageToken: res.nextPageToken ?? null,
      resultSizeEstimate: res.resultSizeEstimate ?? 0,
    };
  }

  /** Every id of a query, newest first, page by page (5 units per 500 ids). */
  async listAllIds(q: string): Promise<string[]> {
    const ids: string[] = [];
    let pageToken: string | null = null;
    do {
      const page: MessageList = await this.listMessages({ q, pageToken });
      ids.push(...page.ids);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return ids;
  }

  async listHistory(params: { startHistoryId: string; pageToken?: string | null }): Promise<HistoryPage> {
    const query = new URLSearchParams({
      startHistoryId: params.startHistoryId,
      historyTypes: 'messageAdded',
      maxResults: '500',
    });
    if (params.pageToken) query.set('pageToken', params.pageToken);
    const res = await this.call<{ history?: HistoryRecord[]; nextPageToken?: string; historyId: string }>(
      'history.list',
      `/gmail/v1/users/me/history?${query}`,
    );
    return { history: res.history ?? [], nextPageToken: res.nextPageToken ?? null, historyId: res.historyId };
  }

  /**
   * `messages.get format=metadata` for many ids, BATCH_LIMIT per batch request. A message deleted meanwhile
   * maps to null. Calls refused inside a batch (429, rate-limit 403) are sent again after the wait.
   */
  async getMetadata(
    ids: readonly string[],
    headers: readonly string[],
  ): Promise<Map<string, GmailMessage | null>> {
    const out = new Map<string, GmailMessage | null>();
    const unique = [...new Set(ids)];
    const query = new URLSearchParams({ format: 'metadata' });
    for (const h of headers) query.append('metadataHeaders', h);
    for (let i = 0; i < unique.length; i += BATCH_LIMIT) {
      const chunk = unique.slice(i, i + BATCH_LIMIT);
      const paths = chunk.map((id) => `/gmail/v1/users/me/messages/${encodeURIComponent(id)}?${query}`);
      const results = await this.batch<GmailMessage>('messages.get', paths, { notFoundAsNull: true });
      for (const [n, id] of chunk.entries()) out.set(id, results[n] ?? null);
    }
    return out;
  }

  /** `messages.get format=raw` (5 units): the RFC 822 source, or null when the message no longer exists. */
  async getRaw(id: string): Promise<Buffer | null> {
    try {
      const res = await this.call<{ raw?: string }>(
        'messages.get',
        `/gmail/v1/users/me/messages/${encodeURIComponent(id)}?format=raw`,
      );
      return res.raw ? Buffer.from(res.raw, 'base64url') : null;
    } catch (err) {
      // 404: deleted for good; 400: an id Gmail cannot even parse. Either way there is nothing to show.
      if (err instanceof GmailApiError && (err.status === 404 || err.status === 400)) return null;
      throw err;
    }
  }

  /** `messages.send` of a raw RFC 5322 message; Gmail files it under SENT. */
  sendMessage(raw: Buffer): Promise<{ id: string; threadId?: string; labelIds?: string[] }> {
    // Not retried after a network failure or a 5xx: the message may have gone out, and a second copy must not.
    return this.call('messages.send', '/gmail/v1/users/me/messages/send', {
      body: { raw: raw.toString('base64url') },
      unsafe: true,
    });
  }

  /** `messages.batchModify` of at most 1,000 ids (Gmail's limit per request). */
  async batchModify(ids: readonly string[], addLabelIds: string[], removeLabelIds: string[]): Promise<void> {
    if (ids.length > 1000) throw new Error('batchModify takes at most 1,000 ids per call');
    await this.call<null>('messages.batchModify', '/gmail/v1/users/me/messages/batchModify', {
      body: { ids, addLabelIds, removeLabelIds },
    });
  }

  createFilter(filter: GmailFilterInput): Promise<GmailFilter> {
    return this.call<GmailFilter>('settings.filters.create', '/gmail/v1/users/me/settings/filters', {
      body: filter,
    });
  }

  async listFilters(): Promise<GmailFilter[]> {
    const res = await this.call<{ filter?: GmailFilter[] } | null>(
      'settings.filters.list',
      '/gmail/v1/users/me/settings/filters',
    );
    return res?.filter ?? [];
  }

  /** settings.filters.delete; false when the filter no longer exists (404). */
  async deleteFilter(id: string): Promise<boolean> {
    try {
      await this.call<null>(
        'settings.filters.delete',
        `/gmail/v1/users/me/settings/filters/${encodeURIComponent(id)}`,
        {
          method: 'DELETE',
        },
      );
      return true;
    } catch (err) {
      if (err instanceof GmailApiError && err.status === 404) return false;
      throw err;
    }
  }

  // ---- plumbing ----------------------------------------------------------------------------------------

  /**
   * One call: GET, or POST of a JSON body. `unsafe` calls (not idempotent) are retried only when Gmail
   * refused them outright (rate limits, 401), never after a network failure or a 5xx.
   */
  private async call<T>(
    method: GmailMethod,
    path: string,
    post?: { body: unknown; unsafe?: boolean } | { method: 'DELETE' },
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
        this.spent += units;
        return outcome.value;
      }
      const { failure } = outcome;
      if (failure.status === 401 && !authRetried) {
        // An access token can die before its announced expiry (revocation, rotation): one fresh try.
        authRetried = true;
        this.token = null;
        continue;
      }
      if (!isRateLimited(failure)) this.spent += failure.status === 0 ? 0 : units;
      if (post && 'unsafe' in post && post.unsafe && (failure.status === 0 || failure.status >= 500)) {
        throw new MailConnectionError(
          `Gmail ${method}: ${failure.message} (not retried: the request may have been carried out)`,
        );
      }
      await this.handleFailure(failure, attempt, `${method} ${path.split('?')[0]}`);
    }
  }

  /**
   * One batch request of GET calls. Returns the parsed bodies in call order (null for 404 when asked);
   * any other failure of an inner call throws as a single call would.
   */
  private async batch<T>(
    method: GmailMethod,
    paths: string[],
    opts: { notFoundAsNull: boolean },
  ): Promise<Array<T | null>> {
    const units = QUOTA_UNITS[method];
    const results = new Array<T | null>(paths.length).fill(null);
    let pending = paths.map((_, i) => i);
    let authRetried = false;
    for (let attempt = 1; pending.length > 0; attempt++) {
      await this.paced(units * pending.length);
      const token = await this.accessToken();
      const boundary = `batch_${randomBytes(12).toString('hex')}`;
      const body = `${pending
        .map(
          (i) =>
            `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <m${i}>\r\n\r\nGET ${paths[i]}\r\n\r\n`,
        )
        .join('')}--${boundary}--\r\n`;
      const outcome = await this.send(
        this.endpoints.batch,
        { method: 'POST', headers: { 'Content-Type': `multipart/mixed; boundary=${boundary}` }, body },
        token,
        async (res) => parseBatchResponse(res.headers.get('content-type') ?? '', await res.text()),
      );
      if (!outcome.ok) {
        if (outcome.failure.status === 401 && !authRetried) {
          authRetried = true;
          this.token = null;
          attempt--;
          continue;
        }
        await this.handleFailure(outcome.failure, attempt, `batch ${method}`);
        continue;
      }
      const parts = outcome.value;
      const again: number[] = [];
      let wait: Failure | null = null;
      let unauthorized = false;
      for (const [n, index] of pending.entries()) {
        const part = parts.get(`m${index}`) ?? parts.get(`#${n}`);
        if (!part) {
          again.push(index);
          wait ??= { status: 0, reason: null, message: 'batch part missing', retryAfterMs: null };
          continue;
        }
        if (part.status >= 200 && part.status < 300) {
          this.spent += units;
          results[index] = parseJson(part.body) as T;
          continue;
        }
        const failure = failureOf(part.status, part.body, part.retryAfter, this.now());
        if (part.status === 404 && opts.notFoundAsNull) {
          this.spent += units;
          continue;
        }
        if (part.status === 401) {
          unauthorized = true;
          again.push(index);
          continue;
        }
        if (isRateLimited(failure) || part.status >= 500) {
          if (part.status >= 500) this.spent += units;
          again.push(index);
          if (!wait || (failure.retryAfterMs ?? 0) > (wait.retryAfterMs ?? 0)) wait = failure;
          continue;
        }
        this.spent += units;
        throw classify(failure, `${method} in batch`);
      }
      pending = again;
      if (pending.length === 0) break;
      if (unauthorized && !wait) {
        if (authRetried) throw new MailAuthError('Gmail refused the access token (401)');
        authRetried = true;
        this.token = null;
        attempt--;
        continue;
      }
      if (wait) await this.handleFailure(wait, attempt, `batch ${method}`);
    }
    return results;
  }

  /** Sleeps before a retry, or throws when the failure is final or the attempts are used up. */
  private async handleFailure(failure: Failure, attempt: number, what: string): Promise<void> {
    const transient = failure.status === 0 || failure.status >= 500 || isRateLimited(failure);
    if (!transient) throw classify(failure, what);
    if (attempt >= this.retry.maxAttempts) {
      throw new MailConnectionError(`Gmail ${what}: ${failure.message} (gave up after ${attempt} attempts)`);
    }
    const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    const jittered = backoff / 2 + Math.random() * (backoff / 2);
    const delay = failure.retryAfterMs ?? jittered;
    if (delay > this.retry.maxRetryAfterMs) {
      throw new MailConnectionError(
        `Gmail ${what}: rate limited for ${Math.ceil(delay / 1000)} s; try later`,
      );
    }
    await this.sleep(delay);
  }

  private async send<T>(
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

  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - 60_000 > this.now()) return Promise.resolve(this.token.token);
    this.refreshing ??= refreshAccessToken({
      endpoints: this.endpoints,
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      refreshToken: this.options.refreshToken,
      fetchImpl: this.fetchImpl,
      timeoutMs: this.timeoutMs,
      now: this.now,
    }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing.then((t) => {
      this.token = t;
      return t.token;
    });
  }

  /** Token bucket: waits until `units` are available, callers served in order. */
  private paced(units: number): Promise<void> {
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

function isRateLimited(f: Failure): boolean {
  return f.status === 429 || (f.status === 403 && f.reason !== null && RATE_REASONS.has(f.reason));
}

function classify(f: Failure, what: string): Error {
  if (f.status === 401) return new MailAuthError(`Gmail refused the access token (${what})`);
  if (f.status === 403 && f.reason !== null && LATER_REASONS.has(f.reason)) {
    return new MailConnectionError(`Gmail ${what}: ${f.message}`);
  }
  // Missing scopes, API disabled by the domain admin: consent has to be given again.
  if (f.status === 403) return new MailAuthError(`Gmail ${what}: ${f.message}`);
  if (f.status === 0 || f.status >= 500) return new MailConnectionError(`Gmail ${what}: ${f.message}`);
  return new GmailApiError(`Gmail ${what}: ${f.status} ${f.message}`, f.status, f.reason);
}

function failureOf(status: number, body: string, retryAfter: string | null, now: number): Failure {
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
  const value = header?.trim();
  if (value) {
    if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
    const at = Date.parse(value);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const match = /retry after (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/i.exec(message);
  if (match) {
    const at = Date.parse(match[1]!);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  return null;
}

interface BatchPart {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** Splits a multipart/mixed batch answer; parts are keyed by their Content-ID (`response-<id>`) and position. */
export function parseBatchResponse(contentType: string, text: string): Map<string, BatchPart> {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!match) throw new Error('batch answer without a multipart boundary');
  const delimiter = `--${match[1] ?? match[2]}`;
  const parts = new Map<string, BatchPart>();
  const sections = text.split(delimiter).slice(1);
  let n = 0;
  for (const section of sections) {
    if (section.startsWith('--')) break;
    const normalized = section.replace(/\r\n/g, '\n').replace(/^\n/, '');
    const [partHead, rest] = splitOnce(normalized, '\n\n');
    const [httpHead, body] = splitOnce(rest, '\n\n');
    const lines = httpHead.split('\n');
    const status = Number(/^HTTP\/[\d.]+\s+(\d{3})/.exec(lines[0]?.trim() ?? '')?.[1] ?? 0);
    const retryAfter = lines.find((l) => /^retry-after:/i.test(l))?.replace(/^retry-after:/i, '') ?? null;
    const part: BatchPart = { status, body: body.trim(), retryAfter: retryAfter?.trim() ?? null };
    const id = /^content-id:\s*<?([^>\n]*)>?/im.exec(partHead)?.[1]?.trim();
    if (id) parts.set(id.replace(/^response-/, ''), part);
    parts.set(`#${n++}`, part);
  }
  return parts;
}

function splitOnce(text: string, sep: string): [string, string] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + sep.length)];
}
