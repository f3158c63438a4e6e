import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkPhase, type Scheduler, schedulerTiming, startScheduler } from './scheduler.js';

// The scheduler against a model of the mailboxes table: `due` answers from each mailbox's last check, and
// an enqueued check completes at once. The clock is vitest's.

const HOUR = 3_600_000;
const INTERVAL = 24 * HOUR;

interface Model {
  last: Map<string, number | null>;
  checks: Array<{ id: string; at: number }>;
  /** Checks of a mailbox fail (its server hangs) while it is in here. */
  failing: Set<string>;
}

function model(ids: string[], lastAt: number | null): Model {
  return { last: new Map(ids.map((id) => [id, lastAt])), checks: [], failing: new Set() };
}

function schedule(m: Model, intervalMs = INTERVAL): Scheduler {
  return startScheduler({
    intervalMs,
    due: async (ms) => [...m.last].filter(([, at]) => at === null || at <= Date.now() - ms).map(([id]) => id),
    enqueue: async (id) => {
      m.checks.push({ id, at: Date.now() });
      if (!m.failing.has(id)) m.last.set(id, Date.now());
    },
    onError: (error) => {
      throw error;
    },
  });
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the scheduler', () => {
  let scheduler: Scheduler | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 2, 9, 0, 0) });
  });
  afterEach(() => {
    scheduler?.stop();
    vi.useRealTimers();
  });

  it('ticks every minute for a daily interval, and keeps one tick per interval of a minute or less', () => {
    expect(schedulerTiming(INTERVAL)).toEqual({ tickMs: 60_000, spread: true, graceMs: 300_000 });
    expect(schedulerTiming(90_000)).toEqual({ tickMs: 1500, spread: true, graceMs: 9000 });
    expect(schedulerTiming(60_000).spread).toBe(false);
    expect(schedulerTiming(1000)).toEqual({ tickMs: 1000, spread: false, graceMs: 0 });
  });

  it('spreads mailboxes checked at the same minute over the next interval, then keeps each at its own time', async () => {
    const ids = Array.from({ length: 1440 }, () => randomUUID());
    // All added, and first scanned, at the same minute: their checks would all fall at this minute daily.
    const m = model(ids, Date.now() - 60_000);
    scheduler = schedule(m);
    await flush();
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);

    // Every hour of both days has its share (1440 mailboxes / 24 h = 60 an hour; a hash is not exact).
    for (let hour = 0; hour < 48; hour++) {
      const n = m.checks.filter(
        (c) => c.at > start + hour * HOUR && c.at <= start + (hour + 1) * HOUR,
      ).length;
      expect(n, `checks in hour ${hour}`).toBeGreaterThan(20);
      expect(n, `checks in hour ${hour}`).toBeLessThan(110);
    }
    for (const id of ids) {
      const times = m.checks.filter((c) => c.id === id).map((c) => c.at);
      // Never less often than the interval: the first check within it, then one every interval exactly.
      expect(times.length).toBe(2);
      expect(times[0]! - start).toBeLessThanOrEqual(INTERVAL);
      // (The ticks fall 5 ms past the clock's minutes; the first one at the start.)
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(INTERVAL);
      expect(times[1]! - times[0]!).toBeLessThanOrEqual(INTERVAL + 5);
      // At its phase, to the minute.
      const phase = checkPhase(id, INTERVAL);
      expect((((times[0]! - phase) % INTERVAL) + INTERVAL) % INTERVAL).toBeLessThan(60_000 + 10);
    }
  }, 60_000);

  it('checks a new mailbox, and one whose check failed, without waiting for its phase', async () => {
    const settled = randomUUID();
    const m = model([settled], Date.now());
    scheduler = schedule(m);
    await flush();
    // A mailbox added now (never scanned): at the next tick.
    const added = randomUUID();
    m.last.set(added, null);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(m.checks.map((c) => c.id)).toEqual([added]);

    // Its server hangs from now on: its next check (at its phase) fails, and it is tried again at every
    // tick from a grace period after a whole interval since its last check, not a whole interval later.
    m.failing.add(added);
    const lastGood = m.last.get(added)!;
    await vi.advanceTimersByTimeAsync(INTERVAL + 10 * 60_000);
    const tries = m.checks.filter((c) => c.id === added && c.at > lastGood).map((c) => c.at);
    expect(tries[0]! - lastGood).toBeLessThanOrEqual(INTERVAL);
    const overdue = tries.filter((at) => at - lastGood > INTERVAL);
    expect(overdue[0]! - lastGood).toBeLessThanOrEqual(INTERVAL + 5 * 60_000 + 60_000);
    expect(overdue.length).toBeGreaterThanOrEqual(4);
  });

  it('enqueues each mailbox at the same instants in two scheduler processes', async () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    const a = model(ids, Date.now());
    const b = model(ids, Date.now());
    const first = schedule(a);
    await vi.advanceTimersByTimeAsync(17_000);
    const second = schedule(b);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    first.stop();
    second.stop();
    const afterStart = (m: Model) => m.checks.filter((c) => c.at > Date.now() - INTERVAL + 60_000);
    // Both tick on the clock's minutes: each mailbox at the same minute in both.
    expect(afterStart(b)).toEqual(afterStart(a));
  });
});
