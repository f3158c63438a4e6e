// How a bulk action spreads its work (docs/decisions/047-bulk-actions-run-as-jobs.md): at most `total` items
// at once overall, and at most `perHost` at once against the same host, so a bulk of 300 senders of one
// newsletter platform, or 300 blocks in one mailbox, never hits one server with more than a couple of
// requests at a time. Items wait in the order they were given; a later item of a free host may start
// before an earlier one whose host is busy.

export interface HostLimits {
  total: number;
  perHost: number;
}

/**
 * Runs `task` for every item, keyed by `hostOf(item)`, within the limits. Resolves when every task has
 * settled; a task that throws does not stop the others (callers record their own failures).
 */
export async function runWithHostLimits<T>(
  items: readonly T[],
  hostOf: (item: T) => string,
  limits: HostLimits,
  task: (item: T) => Promise<void>,
): Promise<void> {
  if (!(limits.total >= 1) || !(limits.perHost >= 1)) throw new Error('limits must be at least 1');
  const waiting = items.map((item) => ({ item, host: hostOf(item) }));
  const busy = new Map<string, number>();
  let running = 0;
  return new Promise<void>((resolve) => {
    const pump = () => {
      if (waiting.length === 0 && running === 0) {
        resolve();
        return;
      }
      for (let i = 0; i < waiting.length && running < limits.total; ) {
        const next = waiting[i]!;
        if ((busy.get(next.host) ?? 0) >= limits.perHost) {
          i += 1;
          continue;
        }
        waiting.splice(i, 1);
        running += 1;
        busy.set(next.host, (busy.get(next.host) ?? 0) + 1);
        void Promise.resolve()
          .then(() => task(next.item))
          .catch(() => {})
          .finally(() => {
            running -= 1;
            const left = (busy.get(next.host) ?? 1) - 1;
            if (left === 0) busy.delete(next.host);
            else busy.set(next.host, left);
            pump();
          });
      }
    };
    pump();
  });
}
