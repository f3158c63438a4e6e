import { createHash } from 'node:crypto';
import { keyedLimit } from '#server/lib/keyed-limit.js';
import type { MailboxCredentials } from './descriptor.js';
import type { ProviderFactory } from './index.js';
import { MailAuthError, MailConnectionError, type MailProvider } from './provider.js';

// A few logged-in adapters per mailbox, kept between requests (decision 089): 40 previews of one IMAP
// mailbox make a handful of logins, not 40. An adapter is lent to one task at a time, kept while it is used
// again soon, closed once unused for the idle time, thrown away after any failure, and never lent for
// credentials other than those it was opened with (docs/decisions/089-pooled-mail-connections.md).

/**
 * How long an unused connection is kept open. A user reading previews opens one every few seconds, and each
 * reuse restarts the wait, so 30 s keeps one login for a whole reading session while giving the server's
 * connection slot back half a minute after the last one. It also stays below ImapFlow's 60 s of silence
 * (`DEFAULT_TIMEOUTS.socket` in imap/connection.ts), after which the connection would end as a timeout
 * error instead of a LOGOUT; servers themselves keep an idle session for 30 minutes at least (RFC 9051).
 */
export const POOL_IDLE_MS = 30_000;

/** How long close() waits for the LOGOUTs: a server that stopped answering does not hold the shutdown. */
const CLOSE_WAIT_MS = 5_000;

export interface MailPoolOptions {
  /** Adapters of one mailbox open at once, lent or idle; more tasks wait their turn. */
  perMailbox: number;
  /** POOL_IDLE_MS unless set (tests make it short); 0 keeps nothing: each task opens and closes its own. */
  idleMs?: number;
}

export interface UseOptions {
  /**
   * The task may run twice (a read): when a kept connection turns out to have died while unused (the server
   * restarted, a NAT forgot it), the task runs once more on a newly opened one instead of failing.
   */
  idempotent?: boolean;
}

export interface MailPool {
  /**
   * Runs `task` with an adapter of the mailbox, lent to it alone until it ends; the mailbox is identified by
   * its id, and its adapters by what they were opened with (provider, server, sealed secret).
   */
  use<T>(
    mailbox: MailboxCredentials,
    task: (provider: MailProvider) => Promise<T>,
    options?: UseOptions,
  ): Promise<T>;
  /** Closes the mailbox's unused adapters now; those lent out are closed when their task ends. */
  evict(mailboxId: string): void;
  /** Closes every adapter (the server stops); a later task gets one of its own, closed after it. */
  close(): Promise<void>;
}

interface Pooled {
  provider: MailProvider;
  fingerprint: string;
  timer?: NodeJS.Timeout;
}

/** The adapters of one mailbox: those unused (the most recently used last) and the number lent out. */
interface Shelf {
  /** The credentials its adapters were opened with; null once evicted (none is kept any more). */
  fingerprint: string | null;
  idle: Pooled[];
  lent: number;
}

/**
 * What an adapter was opened with. The sealed secret changes with every new app password or grant (a new
 * seal each time), so a reconnected or re-authorised mailbox gets new connections.
 */
export function credentialsFingerprint(mailbox: MailboxCredentials): string {
  const what = [mailbox.provider, mailbox.email, mailbox.secret, mailbox.server];
  return createHash('sha256').update(JSON.stringify(what)).digest('base64url');
}

function dispose(provider: MailProvider): Promise<void> {
  return provider.close().catch(() => undefined);
}

export function createMailPool(open: ProviderFactory, options: MailPoolOptions): MailPool {
  return new ConnectionPool(open, options);
}

class ConnectionPool implements MailPool {
  // At most `perMailbox` tasks of a mailbox run at once, and each holds one adapter: with the unused ones
  // taken before any is opened, no more than `perMailbox` are ever open.
  private readonly turns: ReturnType<typeof keyedLimit>;
  private readonly idleMs: number;
  private readonly shelves = new Map<string, Shelf>();
  /** Adapters being closed, awaited by close(). */
  private readonly closing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly open: ProviderFactory,
    options: MailPoolOptions,
  ) {
    this.turns = keyedLimit(options.perMailbox);
    this.idleMs = options.idleMs ?? POOL_IDLE_MS;
  }

  use<T>(
    mailbox: MailboxCredentials,
    task: (provider: MailProvider) => Promise<T>,
    options: UseOptions = {},
  ): Promise<T> {
    if (this.closed) return this.once(mailbox, task);
    const fingerprint = credentialsFingerprint(mailbox);
    return this.turns(mailbox.id, () =>
      this.closed
        ? this.once(mailbox, task)
        : this.lend(mailbox, fingerprint, task, options.idempotent === true),
    );
  }

  evict(mailboxId: string): void {
    const shelf = this.shelves.get(mailboxId);
    if (!shelf) return;
    this.evictShelf(shelf);
    this.forgetIfEmpty(mailboxId, shelf);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const shelf of this.shelves.values()) this.evictShelf(shelf);
    this.shelves.clear();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
    });
    await Promise.race([Promise.all([...this.closing]), waited]);
    clearTimeout(timer);
  }

  /** Runs the task on the shelf's most recently used adapter, else on a new one; see MailPool.use. */
  private async lend<T>(
    mailbox: MailboxCredentials,
    fingerprint: string,
    task: (provider: MailProvider) => Promise<T>,
    idempotent: boolean,
  ): Promise<T> {
    const shelf = this.shelfFor(mailbox.id, fingerprint);
    let kept = shelf.idle.pop();
    clearTimeout(kept?.timer);
    let warm = kept !== undefined;
    shelf.lent += 1;
    try {
      for (;;) {
        const pooled = kept ?? { provider: this.open(mailbox), fingerprint };
        kept = undefined;
        try {
          const result = await task(pooled.provider);
          this.giveBack(mailbox.id, shelf, pooled);
          return result;
        } catch (error) {
          // A failed adapter is never lent again: its session may be half gone.
          this.discard(pooled);
          // Refused credentials are refused for every connection opened with them.
          if (error instanceof MailAuthError && shelf.fingerprint === fingerprint) this.evictShelf(shelf);
          // Only a kept connection may have died unseen; a new one that fails is the answer.
          if (!(warm && idempotent && error instanceof MailConnectionError)) throw error;
          warm = false;
        }
      }
    } finally {
      shelf.lent -= 1;
      this.forgetIfEmpty(mailbox.id, shelf);
    }
  }

  /** One task on one adapter of its own, closed after (once the pool is closed). */
  private async once<T>(mailbox: MailboxCredentials, task: (provider: MailProvider) => Promise<T>) {
    const provider = this.open(mailbox);
    try {
      return await task(provider);
    } finally {
      await dispose(provider);
    }
  }

  /** The mailbox's shelf for these credentials; adapters kept for other ones are closed. */
  private shelfFor(mailboxId: string, fingerprint: string): Shelf {
    let shelf = this.shelves.get(mailboxId);
    if (!shelf) {
      shelf = { fingerprint, idle: [], lent: 0 };
      this.shelves.set(mailboxId, shelf);
    } else if (shelf.fingerprint !== fingerprint) {
      this.evictShelf(shelf);
      shelf.fingerprint = fingerprint;
    }
    return shelf;
  }

  /** Back on the shelf to wait for the next task, or closed when it may not be used again. */
  private giveBack(mailboxId: string, shelf: Shelf, pooled: Pooled): void {
    const stale = shelf.fingerprint !== pooled.fingerprint || this.shelves.get(mailboxId) !== shelf;
    if (this.closed || this.idleMs <= 0 || stale) {
      this.discard(pooled);
      return;
    }
    pooled.timer = setTimeout(() => {
      const at = shelf.idle.indexOf(pooled);
      if (at < 0) return;
      shelf.idle.splice(at, 1);
      this.discard(pooled);
      this.forgetIfEmpty(mailboxId, shelf);
    }, this.idleMs);
    // An idle connection does not keep the process alive.
    pooled.timer.unref();
    shelf.idle.push(pooled);
  }

  private evictShelf(shelf: Shelf): void {
    shelf.fingerprint = null;
    for (const pooled of shelf.idle.splice(0)) this.discard(pooled);
  }

  private forgetIfEmpty(mailboxId: string, shelf: Shelf): void {
    if (shelf.idle.length === 0 && shelf.lent === 0 && this.shelves.get(mailboxId) === shelf) {
      this.shelves.delete(mailboxId);
    }
  }

  private discard(pooled: Pooled): void {
    clearTimeout(pooled.timer);
    const done: Promise<void> = dispose(pooled.provider).finally(() => this.closing.delete(done));
    this.closing.add(done);
  }
}
