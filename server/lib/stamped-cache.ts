/**
 * Values worked out per key and given again while the key's stamp (a string that changes when the value
 * may have) stays the same, for at most `ttlMs`. At most `maxEntries` are kept, the least recently worked
 * out going first. Callers asking for the same key and stamp while it is being worked out share that one
 * computation. Used for the per-user reads that cost what the user's whole mailbox costs
 * (docs/decisions/083-insights.md, docs/decisions/088-brand-pages.md).
 */
export function createStampedCache<V>({
  ttlMs,
  maxEntries,
  now = Date.now,
}: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}) {
  const entries = new Map<string, { stamp: string; at: number; value: V }>();
  const running = new Map<string, { stamp: string; value: Promise<V> }>();

  return {
    async get(key: string, stamp: string, compute: () => Promise<V>): Promise<V> {
      const at = now();
      const hit = entries.get(key);
      if (hit && hit.stamp === stamp && at - hit.at < ttlMs) return hit.value;
      const shared = running.get(key);
      if (shared && shared.stamp === stamp) return shared.value;
      const value = compute();
      running.set(key, { stamp, value });
      try {
        const settled = await value;
        entries.delete(key);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, { stamp, at, value: settled });
        return settled;
      } finally {
        if (running.get(key)?.value === value) running.delete(key);
      }
    },
  };
}
