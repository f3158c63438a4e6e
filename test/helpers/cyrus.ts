import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './net.js';
import {
  NOBODY,
  type ServerUser,
  type UnpackedImapServer,
  unpackedLibraryPath,
  unpackedSaslPath,
  waitForGreeting,
  watchedCommand,
} from './unpacked-server.js';

// Debian's Cyrus IMAP 3.6 (cyrus-imapd, unpacked by scripts/system-deps.mjs, never installed: it conflicts
// with dovecot-imapd, and its post-install scripts would start daemons on the standard ports) on loopback
// for the tests: Cyrus's own master and imapd, run as `nobody` (cyrus_user), with Debian's /etc/imapd.conf
// settings (`INBOX.` with `.` as separator, plaintext logins allowed, INBOX made at first login) and every
// path in a folder of its own, plus `virtdomains: userid`: the product logs in with the email address, and
// Cyrus without virtual domains refuses a `user@domain` login even after SASL accepted it. Passwords are
// checked through SASL's saslauthd method, whose socket this helper answers (saslauthd's protocol: login,
// password, service, realm as length-prefixed strings → "OK" or "NO"), from users added at run time.
// Everything a client sees is Cyrus's.

export type CyrusUser = ServerUser;
// log(): what master and its services wrote to stderr; Cyrus logs to syslog otherwise.
export type Cyrus = UnpackedImapServer;

export const CYRUS_ROOT = path.resolve(import.meta.dirname, '../../node_modules/.cache/imap-servers/cyrus');
const BIN = path.join(CYRUS_ROOT, 'usr/lib/cyrus/bin');

export function cyrusAvailable(): boolean {
  return existsSync(path.join(BIN, 'imapd'));
}

export async function startCyrus(users: CyrusUser[] = []): Promise<Cyrus> {
  if (!cyrusAvailable()) {
    throw new Error(
      `Cyrus IMAP is not unpacked at ${CYRUS_ROOT}: run \`node scripts/system-deps.mjs\` (npm test does it).`,
    );
  }
  const base = await mkdtemp(path.join(tmpdir(), 'ig-cyrus-'));
  await chmod(base, 0o755);
  const dirs = ['config', 'config/db', 'config/proc', 'config/lock', 'config/ptclient', 'spool', 'run'];
  for (const d of dirs) {
    await mkdir(path.join(base, d), { recursive: true });
    await chown(path.join(base, d), NOBODY, NOBODY);
  }
  const passwords = new Map<string, string>();
  const mux = path.join(base, 'run', 'mux');
  const auth = saslauthd(passwords);
  await new Promise<void>((resolve) => auth.listen(mux, resolve));
  await chmod(mux, 0o777);

  const port = await freePort();
  const conf = path.join(base, 'imapd.conf');
  // Debian's /etc/imapd.conf, its paths moved into `base`.
  await writeFile(
    conf,
    `configdirectory: ${base}/config
proc_path: ${base}/config/proc
mboxname_lockpath: ${base}/config/lock
defaultpartition: default
partition-default: ${base}/spool
altnamespace: no
unixhierarchysep: no
virtdomains: userid
lmtp_downcase_rcpt: yes
allowanonymouslogin: no
autocreate_quota: 0
umask: 077
hashimapspool: true
allowplaintext: yes
sasl_pwcheck_method: saslauthd
sasl_saslauthd_path: ${mux}
sasl_mech_list: PLAIN LOGIN
sasl_auto_transition: no
cyrus_user: nobody
cyrus_group: nogroup
lmtpsocket: ${base}/run/lmtp
idlesocket: ${base}/run/idle
notifysocket: ${base}/run/notify
syslog_prefix: ig-cyrus
`,
  );
  const master = path.join(base, 'cyrus.conf');
  await writeFile(
    master,
    `START {
  recover cmd="${BIN}/ctl_cyrusdb -r -C ${conf}"
}
SERVICES {
  imap cmd="${BIN}/imapd -C ${conf}" listen="127.0.0.1:${port}" prefork=0 maxchild=40
}
EVENTS {
}
`,
  );
  const sasl = unpackedSaslPath(CYRUS_ROOT);
  // -p: master locks its pid file, /run/cyrus-master.pid unless told (imapd.conf has no setting for it),
  // and a second master on the machine (another test file's) would exit 71 at that lock.
  const run = watchedCommand(path.join(BIN, 'master'), [
    '-C',
    conf,
    '-M',
    master,
    '-p',
    path.join(base, 'run', 'master.pid'),
    '-D',
  ]);
  const child: ChildProcess = spawn(run.command, run.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LD_LIBRARY_PATH: unpackedLibraryPath(CYRUS_ROOT),
      // SASL's plugins (PLAIN, LOGIN), when they came unpacked rather than installed.
      ...(sasl ? { SASL_PATH: sasl } : {}),
    },
  });
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForGreeting(port, child, () => log, 'Cyrus');

  const cyrus: Cyrus = {
    host: '127.0.0.1',
    port,
    base,
    async addUser({ user, password }) {
      passwords.set(user, password);
    },
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await new Promise<void>((resolve) => auth.close(() => resolve()));
      await rm(base, { recursive: true, force: true });
    },
  };
  for (const u of users) await cyrus.addUser(u);
  return cyrus;
}

/** saslauthd's side of its socket: four length-prefixed strings in, one out. */
function saslauthd(passwords: Map<string, string>): Server {
  return createServer((socket) => {
    let input = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      input = Buffer.concat([input, chunk]);
      const fields: string[] = [];
      let at = 0;
      while (fields.length < 4 && at + 2 <= input.length) {
        const size = input.readUInt16BE(at);
        if (at + 2 + size > input.length) return;
        fields.push(input.toString('utf8', at + 2, at + 2 + size));
        at += 2 + size;
      }
      if (fields.length < 4) return;
      // SASL splits `user@domain` into the login and the realm.
      const [login = '', password = '', , realm = ''] = fields;
      const user = realm ? `${login}@${realm}` : login;
      const ok = passwords.has(user) && passwords.get(user) === password;
      const answer = Buffer.from(ok ? 'OK' : 'NO authentication failed', 'utf8');
      const size = Buffer.alloc(2);
      size.writeUInt16BE(answer.length);
      socket.end(Buffer.concat([size, answer]));
    });
  });
}
