// Waiting before a retry, shared by the HTTP mail clients (gmail/, graph/): how long the server asked
// for (Retry-After), else exponential backoff, capped. What is retried, how often, and what happens to a
// wait longer than a client accepts stay each client's own policy.

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

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
