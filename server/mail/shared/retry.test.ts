import { describe, expect, it } from 'vitest';
import { MailConnectionError } from '../provider.js';
import {
  backoffMs,
  nextRetry,
  parseRetryAfter,
  type RefusedRound,
  RetryLaterError,
  type RetryPolicy,
  retryRefused,
} from './retry.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-07-01T10:00:00Z');

  it('reads delay-seconds, fractions included', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date, a past one as no wait', () => {
    expect(parseRetryAfter('Tue, 01 Jul 2025 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 01 Jul 2025 09:00:00 GMT', now)).toBe(0);
  });

  it('is null when absent or unreadable', () => {
    for (const value of [null, undefined, '', '  ', 'soon']) expect(parseRetryAfter(value, now)).toBeNull();
  });
});

describe('backoffMs', () => {
  it('doubles from the base up to the cap', () => {
    const policy = { baseMs: 1000, maxMs: 5000, jitter: false };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, policy))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });

  it('with jitter, waits somewhere in the upper half', () => {
    const policy = { baseMs: 1000, maxMs: 32_000, jitter: true };
    for (let i = 0; i < 50; i++) {
      const wait = backoffMs(3, policy);
      expect(wait).toBeGreaterThanOrEqual(2000);
      expect(wait).toBeLessThanOrEqual(4000);
    }
  });
});

const POLICY: RetryPolicy = { attempts: 3, baseMs: 100, maxMs: 1000, jitter: false, maxRetryAfterMs: 60_000 };

describe('nextRetry', () => {
  it('waits as long as Retry-After asks, up to the cap, else the backoff', () => {
    expect(nextRetry(POLICY, 1, 2000)).toEqual({ retry: true, waitMs: 2000 });
    expect(nextRetry(POLICY, 1, 60_000)).toEqual({ retry: true, waitMs: 60_000 });
    expect(nextRetry(POLICY, 2, null)).toEqual({ retry: true, waitMs: 200 });
    expect(nextRetry(POLICY, 1, 0)).toEqual({ retry: true, waitMs: 0 });
  });

  it('gives up when the tries are used up', () => {
    expect(nextRetry(POLICY, 3, null)).toEqual({ retry: false, reason: 'attempts' });
    expect(nextRetry(POLICY, 3, 10)).toEqual({ retry: false, reason: 'attempts' });
  });

  it('gives up at once, on any try, when Retry-After is longer than the cap', () => {
    expect(nextRetry(POLICY, 1, 60_001)).toEqual({ retry: false, reason: 'too-long', retryAfterMs: 60_001 });
    expect(nextRetry(POLICY, 3, 3_600_000)).toEqual({
      retry: false,
      reason: 'too-long',
      retryAfterMs: 3_600_000,
    });
  });
});

describe('RetryLaterError', () => {
  it('is a MailConnectionError (retried later, as an outage) that says how long was asked', () => {
    const err = new RetryLaterError('Microsoft Graph', 3_600_000);
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(err.kind).toBe('connection');
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(err.message).toBe('Microsoft Graph: asked to wait 3600 s; try again later');
  });
});

describe('retryRefused', () => {
  /** A round refusing what `refuse` names on each try, with that try's Retry-After. */
  function rounds(script: Array<{ refuse: number[]; retryAfterMs?: number | null; free?: boolean }>) {
    const sent: number[][] = [];
    const round = async (pending: number[]): Promise<RefusedRound<number>> => {
      sent.push(pending);
      const { refuse, retryAfterMs = null, free } = script[sent.length - 1] ?? { refuse: [] };
      return { again: pending.filter((n) => refuse.includes(n)), retryAfterMs, ...(free ? { free } : {}) };
    };
    return { sent, round };
  }

  it('sends again only what was refused, after the wait asked for, else the backoff', async () => {
    const waits: number[] = [];
    const { sent, round } = rounds([{ refuse: [2, 3], retryAfterMs: 1500 }, { refuse: [3] }, { refuse: [] }]);
    await retryRefused([1, 2, 3], round, {
      policy: POLICY,
      what: 'test',
      sleep: async (ms) => void waits.push(ms),
    });
    expect(sent).toEqual([[1, 2, 3], [2, 3], [3]]);
    expect(waits).toEqual([1500, 200]);
  });

  it('does not use a try for a free round (a renewed token)', async () => {
    const waits: number[] = [];
    const { sent, round } = rounds([
      { refuse: [1], free: true },
      { refuse: [1] },
      { refuse: [1] },
      { refuse: [] },
    ]);
    await retryRefused([1], round, {
      policy: POLICY,
      what: 'test',
      sleep: async (ms) => void waits.push(ms),
    });
    expect(sent).toHaveLength(4);
    expect(waits).toEqual([100, 200]);
  });

  it('gives up with RetryLaterError rather than sleep through a long Retry-After', async () => {
    const waits: number[] = [];
    const { sent, round } = rounds([{ refuse: [1], retryAfterMs: 3_600_000 }]);
    const err = await retryRefused([1, 2], round, {
      policy: POLICY,
      what: 'Gmail batch messages.get',
      sleep: async (ms) => void waits.push(ms),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect((err as RetryLaterError).retryAfterMs).toBe(3_600_000);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up with the caller’s error, else a MailConnectionError, when the tries are used up', async () => {
    const always = rounds([{ refuse: [1] }, { refuse: [1] }, { refuse: [1] }]);
    const options = { policy: POLICY, what: 'test', sleep: async () => {} };
    await expect(retryRefused([1], always.round, options)).rejects.toThrow(
      'test: 1 requests still refused after 3 tries',
    );
    expect(always.sent).toHaveLength(3);
    const again = rounds([{ refuse: [1] }, { refuse: [1] }, { refuse: [1] }]);
    await expect(
      retryRefused([1], again.round, { ...options, exhausted: (left) => new Error(`${left} left`) }),
    ).rejects.toThrow('1 left');
  });

  it('sends nothing for no items', async () => {
    const { sent, round } = rounds([]);
    await retryRefused([], round, { policy: POLICY, what: 'test' });
    expect(sent).toEqual([]);
  });
});
