import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './index.js';
import { preparedQueries } from './prepared.js';

interface Tables {
  t: { id: string; n: number; name: string | null };
}

describe('preparedQueries', () => {
  let db: Kysely<Tables>;
  afterEach(async () => db?.destroy());

  const open = async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec(
      "create table t (id text, n integer, name text); insert into t values ('a', 1, 'Ann'), ('b', 2, null), ('c', 3, 'Cid')",
    );
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    let compiled = 0;
    const prepared = preparedQueries(db);
    return {
      prepared: ((shape, values, build) =>
        prepared(shape, values, (v) => {
          compiled++;
          return build(v);
        })) as typeof prepared,
      compiled: () => compiled,
    };
  };

  it('builds a shape once and runs it with each call’s values, in their places', async () => {
    const { prepared, compiled } = await open();
    const query = (min: number, max: number, id: string) =>
      prepared('range', { min, max, id }, (v) =>
        db
          .selectFrom('t')
          .select(['id', 'n'])
          .where('n', '>=', v.min)
          .where('n', '<=', v.max)
          .where('id', '!=', v.id)
          .orderBy('n')
          .limit(10),
      );
    expect(await query(1, 3, 'b')).toEqual([
      { id: 'a', n: 1 },
      { id: 'c', n: 3 },
    ]);
    expect(await query(2, 3, 'c')).toEqual([{ id: 'b', n: 2 }]);
    expect(await query(3, 1, 'x')).toEqual([]);
    expect(compiled()).toBe(1);
  });

  it('keeps shapes apart, and a value that is not used costs nothing', async () => {
    const { prepared, compiled } = await open();
    const query = (named: boolean, n: number) =>
      prepared(named ? 'named' : 'any', { n, unused: 'x' }, (v) => {
        let qb = db.selectFrom('t').select('id').where('n', '>', v.n);
        if (named) qb = qb.where('name', 'is not', null);
        return qb.orderBy('id');
      });
    expect((await query(false, 1)).map((r) => r.id)).toEqual(['b', 'c']);
    expect((await query(true, 1)).map((r) => r.id)).toEqual(['c']);
    expect((await query(true, 0)).map((r) => r.id)).toEqual(['a', 'c']);
    expect(compiled()).toBe(2);
  });

  it('refuses a value built into a string instead of passed as a parameter', async () => {
    const { prepared } = await open();
    await expect(
      prepared('bad', { name: 'Ann' }, (v) =>
        db.selectFrom('t').select('id').where('name', 'like', `%${v.name}%`),
      ),
    ).rejects.toThrow(/used in a string/);
    // As a parameter of a raw fragment it is fine.
    const rows = await prepared('good', { pattern: '%nn%' }, (v) =>
      db.selectFrom('t').select('id').where(sql<string>`name`, 'like', sql<string>`${v.pattern}`),
    );
    expect(rows).toEqual([{ id: 'a' }]);
  });
});
