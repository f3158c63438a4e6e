import { describe, expect, it } from 'vitest';
import { runWithHostLimits } from './limiter.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs items that each take `ms`, recording the most running at once overall and per host. */
async function measure(hosts: string[], limits: { total: number; perHost: number }, ms = 5) {
  let running = 0;
  let maxRunning = 0;
  const perHost = new Map<string, number>();
  const maxPerHost = new Map<string, number>();
  const order: number[] = [];
  await runWithHostLimits(
    hosts.map((host, i) => ({ host, i })),
    (item) => item.host,
    limits,
    async ({ host, i }) => {
      order.push(i);
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      maxPerHost.set(host, Math.max(maxPerHost.get(host) ?? 0, perHost.get(host)!));
      await tick(ms);
      running -= 1;
      perHost.set(host, perHost.get(host)! - 1);
    },
  );
  return { maxRunning, maxPerHost, order };
}

describe('runWithHostLimits', () => {
  it('never runs more than the total at once, nor more than perHost against one host', async () => {
    const hosts = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? `h${i % 3}` : 'same.example'));
    const { maxRunning, maxPerHost, order } = await measure(hosts, { total: 4, perHost: 2 });
    expect(maxRunning).toBe(4);
    expect(maxPerHost.get('same.example')).toBe(2);
    for (const n of maxPerHost.values()) expect(n).toBeLessThanOrEqual(2);
    expect([...order].sort((a, b) => a - b)).toEqual(hosts.map((_, i) => i));
  });

  it('lets items of free hosts pass an item whose host is busy', async () => {
    const { order } = await measure(['a', 'a', 'a', 'b'], { total: 4, perHost: 2 });
    expect(order.slice(0, 3)).toEqual([0, 1, 3]);
    expect(order[3]).toBe(2);
  });

  it('goes on after a task that throws, and resolves for an empty list', async () => {
    const done: number[] = [];
    await runWithHostLimits(
      [1, 2, 3],
      () => 'h',
      { total: 2, perHost: 1 },
      async (n) => {
        if (n === 1) throw new Error('boom');
        done.push(n);
      },
    );
    expect(done).toEqual([2, 3]);
    await expect(
      runWithHostLimits(
        [],
        () => 'h',
        { total: 1, perHost: 1 },
        async () => {},
      ),
    ).resolves.toBe(undefined);
  });
});
