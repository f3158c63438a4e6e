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

// IMAP servers the compatibility tests start besides Dovecot (test/imap-matrix.int.test.ts). They conflict
// with dovecot-imapd as packages and their post-install scripts start daemons on the standard ports, so
// their .debs (and the libraries they need that Debian 12 does not have by default) are downloaded with
// `apt-get download` and unpacked with `dpkg-deb -x` into a private folder, never installed. The test
// helpers run them from there with LD_LIBRARY_PATH.
export const UNPACKED_ROOT = path.resolve(import.meta.dirname, '../node_modules/.cache/imap-servers');

export const UNPACKED_SERVERS = [
  {
    name: 'courier',
    why: 'IMAP compatibility tests run Courier IMAP 5',
    packages: [
      'courier-imap',
      'courier-base',
      'courier-authlib',
      'libcourier-unicode4',
      'libidn12',
      'libgamin0',
      'gamin',
    ],
  },
  {
    name: 'cyrus',
    why: 'IMAP compatibility tests run Cyrus IMAP 3.6',
    packages: ['cyrus-common', 'cyrus-imapd', 'libical3', 'libxapian30', 'libpcre3'],
  },
];

/** Downloads and unpacks each server whose folder is missing or was unpacked from another package list. */
export function ensureUnpackedServers(servers = UNPACKED_SERVERS) {
  for (const server of servers) {
    const dir = path.join(UNPACKED_ROOT, server.name);
    const marker = path.join(dir, '.unpacked');
    const wanted = server.packages.join(' ');
    if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === wanted) continue;
    console.log(`Unpacking ${server.name} (${server.why}) into ${dir}: ${wanted}`);
    const downloads = mkdtempSync(path.join(tmpdir(), `ig-debs-${server.name}-`));
    try {
      // As root, apt-get hands the download to its sandbox user, which cannot write a folder made by mkdtemp.
      spawnSync('chmod', ['0777', downloads]);
      let r = spawnSync('apt-get', ['download', '-qq', ...server.packages], {
        cwd: downloads,
        stdio: 'inherit',
      });
      if (r.status !== 0 && typeof process.getuid === 'function' && process.getuid() === 0) {
        // A fresh machine has no package lists yet.
        spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
        r = spawnSync('apt-get', ['download', '-qq', ...server.packages], {
          cwd: downloads,
          stdio: 'inherit',
        });
      }
      if (r.status !== 0) {
        console.error(`apt-get download ${wanted} failed; run as root: node scripts/system-deps.mjs`);
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
      writeFileSync(marker, `${wanted}\n`);
    } finally {
      rmSync(downloads, { recursive: true, force: true });
    }
  }
}

// `node scripts/system-deps.mjs`: what `npm test` does first, alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureSystemPackages();
}
