// The one place that talks HTTP to the API (docs/product.md §7): same origin, cookies included, and every
// state-changing call carries an X-CSRF-Token header. The token is fetched once (GET /csrf-token) and
// reused: it stays valid as long as the secret cookie it was made from. When the server refuses it
// (403 with the CSRF message: the cookie expired, or was replaced), the call fetches a new token and is
// retried once.
import type { ZodType } from 'zod';
import type { CsrfTokenResponse, ErrorDetails } from '#contract/api.js';
import { MESSAGES } from '#contract/messages.js';
import { API } from '#contract/routes.js';

/** One field of a parsed answer (`undefined` when the answer is no object or lacks it). */
function fieldOf(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
}

/**
 * The details of an error answer (contract/api/shared.ts, errorDetailsSchema), each kept only when it has
 * its contract's type. Checked by hand rather than with the schema: this module loads with the landing page,
 * which zod does not (docs/decisions/044-fast-first-load.md).
 */
function detailsOf(body: unknown): ErrorDetails {
  const details: ErrorDetails = {};
  const redirectUrl = fieldOf(body, 'redirectUrl');
  if (typeof redirectUrl === 'string' && redirectUrl) details.redirectUrl = redirectUrl;
  if (fieldOf(body, 'confirmBlock') === true) details.confirmBlock = true;
  if (fieldOf(body, 'offerBlock') === true) details.offerBlock = true;
  if (fieldOf(body, 'totpRequired') === true) details.totpRequired = true;
  return details;
}

/** A failed call: the HTTP status (0 when the network failed), the server's message and its details. */
export class ApiError extends Error {
  /** What the answer carried beside its message, e.g. the `redirectUrl` of a 401 (docs/product.md §3, §8). */
  readonly details: ErrorDetails;

  constructor(
    readonly status: number,
    message: string,
    /** The parsed answer, `{message, ...details}`: read here, once. */
    body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    this.details = detailsOf(body);
  }
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { credentials: 'include', ...init });
  } catch {
    throw new ApiError(0, '');
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  const body = await readJson(response);
  const message = fieldOf(body, 'message');
  return new ApiError(response.status, typeof message === 'string' ? message : '', body);
}

async function fetchCsrfToken(): Promise<string> {
  const response = await send(API.csrfToken, { headers: { Accept: 'application/json' } });
  // docs/product.md §8: a refused token fetch says the spec's words, whatever the answer's body; the screen
  // that made the call shows it like any other failure.
  if (response.status === 429) throw new ApiError(429, MESSAGES.tooManyRequests);
  if (!response.ok) throw await errorFrom(response);
  return ((await response.json()) as CsrfTokenResponse).csrfToken;
}

/** The token in use, shared by concurrent calls (one fetch for all of them); dropped when refused. */
let csrfTokenLoad: Promise<string> | null = null;

function csrfToken(): Promise<string> {
  if (csrfTokenLoad) return csrfTokenLoad;
  const load = fetchCsrfToken();
  csrfTokenLoad = load;
  // A failed fetch is not kept: the next call asks again.
  load.catch(() => {
    if (csrfTokenLoad === load) csrfTokenLoad = null;
  });
  return load;
}

function isCsrfRefusal(error: ApiError): boolean {
  return error.status === 403 && error.message === MESSAGES.csrf;
}

async function call(
  method: string,
  path: string,
  accept: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
  retried = false,
): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, Accept: accept };
  const token = method === 'GET' ? null : csrfToken();
  if (token) headers['X-CSRF-Token'] = await token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return response;
  const error = await errorFrom(response);
  if (token && !retried && isCsrfRefusal(error)) {
    // Forget the refused token (unless a concurrent call already did and fetched a new one).
    if (csrfTokenLoad === token) csrfTokenLoad = null;
    return call(method, path, accept, body, extraHeaders, true);
  }
  throw error;
}

const JSON_ANSWER = 'application/json';

/** The answer, parsed with the contract's schema of it: what the server promised, or a thrown error. */
async function parsed<T>(answer: ZodType<T>, response: Promise<Response>): Promise<T> {
  return answer.parse(await readJson(await response));
}

/**
 * The calls, each path from contract/routes.ts and each answer parsed with its schema from contract/api.ts
 * (the features' api/ folders name them per endpoint).
 */
export const api = {
  /** `headers`: extra request headers (e.g. the analytics client id of the pricing calls). */
  get: <T>(path: string, answer: ZodType<T>, headers?: Record<string, string>) =>
    parsed(answer, call('GET', path, JSON_ANSWER, undefined, headers)),
  post: <T>(path: string, body: unknown, answer: ZodType<T>, headers?: Record<string, string>) =>
    parsed(answer, call('POST', path, JSON_ANSWER, body ?? {}, headers)),
  put: <T>(path: string, body: unknown, answer: ZodType<T>) =>
    parsed(answer, call('PUT', path, JSON_ANSWER, body ?? {})),
  delete: <T>(path: string, answer: ZodType<T>) => parsed(answer, call('DELETE', path, JSON_ANSWER)),
  /** A call whose answer the screens do not read: it succeeds or throws. */
  send: async (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<void> => {
    await call(method, path, JSON_ANSWER, method === 'DELETE' ? body : (body ?? {}));
  },
  /**
   * A GET of the first page of every visit (the session status, the public configuration), not parsed:
   * the schemas and their library load only with the screens that need them, never with the landing page.
   */
  getUnparsed: async <T>(path: string): Promise<T> =>
    (await readJson(await call('GET', path, JSON_ANSWER))) as T,
  /** POST whose answer is read as text (e.g. sanitized `text/html`); a failure still carries `{message}`. */
  postText: async (path: string, body?: unknown) =>
    (await call('POST', path, 'text/html, text/plain;q=0.9, */*;q=0.1', body ?? {})).text(),
};

/** The server's message of a failed call, or the screen's default when it gave none. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

/** The `redirectUrl` a failed call carried (a 401 asking to re-authenticate), or null. */
export function redirectUrlOf(error: unknown): string | null {
  return (error instanceof ApiError && error.details.redirectUrl) || null;
}

// The words of a failed call (docs/decisions/098-failures-say-why.md): the spec's text leads (contract ALERTS),
// the server's reason follows when the answer carried one.

/**
 * `lead` and the server's message of `error` (or `fallback` when it gave none), as one text: "Failed to
 * process the unsubscription request: Could not reach the mail server at imap.example:993." (a trailing "..."
 * of the lead gives way to the colon). No reason, or one the lead already holds: the lead alone.
 */
export function failureText(lead: string, error: unknown, fallback?: string): string {
  const reason = (error instanceof ApiError && error.message.trim()) || fallback;
  return !reason || lead.includes(reason) ? lead : `${lead.replace(/(\.\.\.|…)$/, '')}: ${reason}`;
}
