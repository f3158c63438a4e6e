import { readFile } from 'node:fs/promises';
import type pg from 'pg';

// CPU time of the processes a bench starts or talks to, from /proc (Linux): the figures beside each
// bench's throughput say where the time went.

/** utime, stime, cutime and cstime of a process (ms; 0 when it is gone). */
export async function cpuTimes(pid: number): Promise<{ own: number; children: number }> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { own: (f[11]! + f[12]!) * 10, children: (f[13]! + f[14]!) * 10 };
  } catch {
    return { own: 0, children: 0 };
  }
}

/**
 * CPU (ms) of the PostgreSQL backends serving the pool's database, by backend: the product's pools keep
 * their connections while busy, so the difference of two readings is its share (a backend that ended
 * between them is missed: an underestimate).
 */
export async function postgresMs(db: pg.Pool): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  return new Map(await Promise.all(rows.map(async (r) => [r.pid, (await cpuTimes(r.pid)).own] as const)));
}

/** The backends' CPU (ms) between two readings of postgresMs. */
export const postgresDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
