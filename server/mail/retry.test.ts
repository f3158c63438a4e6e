import { describe, expect, it } from 'vitest';
import { backoffMs, parseRetryAfter } from './retry.js';

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
