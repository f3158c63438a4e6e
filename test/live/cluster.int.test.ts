import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '#contract/api.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, uniqueEmail } from '#test/helpers/app.js';

// Two instances on one PostgreSQL: a socket held by one receives the events another emits (a worker
// process finishing a scan while the user's browser is connected to an API process).
describe.skipIf(!process.env.TEST_DATABASE_URL)('live events across instances on PostgreSQL', () => {
  const api = withTestApp('postgres');
  // The second instance shares the first one's database and channel (created after it, closed before it).
  const worker = withTestApp('postgres', undefined, () => ({ config: api.config, db: api.db }));
  let socket: Socket;

  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    socket?.close();
  });

  it('delivers an event emitted by another instance to the user on this one', async () => {
    const client = new Client(api.app);
    const email = uniqueEmail();
    await client.post('/auth/signup', { email, password: 'long enough' });
    const user = await api.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const url = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    socket = connect(url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: client.cookieHeader() },
    });
    await new Promise((r) => socket.on('connect', () => r(null)));

    const item: Subscription = {
      id: 'from-the-worker',
      address: 'news@example.com',
      senderName: 'News',
      messageCount: 2,
      category: 'uncategorized',
      lastMessageAt: null,
      account: email,
    };
    const received = new Promise<Subscription>((r) => socket.on('new-subscription', r));
    // The adapter's LISTEN may still be settling; emit until the event arrives.
    const timer = setInterval(() => worker.app.live.emitToUser(user.id, 'new-subscription', item), 200);
    try {
      expect(await received).toEqual(item);
    } finally {
      clearInterval(timer);
    }
  });

  it('closes a socket held by this instance when the session is ended through another one', async () => {
    const client = new Client(api.app);
    await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const url = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    const tab = connect(url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: client.cookieHeader() },
    });
    try {
      await new Promise((r) => tab.on('connect', () => r(null)));
      const gone = new Promise<string>((r) => tab.on('disconnect', r));
      // The same browser's logout reaches the other instance (same secret, same database).
      const out = await worker.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { cookie: client.cookieHeader(), 'x-csrf-token': await client.token() },
      });
      expect(out.statusCode).toBe(200);
      expect(await gone).toBe('io server disconnect');
    } finally {
      tab.close();
    }
  });
});
