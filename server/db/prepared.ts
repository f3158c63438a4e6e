import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index.js';

/**
 * Queries built and compiled once per shape, then run with new values. Kysely builds a query's tree,
 * freezes it and compiles it to SQL on every call: 30–40 µs for each query of the subscription list, as
 * much as SQLite takes to answer the smaller ones (bench:list). A hot query is written once as usual,
 * with its values read from the object `build` receives; the first call passes placeholders in their
 * place, so the compiled parameters say where each value goes, and later calls only swap the values in.
 *
 * `shape` names everything that changes the SQL (which clauses, which order, whether a value is null
 * where `is null` is written): one shape, one SQL text. The values must reach the query unchanged as
 * parameters (no string built from them, no array expanded into `in (…)`): `build` sees placeholders, and
 * a value used any other way is refused when the shape is compiled.
 */
export function preparedQueries(db: Pick<Db, 'executeQuery'>) {
  const compiled = new Map<string, CompiledQuery>();

  /** `on`: a transaction to run in instead of the database (the compiled query is the same). */
  return async function run<V extends Record<string, unknown>, R>(
    shape: string,
    values: V,
    build: (values: V) => Compilable<R>,
    on: Pick<Db, 'executeQuery'> = db,
  ): Promise<R[]> {
    let query = compiled.get(shape);
    if (query === undefined) {
      const slots = Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as V;
      query = build(slots).compile();
      if (query.parameters.some((p) => typeof p === 'string' && p.includes(SLOT_TEXT))) {
        throw new Error(`prepared query ${shape}: a value was used in a string, not as a parameter`);
      }
      compiled.set(shape, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    const result = await on.executeQuery<R>({ ...query, parameters });
    return result.rows as R[];
  };
}

export type PreparedQueries = ReturnType<typeof preparedQueries>;

/**
 * A multi-row insert (or upsert) through `run`, in a handful of shapes: chunks of `max` rows, and what is
 * left in power-of-two chunks, so one table's insert has at most log2(max) + 2 SQL texts however many rows
 * come (a scan writes ~100,000 references; building each chunk's query anew was 0.2 s of its main thread,
 * bench:scan). Every row must have the same keys, in the same order. Answers the rows of every chunk.
 */
export async function insertRows<Row extends Record<string, unknown>, R>(
  run: PreparedQueries,
  on: Pick<Db, 'executeQuery'>,
  name: string,
  rows: ReadonlyArray<Row>,
  max: number,
  build: (rows: Row[]) => Compilable<R>,
): Promise<R[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!);
  const out: R[] = [];
  let at = 0;
  while (at < rows.length) {
    const left = rows.length - at;
    const n = left >= max ? max : 2 ** Math.floor(Math.log2(left));
    const values: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const row = rows[at + i]!;
      for (const column of columns) values[`${i}:${column}`] = row[column];
    }
    const answer = await run(
      `${name} ${columns.join(',')} x${n}`,
      values,
      (v) =>
        build(
          Array.from(
            { length: n },
            (_, i) => Object.fromEntries(columns.map((column) => [column, v[`${i}:${column}`]])) as Row,
          ),
        ),
      on,
    );
    for (const r of answer) out.push(r);
    at += n;
  }
  return out;
}

const SLOT_TEXT = '\u0000prepared-slot\u0000';

/** Where a value goes; turned into text (a value used in a string) it says so. */
class Slot {
  constructor(readonly name: string) {}
  toString(): string {
    return SLOT_TEXT;
  }
}
