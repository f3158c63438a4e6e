import { MailConnectionError } from '../provider.js';

// The one retry policy of the HTTP mail clients (gmail/, graph/, and the JMAP one to come): how long the
// server asked to wait (Retry-After), else exponential backoff, capped; how many tries; and what a long
// Retry-After does. A request never sleeps through a wait longer than `maxRetryAfterMs`: it gives up at
// once with RetryLaterError (a MailConnectionError: the job is tried again later, as after an outage),
// so a worker is not held for minutes inside one call (docs/decisions/093-mail-port-contract.md).
// `retryRefused` is the one loop that sends again the part of a batch the server refused.

/**
 * Retry-After (RFC 9110 §10.2.3) in milliseconds from `now`: delay-seconds (a fraction is read too) or
 * an HTTP date (a date in the past is 0). Null when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

export interface Backoff {
  /** Wait after the first failed try; doubled after each further one. */
  baseMs: number;
  /** Ceiling of the doubled wait. */
  maxMs: number;
  /**
   * A random wait in the upper half of the doubled one, so the calls that one refusal turned back do not
   * all come again at the same moment.
   */
  jitter: boolean;
}

/** The wait after try number `attempt` (1 for the first) failed, when the server named none. */
export function backoffMs(attempt: number, { baseMs, maxMs, jitter }: Backoff): number {
  const wait = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return jitter ? wait / 2 + Math.random() * (wait / 2) : wait;
}

export interface RetryPolicy extends Backoff {
  /** Tries per request, the first included. */
  attempts: number;
  /** The longest Retry-After slept through; a longer one gives up at once with RetryLaterError. */
  maxRetryAfterMs: number;
}

/** What a refused try leads to: a wait before the next, or giving up (and why). */
export type RetryStep =
  | { retry: true; waitMs: number }
  | { retry: false; reason: 'attempts' }
  | { retry: false; reason: 'too-long'; retryAfterMs: number };

/** After try number `attempt` was refused, with the Retry-After the server named (ms) or none. */
export function nextRetry(policy: RetryPolicy, attempt: number, retryAfterMs: number | null): RetryStep {
  if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, reason: 'too-long', retryAfterMs };
  }
  if (attempt >= policy.attempts) return { retry: false, reason: 'attempts' };
  return { retry: true, waitMs: retryAfterMs ?? backoffMs(attempt, policy) };
}

/**
 * The server asked for a longer wait than a request sleeps through: retryable later (a MailConnectionError,
 * as any outage), with the wait asked for.
 */
export class RetryLaterError extends MailConnectionError {
  constructor(
    what: string,
    readonly retryAfterMs: number,
  ) {
    super(`${what}: asked to wait ${Math.ceil(retryAfterMs / 1000)} s; try again later`);
  }
}

/** One round of a partial batch: what the server refused (sent again) and the longest wait it named. */
export interface RefusedRound<T> {
  again: T[];
  /** The longest Retry-After among the refused (ms); null: none named, the policy's backoff. */
  retryAfterMs: number | null;
  /** Send again at once without using a try (a renewed access token); only when nothing asked to wait. */
  free?: boolean;
}

export interface RetryRefusedOptions {
  policy: RetryPolicy;
  /** For messages: "Gmail batch messages.get", "Microsoft Graph move". */
  what: string;
  sleep?: (ms: number) => Promise<void>;
  /** The error when the tries are used up with `left` items still refused (default MailConnectionError). */
  exhausted?: (left: number, attempt: number) => Error;
}

/**
 * The partial-batch retry loop: `round` sends what is pending and answers what was refused; only that is
 * sent again, after the longest Retry-After among it (else the policy's backoff), until nothing is left.
 * Gives up with RetryLaterError when the server asks for longer than the policy sleeps through, and with
 * `exhausted` when the tries are used up. What a round answered is the round's own to hand on.
 */
export async function retryRefused<T>(
  items: readonly T[],
  round: (pending: T[], attempt: number) => Promise<RefusedRound<T>>,
  { policy, what, sleep: wait = sleep, exhausted }: RetryRefusedOptions,
): Promise<void> {
  let pending = [...items];
  for (let attempt = 1; pending.length > 0; attempt++) {
    const refused = await round(pending, attempt);
    pending = refused.again;
    if (pending.length === 0) return;
    if (refused.free && refused.retryAfterMs === null) {
      attempt--;
      continue;
    }
    const step = nextRetry(policy, attempt, refused.retryAfterMs);
    if (step.retry) {
      await wait(step.waitMs);
      continue;
    }
    if (step.reason === 'too-long') throw new RetryLaterError(what, step.retryAfterMs);
    throw (
      exhausted?.(pending.length, attempt) ??
      new MailConnectionError(`${what}: ${pending.length} requests still refused after ${attempt} tries`)
    );
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
