import type { ImapBackend } from '#test/fixtures/imap-profiles.js';
import { imapSession } from '#test/helpers/imap-seed.js';

// The user's own mail client on a real IMAP server, beside the adapter under test (organise.int.test.ts,
// the port contract's harness): reads subjects, appends, flags, deletes, makes and deletes folders.

/** A second session on the real server, as the user's own mail client: reads subjects, flags, deletes. */
export async function mailClient(server: ImapBackend, account: { user: string; password: string }) {
  const client = await imapSession(server, account);
  async function uidsOf(path: string, subject: string): Promise<number[]> {
    const uids = (await client.search({ subject }, { uid: true })) || [];
    if (uids.length === 0) throw new Error(`No message "${subject}" in ${path}`);
    return uids;
  }
  return {
    /** The server announces this extension (to this direct session; a profile's proxy may hide it). */
    announces: (cap: string) => client.capabilities.has(cap),
    /** Subjects of every selectable folder's messages, sorted, by path (empty folders left out). */
    async subjects(): Promise<Record<string, string[]>> {
      const out: Record<string, string[]> = {};
      for (const box of await client.list()) {
        if (box.flags.has('\\Noselect') || box.flags.has('\\NonExistent')) continue;
        const lock = await client.getMailboxLock(box.path, { readOnly: true });
        try {
          if (!client.mailbox || client.mailbox.exists === 0) continue;
          const found: string[] = [];
          for await (const msg of client.fetch('1:*', { envelope: true }))
            found.push(msg.envelope?.subject ?? '');
          out[box.path] = found.sort();
        } finally {
          lock.release();
        }
      }
      return out;
    },
    /** APPEND with an INTERNALDATE (the seed's appends are dated by the server's clock). */
    async append(path: string, raw: string, internalDate: Date) {
      if (!(await client.append(path, raw, [], internalDate))) throw new Error(`APPEND to ${path} failed`);
    },
    async flagDeleted(path: string, subject: string) {
      const lock = await client.getMailboxLock(path);
      try {
        await client.messageFlagsAdd(await uidsOf(path, subject), ['\\Deleted'], { uid: true });
      } finally {
        lock.release();
      }
    },
    async deletedSubjects(path: string): Promise<string[]> {
      const lock = await client.getMailboxLock(path, { readOnly: true });
      try {
        const uids = (await client.search({ deleted: true }, { uid: true })) || [];
        if (uids.length === 0) return [];
        const out: string[] = [];
        for await (const msg of client.fetch(uids, { envelope: true }, { uid: true })) {
          out.push(msg.envelope?.subject ?? '');
        }
        return out.sort();
      } finally {
        lock.release();
      }
    },
    async remove(path: string, subject: string) {
      const lock = await client.getMailboxLock(path);
      try {
        await client.messageDelete(await uidsOf(path, subject), { uid: true });
      } finally {
        lock.release();
      }
    },
    /** CREATE with a special-use flag (RFC 6154 CREATE-SPECIAL-USE), which ImapFlow has no call for. */
    async createSpecial(path: string, use: string) {
      type Exec = (cmd: string, attrs: unknown[]) => Promise<{ next(): void }>;
      const exec = (client as unknown as { exec: Exec }).exec;
      const response = await exec.call(client, 'CREATE', [
        { type: 'ATOM', value: path },
        [{ type: 'ATOM', value: 'USE' }, [{ type: 'ATOM', value: use }]],
      ]);
      // ImapFlow holds its command queue until the caller has read the answer.
      response.next();
    },
    async deleteFolder(path: string) {
      await client.mailboxDelete(path);
    },
    /** CREATE, when the folder is not there yet. */
    async createFolder(path: string) {
      if (!(await client.list()).some((box) => box.path === path)) await client.mailboxCreate(path);
    },
    close: () => client.logout().catch(() => client.close()),
  };
}
