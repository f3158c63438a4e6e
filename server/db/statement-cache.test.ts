import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './index.js';

describe('withStatementCache', () => {
  let sqlite: SQLite.Database;
  afterEach(() => {
    if (sqlite.open) sqlite.close();
  });

  it('prepares a query once, and again after it was dropped as least recently used', () => {
    sqlite = new SQLite(':memory:');
    const cached = withStatementCache(sqlite, 2);
    const a = cached.prepare('select 1 as n');
    expect(cached.prepare('select 1 as n')).toBe(a);
    const b = cached.prepare('select 2 as n');
    expect(cached.prepare('select 1 as n')).toBe(a); // a is now the most recent
    cached.prepare('select 3 as n'); // drops b
    expect(cached.prepare('select 1 as n')).toBe(a);
    expect(cached.prepare('select 2 as n')).not.toBe(b);
    expect((cached.prepare('select 2 as n').get() as { n: number }).n).toBe(2);
  });

  it('gives a fresh statement while the kept one is being iterated', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const cached = withStatementCache(sqlite);
    const sql = 'select n from t order by n';
    const outer = cached.prepare(sql);
    const seen: number[][] = [];
    for (const row of outer.iterate() as IterableIterator<{ n: number }>) {
      const inner = cached.prepare(sql);
      expect(inner).not.toBe(outer);
      seen.push([row.n, (inner.all() as Array<{ n: number }>).length]);
    }
    expect(seen).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(cached.prepare(sql)).toBe(outer);
  });

  it('sees a column a later migration added', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (a integer); insert into t values (1)');
    const cached = withStatementCache(sqlite);
    expect(cached.prepare('select * from t').all()).toEqual([{ a: 1 }]);
    sqlite.exec('alter table t add column b integer default 7');
    expect(cached.prepare('select * from t').all()).toEqual([{ a: 1, b: 7 }]);
  });
});
