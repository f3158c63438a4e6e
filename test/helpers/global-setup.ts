import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTestDkimKey, startDnsServer } from './dkim.js';
import { dropOrphanedSchemas, dropRegisteredSchemas, schemaListPath } from './pg-schemas.js';

// Integration globalSetup: senders' DKIM key and its DNS server (dkim.ts), and a throwaway certificate authority and a leaf certificate for 127.0.0.1,
// 127.0.0.2 and localhost (the local HTTPS sender of test/helpers/https-sender.ts), plus a second,
// unknown CA with its own leaf (a server the product must not trust).
//
// Vitest 4 builds each fork's environment from process.env when it starts the test files, which is
// after globalSetup has run, so NODE_EXTRA_CA_CERTS set here reaches the workers' Node at startup —
// the only time Node reads it. (Checked by test/features/unsubscribe/one-click.int.test.ts.)

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** The certificates (NODE_EXTRA_CA_CERTS, TEST_HTTPS_CERT_DIR); answers what removes them. */
export function setupCertificates(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbox-genie-certs-'));
  const ext = path.join(dir, 'leaf.ext');
  writeFileSync(
    ext,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1,IP:127.0.0.2,DNS:localhost',
      '',
    ].join('\n'),
  );
  for (const name of ['ca', 'rogue-ca']) {
    openssl(
      dir,
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-sha256'],
      ...['-subj', `/CN=Inbox Genie test ${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    );
  }
  for (const [leaf, ca] of [
    ['leaf', 'ca'],
    ['rogue-leaf', 'rogue-ca'],
  ] as const) {
    openssl(
      dir,
      ...['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1'],
      ...['-keyout', `${leaf}.key`, '-out', `${leaf}.csr`],
    );
    openssl(
      dir,
      ...['x509', '-req', '-in', `${leaf}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'],
      ...['-days', '2', '-sha256', '-extfile', 'leaf.ext', '-out', `${leaf}.crt`],
    );
  }
  process.env.NODE_EXTRA_CA_CERTS = path.join(dir, 'ca.crt');
  process.env.TEST_HTTPS_CERT_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

export default async function setup(): Promise<() => Promise<void>> {
  const removeCertificates = setupCertificates();
  // Senders' DKIM key for the run and the DNS server that publishes it (test/helpers/dkim.ts).
  const keyFile = ensureTestDkimKey();
  const dns = await startDnsServer();
  process.env.TEST_DNS_SERVERS = dns.address;
  await dropOrphanedSchemas(process.env.TEST_DATABASE_URL);
  const schemaList = schemaListPath();
  writeFileSync(schemaList, '');
  process.env.TEST_SCHEMA_LIST = schemaList;
  return async () => {
    await dropRegisteredSchemas(schemaList, process.env.TEST_DATABASE_URL);
    await dns.stop();
    rmSync(keyFile, { force: true });
    removeCertificates();
  };
}
