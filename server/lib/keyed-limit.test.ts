import { describe, expect, it } from 'vitest';
import { keyedLimit } from './keyed-limit.js';

describe('keyedLimit', () => {
  it('runs at most n tasks of a key at once, the rest in order, other keys beside them', async () => {
    const limit = keyedLimit(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates: Array<() => void> = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        order.push(n);
        gates.push(() => {
          running -= 1;
          resolve(n);
        });
      });
    const all = [1, 2, 3, 4, 5].map((n) => limit('a', task(n)));
    const other = limit('b', async () => 'b');
    await expect(other).resolves.toBe('b');
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = keyedLimit(1);
    await expect(limit('k', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(limit('k', async () => 'yes')).resolves.toBe('yes');
  });
});
