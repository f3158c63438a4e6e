import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './index.js';
import { insertRows, preparedQueries } from './prepared.js';

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
    const counted =
      <V, R>(build: (v: V) => R) =>
      (v: V) => {
        compiled++;
        return build(v);
      };
    return {
      prepared: Object.assign(
        ((shape, values, build) => prepared(shape, values, counted(build))) as typeof prepared,
        {
          compile: ((shape, slots, build) =>
            prepared.compile(shape, slots, counted(build))) as typeof prepared.compile,
        },
      ),
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

  it('inserts any number of rows in a few shapes, answering every row', async () => {
    const { prepared, compiled } = await open();
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `r${from + i}`,
        n: from + i,
        name: i % 2 ? null : `N${i}`,
      }));
    const insert = (list: ReturnType<typeof rows>) =>
      insertRows(prepared, db, 't', list, 64, (chunk) =>
        db.insertInto('t').values(chunk).returning(['id', 'n']),
      );
    expect(await insert([])).toEqual({ rows: [], affected: 0 });
    // 64 + 32 + 4 + 1 rows: four shapes.
    const answered = await insert(rows(100, 101));
    expect(answered.rows.map((r) => r.n)).toEqual(Array.from({ length: 101 }, (_, i) => 100 + i));
    expect(answered.affected).toBe(101);
    expect(compiled()).toBe(4);
    // 64 + 32 + 4 again, and 2: one new shape.
    await insert(rows(300, 102));
    expect(compiled()).toBe(5);
    const stored = await db
      .selectFrom('t')
      .select(['id', 'n', 'name'])
      .where('n', '>=', 100)
      .orderBy('n')
      .execute();
    expect(stored).toEqual([...rows(100, 101), ...rows(300, 102)]);
    await expect(
      db.selectFrom('t').select(db.fn.countAll<number>().as('c')).where('n', '>=', 100).executeTakeFirst(),
    ).resolves.toEqual({ c: 203 });
  });

  it('counts the rows written, not those an upsert skipped', async () => {
    const { prepared } = await open();
    await sql`create unique index t_id on t (id)`.execute(db);
    const result = await insertRows(
      prepared,
      db,
      't',
      ['a', 'new1', 'b', 'new2'].map((id) => ({ id, n: 0, name: null })),
      64,
      (chunk) =>
        db
          .insertInto('t')
          .values(chunk)
          .onConflict((oc) => oc.column('id').doNothing()),
    );
    expect(result).toEqual({ rows: [], affected: 2 });
  });

  it('runs in the transaction it is given', async () => {
    const { prepared } = await open();
    await expect(
      db.transaction().execute(async (trx) => {
        await insertRows(prepared, trx, 't', [{ id: 'x', n: 9, name: null }], 64, (chunk) =>
          trx.insertInto('t').values(chunk),
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db.selectFrom('t').select('id').where('id', '=', 'x').execute()).toEqual([]);
  });
});
