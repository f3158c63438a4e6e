import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './net.js';
import {
  NOBODY,
  type ServerUser,
  type UnpackedImapServer,
  unpackedLibraryPath,
  waitForGreeting,
  watchedCommand,
} from './unpacked-server.js';

// Debian's Courier IMAP 5 (courier-imap, unpacked by scripts/system-deps.mjs, never installed: it conflicts
// with dovecot-imapd, and its post-install scripts would start daemons on port 143) on loopback for the
// tests: Courier's own couriertcpd → imaplogin → imapd, with Debian's default /etc/courier/imapd settings,
// maildirs owned by `nobody`. Courier's paths are compiled in (the authdaemon socket under /run/courier),
// so the server runs in a private mount namespace (`unshare -m`, root only) where /run/courier is a
// folder of its own. Its authentication library asks authdaemond over that socket; authdaemond itself
// reads only /etc/courier, so this helper answers the socket in its place (authdaemond's protocol:
// `AUTH <n>` + service, `login`, user, password → `KEY=value` lines and `.`, or `FAIL`), from users
// added at run time. Everything a client sees is Courier's.

export type CourierUser = ServerUser;
// log(): what couriertcpd, imaplogin and imapd wrote to stderr.
export type Courier = UnpackedImapServer;

export const COURIER_ROOT = path.resolve(
  import.meta.dirname,
  '../../node_modules/.cache/imap-servers/courier',
);

export function courierAvailable(): boolean {
  return existsSync(path.join(COURIER_ROOT, 'usr/bin/imapd'));
}

// Debian's /etc/courier/imapd, the settings its init script hands couriertcpd and imapd.
const IMAPD_ENV: Record<string, string> = {
  IMAP_CAPABILITY:
    'IMAP4rev1 UIDPLUS CHILDREN NAMESPACE THREAD=ORDEREDSUBJECT THREAD=REFERENCES SORT QUOTA IDLE',
  IMAP_KEYWORDS: '1',
  IMAP_ACL: '1',
  IMAP_PROXY: '0',
  IMAP_IDLE_TIMEOUT: '60',
  IMAP_MAILBOX_SANITY_CHECK: '1',
  IMAP_DISABLETHREADSORT: '0',
  IMAP_CHECK_ALL_FOLDERS: '0',
  IMAP_OBSOLETE_CLIENT: '0',
  IMAP_UMASK: '022',
  IMAP_USELOCKS: '1',
  IMAP_ENHANCEDIDLE: '0',
  IMAP_TRASHFOLDERNAME: 'Trash',
  IMAP_EMPTYTRASH: 'Trash:7',
  IMAP_MOVE_EXPUNGE_TO_TRASH: '0',
  IMAPDSTARTTLS: 'NO',
  MAILDIRPATH: 'Maildir',
};

export async function startCourier(users: CourierUser[] = []): Promise<Courier> {
  if (!courierAvailable()) {
    throw new Error(
      `Courier IMAP is not unpacked at ${COURIER_ROOT}: run \`node scripts/system-deps.mjs\` (npm test does it).`,
    );
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error('Courier IMAP runs in a mount namespace of its own (unshare -m), which needs root.');
  }
  const base = await mkdtemp(path.join(tmpdir(), 'ig-courier-'));
  await chmod(base, 0o755);
  const run = path.join(base, 'run');
  const mailRoot = path.join(base, 'mail');
  await mkdir(path.join(run, 'authdaemon'), { recursive: true });
  await mkdir(mailRoot, { recursive: true });
  await chmod(run, 0o755);

  const accounts = new Map<string, { password: string; home: string }>();
  const auth = authdaemon(accounts);
  await new Promise<void>((resolve) => auth.listen(path.join(run, 'authdaemon', 'socket'), resolve));
  await chmod(path.join(run, 'authdaemon', 'socket'), 0o777);

  const port = await freePort();
  const root = COURIER_ROOT;
  const script = [
    'set -e',
    'mount -t tmpfs tmpfs /run',
    'mkdir -p /run/courier',
    'mount --bind "$IG_RUN" /run/courier',
    'exec "$@"',
  ].join('\n');
  const tcpd = [
    path.join(root, 'usr/sbin/couriertcpd'),
    '-address=127.0.0.1',
    '-nodnslookup',
    '-noidentlookup',
    '-maxprocs=40',
    '-maxperip=40',
    String(port),
    path.join(root, 'usr/lib/courier/courier/imaplogin'),
    path.join(root, 'usr/bin/imapd'),
    'Maildir',
  ];
  const watched = watchedCommand('unshare', ['-m', '--', 'sh', '-c', script, 'courier', ...tcpd]);
  const child: ChildProcess = spawn(watched.command, watched.args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      IG_RUN: run,
      LD_LIBRARY_PATH: unpackedLibraryPath(root),
      // imapd watches folders through FAM: libgamin starts its server from this path (compiled in otherwise).
      GAMIN_DEBUG_SERVER: path.join(root, 'usr/libexec/gam_server'),
      ...IMAPD_ENV,
    },
  });
  let log = '';
  child.stderr?.on('data', (b: Buffer) => {
    log = (log + b.toString('utf8')).slice(-8000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForGreeting(port, child, () => log, 'Courier');

  const courier: Courier = {
    host: '127.0.0.1',
    port,
    base,
    async addUser({ user, password }) {
      if (/[\n/]/.test(user) || user.startsWith('.')) throw new Error('user must not contain / or newline');
      const home = path.join(mailRoot, user);
      for (const dir of [home, path.join(home, 'Maildir')]) {
        await mkdir(dir, { recursive: true });
        await chown(dir, NOBODY, NOBODY);
      }
      for (const sub of ['cur', 'new', 'tmp']) {
        const dir = path.join(home, 'Maildir', sub);
        await mkdir(dir, { recursive: true });
        await chown(dir, NOBODY, NOBODY);
      }
      accounts.set(user, { password, home });
    },
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await new Promise<void>((resolve) => auth.close(() => resolve()));
      await rm(base, { recursive: true, force: true });
    },
  };
  for (const u of users) await courier.addUser(u);
  return courier;
}

/** authdaemond's side of its socket: `AUTH` for a login with a password, `PRE` for a lookup by name. */
function authdaemon(accounts: Map<string, { password: string; home: string }>): Server {
  return createServer((socket) => {
    let input = '';
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      input += chunk.toString('utf8');
      const answer = authAnswer(input, accounts);
      if (answer !== null) socket.end(answer);
    });
  });
}

function authAnswer(
  request: string,
  accounts: Map<string, { password: string; home: string }>,
): string | null {
  // The request may start with the client's variables (`TCPREMOTEIP=…`), one a line.
  let input = request;
  while (/^[A-Z_]+=[^\n]*\n/.test(input)) input = input.slice(input.indexOf('\n') + 1);
  const newline = input.indexOf('\n');
  if (newline < 0) return null;
  const head = input.slice(0, newline);
  const found = (user: string) => {
    const a = accounts.get(user);
    if (!a) return 'FAIL\n';
    // No USERNAME: that is a system account name, looked up with getpwnam; UID and GID stand for it.
    return `UID=${NOBODY}\nGID=${NOBODY}\nHOME=${a.home}\nADDRESS=${user}\nMAILDIR=${path.join(a.home, 'Maildir')}\n.\n`;
  };
  const auth = /^AUTH (\d+)$/.exec(head);
  if (auth) {
    const size = Number(auth[1]);
    const body = Buffer.from(input.slice(newline + 1), 'utf8');
    if (body.length < size) return null;
    // service, authtype, then the authtype's data: for `login`, the user and the password.
    const [, type, user = '', password = ''] = body.subarray(0, size).toString('utf8').split('\n');
    if (type !== 'login') return 'FAIL\n';
    const account = accounts.get(user);
    return account && account.password === password ? found(user) : 'FAIL\n';
  }
  const pre = /^PRE \S+ \S+ (.+)$/.exec(head);
  if (pre) return found(pre[1]!);
  return 'FAIL\n';
}
