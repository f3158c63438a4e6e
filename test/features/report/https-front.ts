import { readFileSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { certDir } from '#test/helpers/https-sender.js';

// The app behind HTTPS, as a TLS-terminating proxy puts it in production: a local https server with the
// run's test certificate (trusted through NODE_EXTRA_CA_CERTS) handing every request to the app. The
// product's own one-click POST (features/unsubscribe/one-click-request.ts) only goes to https links, so this is
// how it reaches our RFC 8058 endpoint.

export interface HttpsFront {
  /** https://127.0.0.1:port (the test certificate names that address): the app's PUBLIC_URL. */
  origin: string;
  /** The app the requests go to (created after the front, since its PUBLIC_URL names the port). */
  serve(app: FastifyInstance): void;
  requests: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function startHttpsFront(): Promise<HttpsFront> {
  const dir = certDir();
  let target: FastifyInstance | null = null;
  const requests: HttpsFront['requests'] = [];
  const server: Server = createServer({
    key: readFileSync(path.join(dir, 'leaf.key')),
    cert: readFileSync(path.join(dir, 'leaf.crt')),
  });
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '' });
      if (!target) {
        res.writeHead(503).end();
        return;
      }
      target
        .inject({
          method: (req.method ?? 'GET') as 'GET',
          url: req.url ?? '/',
          headers: req.headers as Record<string, string>,
          payload: Buffer.concat(chunks),
          remoteAddress: req.socket.remoteAddress,
        })
        .then((answer) => {
          const headers = { ...answer.headers } as OutgoingHttpHeaders;
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode, headers).end(answer.rawPayload);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    serve: (app) => {
      target = app;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
