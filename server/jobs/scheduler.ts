// Enqueues the check of every mailbox that is due: at start (which also resumes the scans and checks
// a stopped process left unfinished) and then on a timer. Each mailbox is checked every SCAN_INTERVAL.

export interface Scheduler {
  stop(): void;
}

export function startScheduler(options: {
  intervalMs: number;
  due: (intervalMs: number) => Promise<string[]>;
  /** Mailboxes a stopped process left mid-scan or mid-check: enqueued once, at start, whatever their age. */
  interrupted?: () => Promise<string[]>;
  enqueue: (mailboxId: string) => Promise<void>;
  onError: (error: unknown) => void;
}): Scheduler {
  const tickMs = Math.max(1000, Math.min(options.intervalMs, 60_000));
  let stopped = false;
  const tick = async (atStart: boolean) => {
    try {
      const ids = new Set(atStart ? ((await options.interrupted?.()) ?? []) : []);
      for (const id of await options.due(options.intervalMs)) ids.add(id);
      for (const id of ids) {
        if (stopped) return;
        await options.enqueue(id);
      }
    } catch (error) {
      options.onError(error);
    }
  };
  void tick(true);
  const timer = setInterval(() => void tick(false), tickMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
