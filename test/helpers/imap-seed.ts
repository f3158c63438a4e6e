import { ImapFlow } from 'imapflow';

// Puts mail into a test mailbox and reads it back over IMAP itself (APPEND, STORE, FETCH), so one test body
// works on every server the tests run (Dovecot, Courier, Cyrus), whatever its folder layout: paths are built
// from the server's personal namespace (`Newsletters/Café` on Dovecot here, `INBOX.Newsletters.Café` on
// Courier). Always connects to the real server, never through a capability-stripping proxy.

export interface SeedMailbox {
  /** The server's path of a folder given by its names under the personal namespace ([] is INBOX). */
  path(...names: string[]): string;
  /** Appends a message, creating the folder (and its parents) when missing. */
  append(path: string, raw: string, options?: { seen?: boolean }): Promise<void>;
  /** Sets \Seen on the messages of a folder whose subject contains `subject`. */
  markSeen(path: string, subject: string): Promise<void>;
  /** Sender addresses of every message of every selectable folder, sorted, by path. */
  senders(): Promise<Record<string, string[]>>;
  close(): Promise<void>;
}

/** A connected session of the account on the real server (plain text on loopback), as a user's client. */
export async function imapSession(
  server: { host: string; port: number },
  account: { user: string; password: string },
): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: server.host,
    port: server.port,
    secure: false,
    auth: { user: account.user, pass: account.password },
    logger: false,
    disableAutoIdle: true,
  });
  await client.connect();
  return client;
}

export async function seedMailbox(
  server: { host: string; port: number },
  account: { user: string; password: string },
): Promise<SeedMailbox> {
  const client = await imapSession(server, account);
  const ns = client.namespace ?? { prefix: '', delimiter: '/' };
  const delimiter = ns.delimiter || '/';
  const created = new Set<string>(['INBOX']);

  async function ensure(path: string): Promise<void> {
    if (created.has(path)) return;
    const existing = new Set((await client.list()).map((e) => e.path));
    const parts = path.slice(ns.prefix.length).split(delimiter);
    for (let i = 1; i <= parts.length; i++) {
      const p = ns.prefix + parts.slice(0, i).join(delimiter);
      if (!existing.has(p)) await client.mailboxCreate(p);
      created.add(p);
    }
  }

  return {
    path: (...names) => (names.length === 0 ? 'INBOX' : ns.prefix + names.join(delimiter)),
    async append(path, raw, options = {}) {
      await ensure(path);
      const done = await client.append(path, raw, options.seen ? ['\\Seen'] : []);
      if (!done) throw new Error(`APPEND to ${path} failed`);
    },
    async markSeen(path, subject) {
      const lock = await client.getMailboxLock(path);
      try {
        const uids = await client.search({ subject }, { uid: true });
        if (!uids || uids.length === 0) throw new Error(`No message "${subject}" in ${path}`);
        await client.messageFlagsAdd(uids, ['\\Seen'], { uid: true });
      } finally {
        lock.release();
      }
    },
    async senders() {
      const out: Record<string, string[]> = {};
      for (const box of await client.list()) {
        if (box.flags.has('\\Noselect') || box.flags.has('\\NonExistent')) continue;
        const lock = await client.getMailboxLock(box.path, { readOnly: true });
        try {
          const found: string[] = [];
          if (client.mailbox && client.mailbox.exists > 0) {
            for await (const msg of client.fetch('1:*', { envelope: true })) {
              found.push(msg.envelope?.from?.[0]?.address ?? '');
            }
          }
          out[box.path] = found.sort();
        } finally {
          lock.release();
        }
      }
      return out;
    },
    async close() {
      await client.logout().catch(() => client.close());
    },
  };
}
