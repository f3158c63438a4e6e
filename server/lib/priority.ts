import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to `nice` (0 normal … 19 lowest; docs/decisions/087-worker-priority.md).
 * On Linux a nice value belongs to each thread, and a new thread takes its creator's: every thread the
 * process has now (V8's platform threads among them) is set, and the ones started later (the scan thread,
 * libuv's pool) inherit it from the main thread. Elsewhere the process's own call is all there is.
 * Lowering needs no privilege; a failure is returned for the caller to log, and the process runs on.
 */
export function lowerPriority(nice: number): Error | null {
  try {
    let tasks: string[] = [];
    try {
      tasks = readdirSync('/proc/self/task');
    } catch {
      // No /proc: not Linux.
    }
    if (tasks.length === 0) {
      setPriority(0, nice);
      return null;
    }
    for (const task of tasks) setPriority(Number(task), nice);
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
