import { describe, expect, it } from 'vitest';
import { chunkDescending, parseUidSet, uidsToRanges } from './uid-set.js';

describe('UID sets', () => {
  it('reads a compact ESEARCH set into sorted, merged ranges', () => {
    expect(parseUidSet('')).toEqual([]);
    expect(parseUidSet('12,3,5:9,10')).toEqual([
      { lo: 3, hi: 3, count: 1 },
      { lo: 5, hi: 10, count: 6 },
      { lo: 12, hi: 12, count: 1 },
    ]);
    // RFC 3501 allows a range written high to low.
    expect(parseUidSet('9:5')).toEqual([{ lo: 5, hi: 9, count: 5 }]);
  });

  it('rejects a set that is not made of UIDs', () => {
    expect(() => parseUidSet('1:*')).toThrow(/Unexpected UID set/);
    expect(() => parseUidSet('0')).toThrow(/Unexpected UID set/);
  });

  it('turns a plain SEARCH answer into ranges', () => {
    expect(uidsToRanges([7, 1, 2, 3, 9, 8])).toEqual([
      { lo: 1, hi: 3, count: 3 },
      { lo: 7, hi: 9, count: 3 },
    ]);
  });

  it('cuts batches of the given size from the top down, across gaps', () => {
    const ranges = parseUidSet('1:5,100:103,1000');
    expect(chunkDescending(ranges, 4)).toEqual([
      { lo: 101, hi: 1000, count: 4 },
      { lo: 3, hi: 100, count: 4 },
      { lo: 1, hi: 2, count: 2 },
    ]);
    expect(chunkDescending(ranges, 100)).toEqual([{ lo: 1, hi: 1000, count: 10 }]);
    expect(chunkDescending([], 10)).toEqual([]);
    // A smaller first batch, then full ones; never larger than size.
    expect(chunkDescending(ranges, 4, 1)[0]).toEqual({ lo: 1000, hi: 1000, count: 1 });
    expect(chunkDescending(ranges, 4, 1).slice(1)).toEqual(
      chunkDescending(
        ranges.map((r) => (r.hi === 1000 ? { ...r, hi: r.hi - 1 } : r)),
        4,
      ),
    );
    expect(chunkDescending(ranges, 4, 40)).toEqual(chunkDescending(ranges, 4));
  });

  it('gives every UID to exactly one batch', () => {
    const ranges = parseUidSet('1:997,1200:1450,2000,2002:2999');
    const chunks = chunkDescending(ranges, 128);
    const inRanges = (u: number) => ranges.some((r) => u >= r.lo && u <= r.hi);
    const seen = new Set<number>();
    for (const c of chunks) {
      let n = 0;
      for (let u = c.lo; u <= c.hi; u++) {
        if (!inRanges(u)) continue;
        expect(seen.has(u)).toBe(false);
        seen.add(u);
        n++;
      }
      expect(n).toBe(c.count);
      expect(c.count).toBeLessThanOrEqual(128);
    }
    expect(seen.size).toBe(ranges.reduce((n, r) => n + r.count, 0));
    expect(chunks.map((c) => c.hi)).toEqual([...chunks.map((c) => c.hi)].sort((a, b) => b - a));
  });
});
