import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '#contract/api.js';
import { SOCKETS_PER_SESSION } from '#server/live/index.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, isResetMail, readOutbox, resetTokenFrom, uniqueEmail } from '#test/helpers/app.js';

describe('live events over socket.io', () => {
  const t = withTestApp('sqlite');
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    // Closing the app while a polling client's close request is in flight holds the server up to a
    // ping interval: let the server see every socket gone first.
    await vi.waitFor(() => expect(t.app.live.io.engine.clientsCount).toBe(0));
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

  function open(
    cookie?: string,
    headers: Record<string, string> = {},
    transports: ('websocket' | 'polling')[] = ['websocket'],
  ): Socket {
    const socket = connect(url, {
      transports,
      reconnection: false,
      extraHeaders: { ...(cookie ? { cookie } : {}), ...headers },
    });
    sockets.push(socket);
    return socket;
  }

  /** Resolves with 'connected' or the connect error's message, whichever comes first. */
  function outcome(socket: Socket): Promise<string> {
    return new Promise((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(`refused: ${error.message}`));
    });
  }

  function disconnected(socket: Socket): Promise<string> {
    return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  }

  /**
   * A signed-in browser: the inject client (cookies, CSRF) and a socket it opened. A new account, or
   * another browser of the account of `existing` (signed in: signing up again would open a stand-in).
   */
  async function signedInTab(existing?: string) {
    const client = new Client(t.app);
    const email = existing ?? uniqueEmail();
    const answer = existing
      ? await client.post('/auth/signin', { email, password: 'long enough' })
      : await client.post('/auth/signup', { email, password: 'long enough' });
    expect(answer.statusCode).toBe(200);
    const socket = open(client.cookieHeader());
    expect(await outcome(socket)).toBe('connected');
    return { client, socket, email };
  }

  describe('Origin', () => {
    // PUBLIC_URL is http://localhost:3000 in the test apps.
    it.each([
      ['another port', 'http://localhost:3001'],
      ['a sibling subdomain', 'http://evil.localhost:3000'],
      ['another scheme', 'https://localhost:3000'],
      ['an opaque origin', 'null'],
    ])('refuses a socket from %s, even with a valid session cookie', async (_name, origin) => {
      const { cookie } = await sessionCookie();
      for (const transports of [['websocket'], ['polling']] as const) {
        const socket = open(cookie, { origin }, [...transports]);
        expect(await outcome(socket), transports[0]).toMatch(/^refused/);
      }
    });

    it('refuses a session more live connections than its tabs could need', async () => {
      const { client } = await signedInTab();
      const cookie = client.cookieHeader();
      const held: Socket[] = [];
      for (let i = 1; i < SOCKETS_PER_SESSION; i++) {
        const socket = open(cookie);
        expect(await outcome(socket)).toBe('connected');
        held.push(socket);
      }
      expect(await outcome(open(cookie))).toBe('refused: Too many live connections for this session.');
      // One closed makes room for one more.
      const leaving = held.pop()!;
      const gone = disconnected(leaving);
      leaving.close();
      await gone;
      await expect.poll(async () => outcome(open(cookie)), { timeout: 5000 }).toBe('connected');
    });

    it("accepts PUBLIC_URL's origin, and the same port on another loopback name", async () => {
      const { cookie } = await sessionCookie();
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        for (const transports of [['websocket'], ['polling']] as const) {
          const socket = open(cookie, { origin }, [...transports]);
          expect(await outcome(socket), `${origin} ${transports[0]}`).toBe('connected');
        }
      }
    });

    it('accepts no Origin (same-origin polling, non-browser clients) unless the browser says cross-site', async () => {
      const { cookie } = await sessionCookie();
      expect(await outcome(open(cookie, {}, ['polling']))).toBe('connected');
      expect(await outcome(open(cookie, { 'sec-fetch-site': 'same-origin' }, ['polling']))).toBe('connected');
      expect(await outcome(open(cookie, { 'sec-fetch-site': 'same-site' }, ['polling']))).toMatch(/^refused/);
      expect(await outcome(open(cookie, { 'sec-fetch-site': 'cross-site' }, ['polling']))).toMatch(
        /^refused/,
      );
    });
  });

  describe('when the session ends', () => {
    it('disconnects the sockets of that session at logout, and they cannot reconnect', async () => {
      const tab = await signedInTab();
      const secondTab = open(tab.client.cookieHeader());
      expect(await outcome(secondTab)).toBe('connected');
      // The same user signed in on another device keeps its socket.
      const other = await signedInTab(tab.email);
      const gone = [disconnected(tab.socket), disconnected(secondTab)];

      expect((await tab.client.post('/auth/logout')).statusCode).toBe(200);
      expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
      expect(other.socket.connected).toBe(true);

      tab.socket.connect();
      expect(await outcome(tab.socket)).toBe('refused: Not signed in');
    });

    it("disconnects every other session's sockets at a password reset", async () => {
      const tab = await signedInTab();
      const gone = disconnected(tab.socket);
      await new Client(t.app).post('/auth/forgot-password', { email: tab.email });
      const mail = await vi.waitFor(async () => {
        const found = (await readOutbox(t.dataDir)).find((m) => m.to === tab.email && isResetMail(m));
        expect(found).toBeDefined();
        return found!;
      });
      const reset = await new Client(t.app).post('/auth/reset-password', {
        token: resetTokenFrom(mail),
        password: 'a new password',
      });
      expect(reset.statusCode).toBe(200);
      expect(await gone).toBe('io server disconnect');
    });

    it("disconnects all the user's sockets when the account is deleted", async () => {
      const tab = await signedInTab();
      const other = await signedInTab(tab.email);
      const bystander = await signedInTab();
      const gone = [disconnected(tab.socket), disconnected(other.socket)];
      expect((await tab.client.delete('/delete-account')).statusCode).toBe(200);
      expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
      expect(bystander.socket.connected).toBe(true);
    });
  });

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
