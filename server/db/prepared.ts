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

  return async function run<V extends Record<string, unknown>, R>(
    shape: string,
    values: V,
    build: (values: V) => Compilable<R>,
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
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows as R[];
  };
}

export type PreparedQueries = ReturnType<typeof preparedQueries>;

const SLOT_TEXT = '\u0000prepared-slot\u0000';

/** Where a value goes; turned into text (a value used in a string) it says so. */
class Slot {
  constructor(readonly name: string) {}
  toString(): string {
    return SLOT_TEXT;
  }
}
