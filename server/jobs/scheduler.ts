// Enqueues the check of every mailbox that is due: at start (which also resumes the scans and checks
// a stopped process left unfinished) and then on a timer. Each mailbox is checked every SCAN_INTERVAL, at
// a time of its own within the interval (its phase), so that N mailboxes are checked at a steady N per
// interval instead of all at the minute they were added (docs/decisions/086-fair-checks-and-worker-faults.md).

export interface Scheduler {
  stop(): void;
}

/** Ticks of an interval longer than a minute: at least 60 of them, each at most a minute long. */
const TICKS_PER_INTERVAL = 60;
const MAX_TICK_MS = 60_000;
const MIN_TICK_MS = 1000;

/**
 * Where in each interval a mailbox's check falls, in ms from the start of an interval counted from the
 * epoch: taken from a hash of its id, so stable across restarts and the same in every scheduler process.
 */
export function checkPhase(id: string, intervalMs: number): number {
  // FNV-1a: every tick hashes the id of every mailbox not checked since the last tick.
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return Math.floor(((hash >>> 0) / 2 ** 32) * intervalMs);
}

/**
 * How the scheduler of `intervalMs` ticks. An interval of a minute or less (tests, the weekly report's look
 * every minute) is one tick, at which everything due is enqueued. A longer one is cut into ticks aligned on
 * the clock (every scheduler process ticks at the same instants), and each mailbox is enqueued at the tick
 * its phase falls in; `graceMs` later than a whole interval after its last check it is overdue (a missed
 * tick, a failed check) and enqueued at every tick until checked.
 */
export function schedulerTiming(intervalMs: number): { tickMs: number; spread: boolean; graceMs: number } {
  if (intervalMs <= MAX_TICK_MS)
    return { tickMs: Math.max(MIN_TICK_MS, intervalMs), spread: false, graceMs: 0 };
  const tickMs = Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, Math.floor(intervalMs / TICKS_PER_INTERVAL)));
  return { tickMs, spread: true, graceMs: Math.min(5 * 60_000, Math.floor(intervalMs / 10)) };
}

export function startScheduler(options: {
  intervalMs: number;
  /** Ids last checked at least this long ago, or never checked in full. */
  due: (intervalMs: number) => Promise<string[]>;
  /** Mailboxes a stopped process left mid-scan or mid-check: enqueued once, at start, whatever their age. */
  interrupted?: () => Promise<string[]>;
  enqueue: (mailboxId: string) => Promise<void>;
  onError: (error: unknown) => void;
  now?: () => number;
}): Scheduler {
  const { intervalMs, now = Date.now } = options;
  const { tickMs, spread, graceMs } = schedulerTiming(intervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** The last tick instant whose phases were enqueued. */
  let previous = Math.floor(now() / tickMs) * tickMs - tickMs;

  /** Whether `phase` falls in (from, to] of the interval's cycle. */
  const inWindow = (phase: number, from: number, to: number) => {
    if (to - from >= intervalMs) return true;
    const since = (((phase - from) % intervalMs) + intervalMs) % intervalMs;
    return since > 0 && since <= to - from;
  };

  const dueNow = async (): Promise<string[]> => {
    if (!spread) return options.due(intervalMs);
    const at = Math.floor(now() / tickMs) * tickMs;
    const from = previous;
    previous = Math.max(previous, at);
    // Overdue ones (never checked in full, or past their interval by the grace), then those whose phase
    // came since the last tick and that were not checked since it.
    const ids = new Set(await options.due(intervalMs + graceMs));
    if (at > from) {
      for (const id of await options.due(Math.max(0, now() - from))) {
        if (inWindow(checkPhase(id, intervalMs), from, at)) ids.add(id);
      }
    }
    return [...ids];
  };

  const tick = async (atStart: boolean) => {
    try {
      const ids = new Set(atStart ? ((await options.interrupted?.()) ?? []) : []);
      for (const id of await dueNow()) ids.add(id);
      for (const id of ids) {
        if (stopped) return;
        await options.enqueue(id);
      }
    } catch (error) {
      options.onError(error);
    }
  };

  /** The next tick at the next instant of the clock's tick grid (spread), else a tick's time from now. */
  const schedule = () => {
    if (stopped) return;
    const wait = spread ? tickMs - (now() % tickMs) + 5 : tickMs;
    timer = setTimeout(() => void tick(false).finally(schedule), wait);
    timer.unref();
  };
  void tick(true).finally(schedule);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
