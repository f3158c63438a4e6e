import type { Compilable, CompiledQuery } from 'kysely';
import { type Db, markNamedStatement } from './index.js';

/**
 * Queries built and compiled once per shape, then run with new values. Kysely builds a query's tree,
 * freezes it and compiles it to SQL on every call, for the subscription list's queries as long as
 * SQLite takes to answer the smaller ones (bench:list). A hot query is written once as usual,
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

  /** The shape's compiled query, its parameters holding a Slot wherever a value goes. */
  function compile<V, R>(shape: string, slots: () => V, build: (values: V) => Compilable<R>): CompiledQuery {
    let query = compiled.get(shape);
    if (query === undefined) {
      query = build(slots()).compile();
      if (query.parameters.some((p) => typeof p === 'string' && p.includes(SLOT_TEXT))) {
        throw new Error(`prepared query ${shape}: a value was used in a string, not as a parameter`);
      }
      compiled.set(shape, query);
      markNamedStatement(query.sql);
    }
    return query;
  }

  async function run<V extends Record<string, unknown>, R>(
    shape: string,
    values: V,
    build: (values: V) => Compilable<R>,
  ): Promise<R[]> {
    const query = compile(
      shape,
      () => Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as V,
      build,
    );
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows as R[];
  }

  return Object.assign(run, { compile });
}

export type PreparedQueries = ReturnType<typeof preparedQueries>;

/**
 * A multi-row insert (or upsert) through `run`, in a handful of shapes: chunks of `max` rows, and what is
 * left in power-of-two chunks, so one table's insert has at most log2(max) + 2 SQL texts however many rows
 * come (a scan writes a reference per message of its senders; building each chunk's query anew was a
 * large part of its main thread's time, bench:scan). Every row must have the same keys, in the same order. Answers the rows of every chunk (what
 * a RETURNING clause gives) and how many rows the database reports written (an upsert's skipped rows not
 * counted).
 */
export async function insertRows<Row extends Record<string, unknown>, R>(
  run: PreparedQueries,
  on: Pick<Db, 'executeQuery'>,
  name: string,
  rows: ReadonlyArray<Row>,
  max: number,
  build: (rows: Row[]) => Compilable<R>,
): Promise<{ rows: R[]; affected: number }> {
  const out: R[] = [];
  let affected = 0;
  if (rows.length === 0) return { rows: out, affected };
  const columns = Object.keys(rows[0]!);
  let at = 0;
  while (at < rows.length) {
    const left = rows.length - at;
    const n = left >= max ? max : 2 ** Math.floor(Math.log2(left));
    const query = run.compile(
      `${name} ${columns.join(',')} x${n}`,
      () =>
        Array.from(
          { length: n },
          (_, i) => Object.fromEntries(columns.map((c) => [c, new Slot(`${i}:${c}`, i, c)])) as Row,
        ),
      build,
    );
    // Each parameter straight from its row and column: no object of n × columns named values in between
    // (building one was most of this function's time on a scan's many rows).
    const slots = query.parameters;
    const parameters = new Array<unknown>(slots.length);
    for (let k = 0; k < slots.length; k++) {
      const p = slots[k];
      parameters[k] = p instanceof Slot ? rows[at + p.row]![p.column] : p;
    }
    const answer = await on.executeQuery<R>({ ...query, parameters });
    for (const r of answer.rows) out.push(r);
    // With RETURNING the rows answered are the rows written (SQLite reports no count then).
    affected += answer.numAffectedRows === undefined ? answer.rows.length : Number(answer.numAffectedRows);
    at += n;
  }
  return { rows: out, affected };
}

const SLOT_TEXT = '\u0000prepared-slot\u0000';

/** Where a value goes; turned into text (a value used in a string) it says so. */
class Slot {
  /** `row` and `column`: where insertRows takes the value from. */
  constructor(
    readonly name: string,
    readonly row = -1,
    readonly column = '',
  ) {}
  toString(): string {
    return SLOT_TEXT;
  }
}
