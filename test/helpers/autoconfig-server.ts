import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { certDir } from './https-sender.js';

// Domains' web servers publishing mail client autoconfig files (Thunderbird's config-v1.1.xml), over real
// HTTPS on 127.0.0.1: one server for every name, with a leaf certificate for those names signed by the
// run's test CA (test/helpers/global-setup.ts; trusted through NODE_EXTRA_CA_CERTS), so the product checks
// the certificate against the name it asked for, as it does on the internet. The DNS fake
// (dns-fake.ts) points the names at 127.0.0.1; the product is told the port (AppDeps.autoconfigPort).

export interface AutoconfigAnswer {
  body?: string;
  status?: number;
  /** Never answer (a slow domain). */
  hang?: boolean;
}

export interface AutoconfigServer {
  port: number;
  /** What `https://<host><path>` answers from now on; anything else is 404. */
  respond(host: string, path: string, answer: AutoconfigAnswer): void;
  /** Every request, as `host path`. */
  requests: string[];
  close(): Promise<void>;
}

/** A leaf certificate for `names` from the test CA, made in a folder of its own (removed at once). */
function leafFor(names: readonly string[]): { key: Buffer; cert: Buffer } {
  const ca = certDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'ig-autoconfig-cert-'));
  try {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const san = names.map((n) => `DNS:${n}`).join(',');
    writeFileSync(
      path.join(dir, 'leaf.ext'),
      `basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`,
    );
    run(
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${names[0]}`,
      '-keyout',
      'k.pem',
      '-out',
      'r.csr',
    );
    run(
      ...['x509', '-req', '-in', 'r.csr', '-CA', path.join(ca, 'ca.crt'), '-CAkey', path.join(ca, 'ca.key')],
      ...[
        '-set_serial',
        String(Date.now()),
        '-days',
        '1',
        '-sha256',
        '-extfile',
        'leaf.ext',
        '-out',
        'c.pem',
      ],
    );
    return { key: readFileSync(path.join(dir, 'k.pem')), cert: readFileSync(path.join(dir, 'c.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Serves `names` (the certificate's names: the domains and their autoconfig.<domain> hosts). */
export async function startAutoconfigServer(names: readonly string[]): Promise<AutoconfigServer> {
  const answers = new Map<string, AutoconfigAnswer>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(leafFor(names), (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    requests.push(`${host} ${req.url}`);
    const answer = answers.get(`${host}${req.url}`);
    if (answer?.hang) return;
    res.writeHead(answer ? (answer.status ?? 200) : 404, { 'content-type': 'application/xml' });
    res.end(answer?.body ?? '');
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    respond: (host, p, answer) => answers.set(`${host.toLowerCase()}${p}`, answer),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A config-v1.1.xml naming one IMAP server (and an SMTP one the product ignores). */
export function autoconfigXml(imap: { hostname: string; port: number; socketType: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="example">
    <domain>%EMAILDOMAIN%</domain>
    <incomingServer type="pop3">
      <hostname>pop.example.invalid</hostname><port>995</port><socketType>SSL</socketType>
    </incomingServer>
    <incomingServer type="imap">
      <hostname>${imap.hostname}</hostname>
      <port>${imap.port}</port>
      <socketType>${imap.socketType}</socketType>
      <username>%EMAILADDRESS%</username>
      <authentication>password-cleartext</authentication>
    </incomingServer>
    <outgoingServer type="smtp">
      <hostname>smtp.example.invalid</hostname><port>465</port><socketType>SSL</socketType>
    </outgoingServer>
  </emailProvider>
</clientConfig>`;
}
