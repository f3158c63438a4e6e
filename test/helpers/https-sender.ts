import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// A newsletter sender's unsubscribe endpoint over real HTTPS, with the certificates that
// test/helpers/global-setup.ts made (trusted through NODE_EXTRA_CA_CERTS, or the rogue CA's that is
// not). Records every request and answers what each path was told to answer.

export interface SenderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  cookie: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

export interface SenderResponse {
  status?: number;
  body?: string;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Never answer. */
  hang?: boolean;
  /** 302 (or `status`) with this Location. */
  redirectTo?: string;
}

export interface HttpsSender {
  /** https://host:port */
  origin: string;
  port: number;
  requests: SenderRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  /** What `path` (pathname + search) answers from now on; unknown paths answer 200. */
  respond(path: string, response: SenderResponse): void;
  close(): Promise<void>;
}

export function certDir(): string {
  const dir = process.env.TEST_HTTPS_CERT_DIR;
  if (!dir)
    throw new Error('TEST_HTTPS_CERT_DIR is unset: run through the integration project (globalSetup).');
  return dir;
}

export async function startHttpsSender(
  options: { host?: string; port?: number; cert?: 'leaf' | 'rogue-leaf' } = {},
): Promise<HttpsSender> {
  const dir = certDir();
  const name = options.cert ?? 'leaf';
  const routes = new Map<string, SenderResponse>();
  const requests: SenderRequest[] = [];
  const server: Server = createServer({
    key: readFileSync(path.join(dir, `${name}.key`)),
    cert: readFileSync(path.join(dir, `${name}.crt`)),
  });
  const sender: HttpsSender = {
    origin: '',
    port: 0,
    requests,
    connections: 0,
    respond: (p, response) => routes.set(p, response),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    sender.connections++;
  });
  server.on('tlsClientError', () => {});
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      requests.push({
        method: req.method ?? '',
        path: url,
        headers: req.headers,
        cookie: req.headers.cookie,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = routes.get(url) ?? {};
      if (answer.hang) return;
      const send = () => {
        if (answer.redirectTo) {
          res.writeHead(answer.status ?? 302, { location: answer.redirectTo }).end();
        } else {
          res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' }).end(answer.body ?? 'ok');
        }
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  sender.port = port;
  sender.origin = `https://${options.host ?? '127.0.0.1'}:${port}`;
  return sender;
}
