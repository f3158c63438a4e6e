// System packages the test tiers need (Debian): installed with apt-get when running as root,
// otherwise the exact command to run is printed and the tests stop.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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
