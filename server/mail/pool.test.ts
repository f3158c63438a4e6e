import { describe, expect, it, vi } from 'vitest';
import type { MailboxCredentials } from './descriptor.js';
import { createMailPool } from './pool.js';
import { MailAuthError, MailConnectionError, type MailProvider } from './provider.js';

// The pool's rules on fake adapters: each fake counts as one login when opened. The real thing (Dovecot,
// logins counted by a proxy) is test/features/preview/preview.int.test.ts.

interface Fake {
  n: number;
  closed: boolean;
  /** The next fetch fails with this, once. */
  failNext?: Error;
}

function fakes() {
  const opened: Fake[] = [];
  const factory = vi.fn((_mailbox: MailboxCredentials): MailProvider => {
    const fake: Fake = { n: opened.length + 1, closed: false };
    opened.push(fake);
    return {
      async fetchMessage() {
        if (fake.closed) throw new Error('used after close');
        const failure = fake.failNext;
        fake.failNext = undefined;
        if (failure) throw failure;
        return Buffer.from(String(fake.n));
      },
      async close() {
        fake.closed = true;
      },
    } as unknown as MailProvider;
  });
  return { opened, factory };
}

const mailbox = (secret = 'sealed-1', id = 'mb-1'): MailboxCredentials => ({
  id,
  provider: 'yahoo',
  email: 'a@yahoo.com',
  secret,
  server: null,
});

const fetchOne = (p: MailProvider) => p.fetchMessage('INBOX/1/1').then((b) => Number(b!.toString()));

/** Resolves once every adapter in `list` is closed (closing is not awaited by use()). */
async function allClosed(list: Fake[]) {
  await vi.waitFor(() => expect(list.every((f) => f.closed)).toBe(true));
}

describe('mail pool', () => {
  it('reuses one adapter for tasks one after the other', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    for (let i = 0; i < 5; i++) expect(await pool.use(mailbox(), fetchOne)).toBe(1);
    expect(opened).toHaveLength(1);
    await pool.close();
    expect(opened[0]!.closed).toBe(true);
  });

  it('opens at most perMailbox adapters for tasks at once; other mailboxes have their own', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    let running = 0;
    let most = 0;
    const slow = async (p: MailProvider) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      return fetchOne(p);
    };
    await Promise.all(Array.from({ length: 20 }, () => pool.use(mailbox(), slow)));
    expect(most).toBe(3);
    expect(opened).toHaveLength(3);
    await pool.use(mailbox('other', 'mb-2'), fetchOne);
    expect(opened).toHaveLength(4);
    await pool.close();
    expect(opened.every((f) => f.closed)).toBe(true);
  });

  it('closes an adapter left unused for the idle time', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3, idleMs: 10 });
    await pool.use(mailbox(), fetchOne);
    await allClosed(opened);
    expect(await pool.use(mailbox(), fetchOne)).toBe(2);
    await pool.close();
  });

  it('keeps nothing with an idle time of 0', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3, idleMs: 0 });
    expect(await pool.use(mailbox(), fetchOne)).toBe(1);
    expect(await pool.use(mailbox(), fetchOne)).toBe(2);
    await allClosed(opened);
    await pool.close();
  });

  it('never lends an adapter opened with other credentials (a new app password, another server)', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    expect(await pool.use(mailbox('sealed-1'), fetchOne)).toBe(1);
    expect(await pool.use(mailbox('sealed-2'), fetchOne)).toBe(2);
    await allClosed([opened[0]!]);
    const moved = {
      ...mailbox('sealed-2'),
      server: { kind: 'imap' as const, host: 'imap.example', port: 993, secure: true },
    };
    expect(await pool.use(moved, fetchOne)).toBe(3);
    expect(factory.mock.calls.map(([m]) => m.secret)).toEqual(['sealed-1', 'sealed-2', 'sealed-2']);
    await pool.close();
  });

  it('throws a failed adapter away, and after a refused login all kept ones', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    // Two kept adapters.
    await Promise.all([pool.use(mailbox(), fetchOne), pool.use(mailbox(), fetchOne)]);
    expect(opened).toHaveLength(2);
    for (const f of opened) f.failNext = new Error('a bug of ours');
    await expect(pool.use(mailbox(), fetchOne)).rejects.toThrow('a bug of ours');
    await vi.waitFor(() => expect(opened.filter((f) => f.closed)).toHaveLength(1));
    const kept = opened.find((f) => !f.closed)!;
    kept.failNext = new MailAuthError('refused');
    // Not idempotent-retried: the user must act.
    await expect(pool.use(mailbox(), fetchOne, { idempotent: true })).rejects.toThrow(MailAuthError);
    await allClosed(opened);
    expect(await pool.use(mailbox(), fetchOne)).toBe(3);
    await pool.close();
  });

  it('runs a read again on a new adapter when a kept one turns out dead, not a write', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    await pool.use(mailbox(), fetchOne);
    opened[0]!.failNext = new MailConnectionError('lost');
    expect(await pool.use(mailbox(), fetchOne, { idempotent: true })).toBe(2);
    opened[1]!.failNext = new MailConnectionError('lost');
    await expect(pool.use(mailbox(), fetchOne)).rejects.toThrow('lost');
    // A new adapter that fails is the answer: no second try.
    const failing = vi.fn(async () => {
      throw new MailConnectionError('unreachable');
    });
    await expect(pool.use(mailbox(), failing, { idempotent: true })).rejects.toThrow('unreachable');
    expect(failing).toHaveBeenCalledTimes(1);
    await allClosed(opened);
    await pool.close();
  });

  it('evicts a mailbox on demand, and after close gives each task an adapter of its own', async () => {
    const { opened, factory } = fakes();
    const pool = createMailPool(factory, { perMailbox: 3 });
    await pool.use(mailbox(), fetchOne);
    pool.evict('mb-1');
    await allClosed(opened);
    await pool.use(mailbox(), fetchOne);
    await pool.close();
    expect(opened.every((f) => f.closed)).toBe(true);
    expect(await pool.use(mailbox(), fetchOne)).toBe(3);
    expect(opened[2]!.closed).toBe(true);
  });
});
