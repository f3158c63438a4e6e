import { describe, expect, it } from 'vitest';
import { createStampedCache } from './stamped-cache.js';

describe('createStampedCache', () => {
  it('gives the value again while the stamp holds and the entry is young, and works it out afresh otherwise', async () => {
    let clock = 1_000;
    const cache = createStampedCache<number>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    let runs = 0;
    const compute = async () => ++runs;
    expect(await cache.get('a', 's1', compute)).toBe(1);
    expect(await cache.get('a', 's1', compute)).toBe(1);
    expect(await cache.get('a', 's2', compute)).toBe(2);
    clock += 99;
    expect(await cache.get('a', 's2', compute)).toBe(2);
    clock += 1;
    expect(await cache.get('a', 's2', compute)).toBe(3);
    expect(await cache.get('b', 's2', compute)).toBe(4);
  });

  it('shares one computation between callers of the same key and stamp, not of another stamp', async () => {
    const cache = createStampedCache<string>({ ttlMs: 1_000, maxEntries: 10 });
    let runs = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compute = async () => {
      runs += 1;
      await gate;
      return `v${runs}`;
    };
    const together = [
      cache.get('k', 's', compute),
      cache.get('k', 's', compute),
      cache.get('k', 't', compute),
    ];
    release();
    expect(await Promise.all(together)).toEqual(['v2', 'v2', 'v2']);
    expect(runs).toBe(2);
  });

  it('keeps no failed computation, and at most maxEntries values', async () => {
    const cache = createStampedCache<number>({ ttlMs: 1_000, maxEntries: 2 });
    await expect(cache.get('x', 's', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('x', 's', async () => 1)).toBe(1);
    await cache.get('y', 's', async () => 2);
    await cache.get('z', 's', async () => 3);
    // x was the oldest: worked out again; z is still kept.
    expect(await cache.get('x', 's', async () => 10)).toBe(10);
    expect(await cache.get('z', 's', async () => 30)).toBe(3);
  });
});
