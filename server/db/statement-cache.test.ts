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

  it('answers all() with the same row objects better-sqlite3 makes', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec(
      "create table t (id text, n integer, x real, b blob, z); insert into t values ('a', 1, 1.5, x'00ff', null), ('b', 2, -0.5, null, 'q')",
    );
    const cached = withStatementCache(sqlite);
    for (const query of [
      'select * from t order by id',
      'select id, n as id from t order by id', // a later column of the same name wins
      'select t.id, u.id, u.n from t join t as u on u.n = t.n order by t.id',
      'select count(*) as c, sum(n) from t',
      'select id as "__proto__", n as "constructor", x as "a""b" from t order by id',
      'select * from t where id = ?',
    ]) {
      const expected = sqlite.prepare(query).all(...(query.includes('?') ? ['b'] : []));
      const actual = cached.prepare(query).all(...(query.includes('?') ? ['b'] : []));
      expect(actual).toEqual(expected);
      for (const [row, want] of (actual as object[]).map((r, i) => [r, (expected as object[])[i]!])) {
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        expect(Object.keys(row!)).toEqual(Object.keys(want!));
      }
    }
    expect(cached.prepare('select * from t where id = ?').all('nobody')).toEqual([]);
  });

  it('keeps iterate() and get() reading objects', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2)');
    const cached = withStatementCache(sqlite);
    const statement = cached.prepare('select n from t order by n');
    expect(statement.all()).toEqual([{ n: 1 }, { n: 2 }]);
    expect([...(statement.iterate() as IterableIterator<unknown>)]).toEqual([{ n: 1 }, { n: 2 }]);
    expect(statement.get()).toEqual({ n: 1 });
    expect(statement.all()).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('names a renamed column after DDL run through it', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (a integer); insert into t values (1)');
    const cached = withStatementCache(sqlite);
    expect(cached.prepare('select * from t').all()).toEqual([{ a: 1 }]);
    cached.prepare('alter table t rename column a to b').run();
    expect(cached.prepare('select * from t').all()).toEqual([{ b: 1 }]);
  });
});
