import { createServer } from 'node:net';

// Ports for the servers the tests start (Dovecot, Courier, Cyrus, fakes, product processes). Asking the
// kernel for port 0 and passing the number on is racy once test files run side by side: between our
// close and the peer's bind, another file's peer, or any outgoing connection (those take ephemeral ports
// from 32768 up), may take it. So each Vitest worker takes ports from a block of its own below the
// ephemeral range, starting at a random offset (a later file in the same worker may find an earlier
// file's port in TIME_WAIT), and still checks each one is free before handing it out.
const BLOCK = 1500;
const FIRST = 20_000;
const pool = Number(process.env.VITEST_POOL_ID ?? 0) % 8;
let next = Math.floor(Math.random() * BLOCK);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on loopback that is free right now and that no other test worker hands out. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = FIRST + pool * BLOCK + (next++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port left in test worker ${pool}'s block`);
}
