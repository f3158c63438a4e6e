/**
 * At most `perKey` tasks at once per key; the rest wait their turn in order. Used where one user's
 * requests would otherwise open a connection each to the same mail server (previews of one mailbox):
 * a server that sees dozens of logins at once from one address blocks it.
 */
export function keyedLimit(perKey: number) {
  const lanes = new Map<string, { running: number; waiting: Array<() => void> }>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      lanes.set(key, lane);
    }
    if (lane.running >= perKey) {
      await new Promise<void>((resolve) => lane!.waiting.push(resolve));
    } else {
      lane.running += 1;
    }
    try {
      return await task();
    } finally {
      // The slot passes to the next waiter as it is (running stays counted), or is given back.
      const next = lane.waiting.shift();
      if (next) next();
      else {
        lane.running -= 1;
        if (lane.running === 0) lanes.delete(key);
      }
    }
  };
}
