/** An inclusive run of UIDs and how many messages it holds. */
export interface UidRange {
  lo: number;
  hi: number;
  count: number;
}

/** Reads an IMAP sequence set of UIDs ("3,5:9,12") into sorted, merged ranges. */
export function parseUidSet(set: string): UidRange[] {
  const pairs: Array<[number, number]> = [];
  for (const part of set.split(',')) {
    const text = part.trim();
    if (text === '') continue;
    const [a, b = a] = text.split(':');
    const lo = Number(a);
    const hi = Number(b);
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo < 1 || hi < 1) {
      throw new Error(`Unexpected UID set from the server: ${set.slice(0, 80)}`);
    }
    pairs.push(lo <= hi ? [lo, hi] : [hi, lo]);
  }
  return merge(pairs);
}

export function uidsToRanges(uids: readonly number[]): UidRange[] {
  return merge(uids.map((u) => [u, u]));
}

function merge(pairs: Array<[number, number]>): UidRange[] {
  pairs.sort((x, y) => x[0] - y[0]);
  const out: UidRange[] = [];
  for (const [lo, hi] of pairs) {
    const last = out.at(-1);
    if (last && lo <= last.hi + 1) {
      if (hi > last.hi) last.hi = hi;
      last.count = last.hi - last.lo + 1;
    } else {
      out.push({ lo, hi, count: hi - lo + 1 });
    }
  }
  return out;
}

/**
 * Cuts the UIDs into batches of at most `size` messages, highest first. Each batch is one contiguous UID
 * range, so it can be fetched as "lo:hi" however sparse the UIDs are, without listing them one by one.
 * `firstSize` (at most `size`) caps the first batch only: a scan's first answer comes back sooner.
 */
export function chunkDescending(ranges: readonly UidRange[], size: number, firstSize = size): UidRange[] {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error('batch size must be a positive integer');
  if (!Number.isSafeInteger(firstSize) || firstSize < 1)
    throw new Error('batch size must be a positive integer');
  const chunks: UidRange[] = [];
  let current: UidRange | null = null;
  for (let i = ranges.length - 1; i >= 0; i--) {
    const range = ranges[i]!;
    let hi = range.hi;
    while (hi >= range.lo) {
      if (!current) current = { lo: hi, hi, count: 0 };
      const limit = chunks.length === 0 ? Math.min(firstSize, size) : size;
      const take = Math.min(limit - current.count, hi - range.lo + 1);
      current.lo = hi - take + 1;
      current.count += take;
      hi -= take;
      if (current.count === limit) {
        chunks.push(current);
        current = null;
      }
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
