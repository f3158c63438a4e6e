// System packages the test tiers need (Debian): installed with apt-get when running as root,
// otherwise the exact command to run is printed and the tests stop.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SYSTEM_PACKAGES = [
  {
    pkg: 'chromium',
    check: () => existsSync('/usr/bin/chromium'),
    why: 'end-to-end tests drive Debian Chromium',
  },
  {
    pkg: 'dovecot-imapd',
    check: () => existsSync('/usr/sbin/dovecot'),
    why: 'IMAP tests run a real Dovecot',
  },
  { pkg: 'openssl', check: () => existsSync('/usr/bin/openssl'), why: 'HTTPS tests make their own CA' },
];

export function ensureSystemPackages(packages = SYSTEM_PACKAGES) {
  installMissing(packages);
  ensureUnpackedServers();
}

function installMissing(packages) {
  const missing = packages.filter((p) => !p.check());
  if (missing.length === 0) return;
  const names = missing.map((p) => p.pkg);
  const command = `apt-get update && apt-get install -y ${names.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Missing system packages: ${missing.map((p) => `${p.pkg} (${p.why})`).join(', ')}.`);
    console.error(`Install them with:\n  sudo ${command}`);
    process.exit(1);
  }
  console.log(`Installing system packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...names],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed; run by hand: ${command}`);
      process.exit(1);
    }
  }
}

// IMAP servers the compatibility tests start besides Dovecot (test/mail/imap/matrix.int.test.ts). They conflict
// with dovecot-imapd as packages and their post-install scripts start daemons on the standard ports, so
// their .debs are downloaded with `apt-get download` and unpacked with `dpkg-deb -x` into a private folder,
// never installed, with every library package they need that this machine does not have (followed through
// the packages' Depends). The test helpers run them from there with LD_LIBRARY_PATH; after unpacking, each
// server's programs are checked with ldd, so a library still missing fails here, by name.
export const UNPACKED_ROOT = path.resolve(import.meta.dirname, '../node_modules/.cache/imap-servers');

const MULTIARCH = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`;

/** Library folders of an unpacked server, as the test helpers pass them in LD_LIBRARY_PATH. */
export function unpackedLibraryPath(dir) {
  return ['usr/lib', `usr/lib/${MULTIARCH}`, `lib/${MULTIARCH}`, 'usr/lib/courier-authlib']
    .map((p) => path.join(dir, p))
    .join(':');
}

export const UNPACKED_SERVERS = [
  {
    name: 'courier',
    why: 'IMAP compatibility tests run Courier IMAP 5',
    // gamin: imapd's folder notifications (FAM); without its server every login carries an [ALERT].
    packages: ['courier-imap', 'courier-base', 'courier-authlib', 'gamin'],
    programs: [
      'usr/sbin/couriertcpd',
      'usr/lib/courier/courier/imaplogin',
      'usr/bin/imapd',
      'usr/libexec/gam_server',
    ],
  },
  {
    name: 'cyrus',
    why: 'IMAP compatibility tests run Cyrus IMAP 3.6',
    packages: ['cyrus-common', 'cyrus-imapd'],
    programs: ['usr/lib/cyrus/bin/master', 'usr/lib/cyrus/bin/imapd', 'usr/lib/cyrus/bin/ctl_cyrusdb'],
  },
];

const installedCache = new Map();
function installed(name) {
  const bare = name.replace(/^<|>$/g, '').replace(/:any$/, '');
  if (!installedCache.has(bare)) {
    const r = spawnSync('dpkg', ['-s', bare], { encoding: 'utf8' });
    installedCache.set(bare, r.status === 0 && /^Status: install ok installed$/m.test(r.stdout));
  }
  return installedCache.get(bare);
}

/**
 * The packages plus every library package (lib*) they depend on, directly or not, that is not installed:
 * of alternatives (`a | b`) none is added when one is installed, else the first library among them.
 */
function withMissingLibraries(packages) {
  const chosen = new Set(packages);
  // One apt-cache call per level of the dependency tree: each call loads the whole package cache (~1 s).
  for (let level = [...packages]; level.length > 0; ) {
    const r = spawnSync('apt-cache', ['depends', '--important', ...level], { encoding: 'utf8' });
    const next = [];
    let group = [];
    for (const line of (r.stdout ?? '').split('\n')) {
      const m = /^\s+(\|)?(?:Pre)?Depends: (\S+)/.exec(line);
      if (!m) continue;
      group.push(m[2]);
      if (m[1]) continue;
      const alternatives = group;
      group = [];
      if (alternatives.some((n) => installed(n) || chosen.has(n))) continue;
      const pick = alternatives.find(
        (n) => !n.startsWith('<') && n.startsWith('lib') && !/-(dev|dbg)$/.test(n),
      );
      if (pick) {
        chosen.add(pick);
        next.push(pick);
      }
    }
    level = next;
  }
  return [...chosen];
}

function aptDownload(packages, cwd) {
  const run = () => spawnSync('apt-get', ['download', '-qq', ...packages], { cwd, stdio: 'inherit' });
  let r = run();
  if (r.status !== 0 && typeof process.getuid === 'function' && process.getuid() === 0) {
    // A fresh machine has no package lists yet.
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    r = run();
  }
  return r.status === 0;
}

/** Downloads and unpacks each server whose folder is missing or was unpacked from another package list. */
export function ensureUnpackedServers(servers = UNPACKED_SERVERS) {
  for (const server of servers) {
    const dir = path.join(UNPACKED_ROOT, server.name);
    const marker = path.join(dir, '.unpacked');
    const wanted = server.packages.join(' ');
    if (existsSync(marker) && readFileSync(marker, 'utf8').split('\n')[0] === wanted) continue;
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (isRoot && spawnSync('apt-cache', ['show', server.packages[0]], { stdio: 'ignore' }).status !== 0) {
      // A fresh machine has no package lists yet.
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    }
    const packages = withMissingLibraries(server.packages);
    console.log(`Unpacking ${server.name} (${server.why}) into ${dir}: ${packages.join(' ')}`);
    const downloads = mkdtempSync(path.join(tmpdir(), `ig-debs-${server.name}-`));
    try {
      // As root, apt-get hands the download to its sandbox user, which cannot write a folder made by mkdtemp.
      spawnSync('chmod', ['0777', downloads]);
      if (!aptDownload(packages, downloads)) {
        console.error(
          `apt-get download ${packages.join(' ')} failed; run as root: node scripts/system-deps.mjs`,
        );
        process.exit(1);
      }
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const deb of readdirSync(downloads).filter((f) => f.endsWith('.deb'))) {
        const x = spawnSync('dpkg-deb', ['-x', path.join(downloads, deb), dir], { stdio: 'inherit' });
        if (x.status !== 0) {
          console.error(`dpkg-deb -x ${deb} failed`);
          process.exit(1);
        }
      }
    } finally {
      rmSync(downloads, { recursive: true, force: true });
    }
    const env = { ...process.env, LD_LIBRARY_PATH: unpackedLibraryPath(dir) };
    for (const program of server.programs) {
      const ldd = spawnSync('ldd', [path.join(dir, program)], { encoding: 'utf8', env });
      const missing = (ldd.stdout ?? '').split('\n').filter((l) => l.includes('not found'));
      if (ldd.status !== 0 || missing.length > 0) {
        console.error(`${server.name}: ${program} lacks libraries:\n${missing.join('\n') || ldd.stderr}`);
        process.exit(1);
      }
    }
    writeFileSync(marker, `${wanted}\n${packages.join(' ')}\n`);
  }
}

// `node scripts/system-deps.mjs`: what `npm test` does first, alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureSystemPackages();
}
