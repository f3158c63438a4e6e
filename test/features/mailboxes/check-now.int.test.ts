import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMailboxResponseSchema, type EmailAccount } from '#contract/api.js';
import { UNEXPECTED_STOP } from '#server/features/scans/service.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox, listNews } from '#test/fixtures/sender-rules.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// A mailbox in error says why, and can be checked again at once (POST /mailboxes/check): on a real
// Dovecot behind a door that can be shut (connections refused, as a server that is down), the account row
// carries the mail server's reason and the last good check; "Check now" queues a check that clears it;
// a refused password asks for signing in again instead; another user's address is 404; a burst is 429.

const { dovecot } = peersForThisFile({ dovecot: () => startDovecot() });

/** A TCP door in front of Dovecot: open, it forwards; shut, it drops every connection at once. */
async function door(): Promise<{ port: number; open: boolean; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { open: true };
  const server: Server = createServer((client) => {
    if (!state.open) return client.destroy();
    const upstream = tcpConnect(dovecot.port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get open() {
      return state.open;
    },
    set open(value: boolean) {
      state.open = value;
      if (!value) for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DIALECTS)('a mailbox in error on %s (Dovecot)', (dialect) => {
  let gate: Awaited<ReturnType<typeof door>>;
  let u: YahooUser;
  beforeAll(async () => {
    gate = await door();
    const overrides = JSON.stringify({
      yahoo: { imap: { host: '127.0.0.1', port: gate.port, secure: false } },
    });
    u = await yahooUser(dovecot, dialect, [listNews('news@paper.example', 'Day 1', 1)], {
      MAIL_PROVIDER_OVERRIDES: overrides,
    });
  });
  afterAll(async () => {
    await u?.close();
    await gate?.close();
  });

  const account = async (): Promise<EmailAccount> =>
    (await u.client.call('GET /get-email-accounts')).data.find((a) => a.email === u.email)!;
  const checkNow = (email = u.email) => u.client.post('/mailboxes/check', { email });

  it('says why its check failed and when it last worked, and Check now clears it', async () => {
    const scanned = await account();
    expect(scanned).toMatchObject({ status: 'active', error: null });
    expect(scanned.lastCheckedAt).toEqual(scanned.lastScannedAt);
    expect(scanned.lastCheckedAt).not.toBeNull();

    gate.open = false;
    await checkMailbox(u.t);
    const failed = await account();
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/127\.0\.0\.1/);
    expect(failed.error).not.toBe(UNEXPECTED_STOP);
    expect(failed.lastCheckedAt).toBe(scanned.lastCheckedAt);

    gate.open = true;
    const res = await checkNow();
    expect(res.statusCode).toBe(202);
    expect(checkMailboxResponseSchema.parse(res.json()).message).toBeTruthy();
    await u.t.app.jobs.idle();
    const fixed = await account();
    expect(fixed).toMatchObject({ status: 'active', error: null });
    expect(Date.parse(fixed.lastCheckedAt!)).toBeGreaterThanOrEqual(Date.parse(scanned.lastCheckedAt!));
  });

  it('asks to sign in again, not to retry, once the password is refused', async () => {
    await dovecot.addUser({ user: u.email, password: 'changed by the user' });
    await checkMailbox(u.t);
    const refused = await account();
    expect(refused.status).toBe('reauth');
    expect(refused.error).toBeTruthy();
    const res = await checkNow();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ redirectUrl: expect.stringContaining('/add-mailbox?provider=yahoo') });
  });
  it("answers 404 for another user's address, and 429 past a few a minute", async () => {
    const stranger = new Client(u.t.app);
    await stranger.call('POST /auth/signup', { body: { email: uniqueEmail(), password: 'long enough' } });
    expect((await stranger.post('/mailboxes/check', { email: u.email })).statusCode).toBe(404);
    const codes: number[] = [];
    // Two were made above; five a minute are let through.
    for (let i = 0; i < 4; i++) codes.push((await checkNow()).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
  });
});
