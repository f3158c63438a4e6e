import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../contract/api.js';
import { Client, createTestApp, type TestApp, uniqueEmail } from './helpers/app.js';

describe('live events over socket.io', () => {
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  async function sessionCookie(): Promise<{ cookie: string; userId: string }> {
    const client = new Client(t.app);
    const email = uniqueEmail();
    const res = await client.post('/auth/signup', { email, password: 'long enough' });
    const token = res.cookies.find((c) => c.name === 'ig_session')!.value;
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { cookie: `ig_session=${token}`, userId: user.id };
  }

  function open(cookie?: string): Socket {
    const socket = connect(url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: cookie ? { cookie } : {},
    });
    sockets.push(socket);
    return socket;
  }

  it('refuses a socket without a session', async () => {
    const socket = open();
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error.message).toBe('Not signed in');
  });

  it("delivers a user's events to every socket of that user and to no one else", async () => {
    const alice = await sessionCookie();
    const bob = await sessionCookie();
    const aliceTabs = [open(alice.cookie), open(alice.cookie)];
    const bobTab = open(bob.cookie);
    await Promise.all([...aliceTabs, bobTab].map((s) => new Promise((r) => s.on('connect', () => r(null)))));

    const bobGot: unknown[] = [];
    bobTab.on('new-subscription', (item) => bobGot.push(item));
    const received = aliceTabs.map((s) => new Promise<Subscription>((r) => s.on('new-subscription', r)));
    const item: Subscription = {
      id: 'sub-1',
      address: 'news@example.com',
      senderName: 'Example News',
      messageCount: 3,
      category: 'uncategorized',
      lastMessageAt: null,
      account: 'alice@example.com',
    };
    t.app.live.emitToUser(alice.userId, 'new-subscription', item);
    expect(await Promise.all(received)).toEqual([item, item]);
    // Give a misrouted event time to arrive before checking that none did.
    await new Promise((r) => setTimeout(r, 100));
    expect(bobGot).toEqual([]);
  });
});
