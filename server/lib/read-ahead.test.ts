import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

/** A source that logs when each item is asked for and when it ends. */
function source(items: number[], log: string[], failAt?: number) {
  return (async function* () {
    try {
      for (const item of items) {
        log.push(`pull ${item}`);
        await new Promise((r) => setTimeout(r, 1));
        if (item === failAt) throw new Error(`source failed at ${item}`);
        yield item;
      }
    } finally {
      log.push('source ended');
    }
  })();
}

describe('readAhead', () => {
  it('asks for the next item while the consumer works on the current one, in order', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    for await (const item of readAhead(source([1, 2, 3], log))) {
      log.push(`work ${item}`);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(item);
    }
    expect(seen).toEqual([1, 2, 3]);
    // Item 2 is pulled before item 1's work starts, not after it ends.
    expect(log.slice(0, 3)).toEqual(['pull 1', 'pull 2', 'work 1']);
    // The source is asked for its end while item 3 is worked on.
    expect(log.slice(-2)).toEqual(['source ended', 'work 3']);
  });

  it('ends the source after its pending pull when the consumer stops early', async () => {
    const log: string[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(source([1, 2, 3, 4], log))) {
          if (item === 2) throw new Error('commit failed');
        }
      })(),
    ).rejects.toThrow('commit failed');
    // Item 3 was being pulled when the consumer failed: it is waited for, then the source ends; 4 is never asked for.
    expect(log).toEqual(['pull 1', 'pull 2', 'pull 3', 'source ended']);
  });

  it('reports a failed pull when the consumer gets to it, after the items before it', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(source([1, 2, 3], log, 2))) seen.push(item);
      })(),
    ).rejects.toThrow('source failed at 2');
    expect(seen).toEqual([1]);
  });

  it('passes an empty source through', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    for await (const item of readAhead(source([], log))) seen.push(item);
    expect(seen).toEqual([]);
    expect(log).toEqual(['source ended']);
  });
});
