/**
 * Iterates `source` one item ahead of the consumer: the next item is asked for as soon as one is handed
 * over, so the producer's waiting (a mail server's answer, the network) overlaps the consumer's work on
 * the item (a scan batch's commit). Items come in order; at most one waits besides the one handed over.
 * A consumer that stops early (break, or a throw) gets the source ended once its pending pull has
 * settled, so nothing of the source runs on after the loop; a pull that failed meanwhile is not
 * reported then, the consumer's own reason for stopping is.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const result: IteratorResult<T> = await pending!;
      pending = null;
      if (result.done) {
        finished = true;
        return;
      }
      pending = iterator.next();
      // Awaited on the next turn, or in `finally` when the consumer stops first.
      pending.catch(() => {});
      yield result.value;
    }
  } catch (error) {
    // The source itself failed: it has ended, there is nothing to return.
    finished = true;
    throw error;
  } finally {
    if (!finished) {
      if (pending) await pending.catch(() => {});
      await iterator.return?.();
    }
  }
}
