// A deterministic pseudo-random sequence (mulberry32) for the benches' data: every run lays out the same
// mailboxes and senders, so runs compare.

/** Numbers in [0, 1), the same sequence for the same seed. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
