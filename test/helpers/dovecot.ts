import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './net.js';
import { NOBODY, type ServerUser } from './unpacked-server.js';

// A private Dovecot IMAP server on loopback for the tests (docs/decisions/009-vitest-for-every-tier.md): own config in a temp dir,
// passwd-file users, maildir owned by `nobody`, no TLS, no auth delay. Started in the foreground
// as a child so it dies with the test process.

export type DovecotUser = ServerUser;

export interface Dovecot {
  host: string;
  port: number;
  base: string;
  addUser(user: DovecotUser): Promise<void>;
  /** Drops a raw message into a folder's maildir `new/` (picked up on the next SELECT). */
  deliver(user: string, folder: string, raw: string | Buffer, flags?: string): Promise<void>;
  /** Messages in a folder, as the user's IMAP STATUS reports them. */
  count(user: DovecotUser, folder: string): Promise<number>;
  /** Runs `use` with an ImapFlow client logged in as the user (the user's own mail client), logged out after. */
  withClient<T>(user: DovecotUser, use: (client: ImapFlow) => Promise<T>): Promise<T>;
  /** MAIL_PROVIDER_OVERRIDES pointing Yahoo's IMAP at this Dovecot (and its SMTP at `smtpPort`). */
  yahooOverrides(smtpPort?: number): string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

export function dovecotAvailable(): boolean {
  return existsSync('/usr/sbin/dovecot');
}

async function waitForPort(port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`Dovecot exited (${child.exitCode}) at start:\n${log}`);
    }
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('data', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('Dovecot did not listen within 15 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Maildir++ folder directory: INBOX is the root, "A/B" is ".A.B" (names modified-UTF-7 encoded by Dovecot). */
function folderDir(home: string, folder: string): string {
  if (folder.toUpperCase() === 'INBOX') return path.join(home, 'Maildir');
  return path.join(home, 'Maildir', `.${folder.replace(/\//g, '.')}`);
}

export async function startDovecot(users: DovecotUser[] = []): Promise<Dovecot> {
  if (!dovecotAvailable()) {
    throw new Error(
      'Dovecot is not installed: run `apt-get install -y dovecot-imapd` (npm test does it as root).',
    );
  }
  const base = await mkdtemp(path.join(tmpdir(), 'ig-dovecot-'));
  // Dovecot's auth and mail processes run as other users and need to traverse the tree.
  await chmod(base, 0o755);
  const port = await freePort();
  const logFile = path.join(base, 'dovecot.log');
  // One passwd-file per user: Dovecot notices a changed passwd-file by its mtime, in whole seconds,
  // so users added within one second to a shared file could stay unknown.
  const usersDir = path.join(base, 'users');
  const mailRoot = path.join(base, 'mail');
  await mkdir(mailRoot, { recursive: true });
  await chown(mailRoot, NOBODY, NOBODY);
  await mkdir(usersDir, { mode: 0o755 });

  const conf = `
base_dir = ${base}/run
state_dir = ${base}/state
log_path = ${logFile}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
auth_verbose = yes
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
maildir_very_dirty_syncs = yes
imap_capability = +SPECIAL-USE
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${usersDir}/%u
}
userdb {
  driver = static
  args = uid=${NOBODY} gid=${NOBODY} home=${mailRoot}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service auth {
  chroot =
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
}
`;
  const confFile = path.join(base, 'dovecot.conf');
  await writeFile(confFile, conf);
  const child = spawn('/usr/sbin/dovecot', ['-F', '-c', confFile], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child, logFile);

  const dovecot: Dovecot = {
    host: '127.0.0.1',
    port,
    base,
    async addUser({ user, password }) {
      if (/[:\n/]/.test(user) || /[:\n]/.test(password)) {
        throw new Error('user/password must not contain : / or newline');
      }
      const file = path.join(usersDir, user);
      const existed = await stat(file).then(
        () => true,
        () => false,
      );
      const before = existed ? (await stat(file)).mtimeMs : 0;
      await writeFile(file, `${user}:{PLAIN}${password}::::::\n`, { mode: 0o644 });
      if (!existed) return;
      // Dovecot reads a passwd-file again when its mtime (whole seconds) changes, at most once a second.
      // A rewrite within the second of the last write would keep the mtime Dovecot has seen: it is moved
      // on explicitly, and the rewrite resolves only once Dovecot takes the new password.
      const mtime = new Date(Math.max(Date.now(), before + 2000));
      await utimes(file, mtime, mtime);
      const deadline = Date.now() + 10_000;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1100));
        const ok = await dovecot.withClient({ user, password }, async () => true).catch(() => false);
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`Dovecot did not take the new password of ${user}`);
      }
    },
    async deliver(user, folder, raw, flags = '') {
      const home = path.join(mailRoot, user);
      const dir = folderDir(home, folder);
      for (const sub of ['', 'new', 'cur', 'tmp']) {
        const d = path.join(dir, sub);
        if (!existsSync(d)) {
          await mkdir(d, { recursive: true });
          await chown(d, NOBODY, NOBODY);
        }
      }
      for (const d of [path.join(mailRoot, user), path.join(home, 'Maildir')]) await chown(d, NOBODY, NOBODY);
      if (folder.toUpperCase() !== 'INBOX') {
        // Dovecot lists maildir++ folders found on disk; subscribing is not needed for LIST.
        await writeFile(path.join(dir, 'maildirfolder'), '');
      }
      const unique = `${Date.now()}.${randomBytes(6).toString('hex')}.igtest`;
      const file = flags ? path.join(dir, 'cur', `${unique}:2,${flags}`) : path.join(dir, 'new', unique);
      await writeFile(file, raw);
      await chown(file, NOBODY, NOBODY);
    },
    count(user, folder) {
      return dovecot.withClient(user, async (imap) => {
        const status = await imap.status(folder, { messages: true });
        return status ? (status.messages ?? 0) : 0;
      });
    },
    async withClient({ user, password }, use) {
      const imap = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user, pass: password },
        logger: false,
      });
      await imap.connect();
      try {
        return await use(imap);
      } finally {
        await imap.logout();
      }
    },
    yahooOverrides(smtpPort) {
      const at = (p: number) => ({ host: '127.0.0.1', port: p, secure: false });
      return JSON.stringify({
        yahoo: { imap: at(port), ...(smtpPort === undefined ? {} : { smtp: at(smtpPort) }) },
      });
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(base, { recursive: true, force: true });
    },
  };
  for (const u of users) await dovecot.addUser(u);
  return dovecot;
}

/**
 * IMAP's modified UTF-7 (RFC 3501 §5.1.3), the form Dovecot's maildir++ layout uses on disk: pass
 * `deliver(user, encodeMailboxName('Newsletters/Café'), raw)` to create a folder with a non-ASCII name.
 */
export function encodeMailboxName(name: string): string {
  return name.replace(/&/g, '&-').replace(/[^\x20-\x7e]+/g, (run) => {
    const utf16be = Buffer.from(run, 'utf16le').swap16();
    return `&${utf16be.toString('base64').replace(/=+$/, '').replace(/\//g, ',')}-`;
  });
}
