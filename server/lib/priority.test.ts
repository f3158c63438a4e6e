import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The nice value of every thread of a child node that called lowerPriority, read from /proc by the
// kernel's own account (field 19 of /proc/<pid>/task/<tid>/stat), before and after it starts a thread.
// 19, the lowest priority, is always allowed whatever the runner's own nice value.
describe.runIf(process.platform === 'linux')('lowerPriority', () => {
  it('lowers every thread of the process, and threads started afterwards inherit it', () => {
    const script = `
      const { readdirSync, readFileSync } = require('node:fs');
      const { Worker } = require('node:worker_threads');
      const nices = () => readdirSync('/proc/self/task').map((t) =>
        Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
      require('tsx/cjs');
      const { lowerPriority } = require(${JSON.stringify(new URL('./priority.ts', import.meta.url).pathname)});
      const before = nices();
      const error = lowerPriority(19);
      const after = nices();
      const w = new Worker('setTimeout(() => {}, 200)', { eval: true });
      w.on('online', () => {
        console.log(JSON.stringify({ before, error: String(error), after, withThread: nices() }));
        w.terminate();
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(out.error).toBe('null');
    expect(out.before.length).toBeGreaterThan(1);
    expect(new Set(out.after)).toEqual(new Set([19]));
    expect(out.withThread.length).toBeGreaterThan(out.after.length);
    expect(new Set(out.withThread)).toEqual(new Set([19]));
  });
});
