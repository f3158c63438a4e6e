import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseHostList } from './address-policy.js';
import {
  ForbiddenAddressError,
  RequestTimeoutError,
  ResponseTooLargeError,
  safeRequest,
  TooManyRedirectsError,
  UnsupportedSchemeError,
} from './safe-fetch.js';

// A real listener on 127.0.0.1: refusals must happen before any connection reaches it (nothing is mocked).
let server: Server;
let port: number;
let connections = 0;
const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      seen.push({
        method: req.method ?? '',
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const hop = /^\/hop\/(\d+)\/(\d+)$/.exec(url);
      if (hop) {
        const next = Number(hop[2]) + 1;
        res.writeHead(Number(hop[1]), { location: `/hop/${hop[1]}/${next}` }).end();
      } else if (url.startsWith('/to?')) {
        res.writeHead(302, { location: new URLSearchParams(url.slice(4)).get('u')! }).end();
      } else if (url.startsWith('/status/')) {
        res.writeHead(Number(url.slice(8)), { location: '/landing' }).end();
      } else if (url === '/hang') {
        res.flushHeaders();
      } else if (url === '/big') {
        res.end('x'.repeat(5000));
      } else {
        res.end('hello');
      }
    });
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  connections = 0;
  seen.length = 0;
});

const allowed = parseHostList('127.0.0.1');

describe('safeRequest refuses forbidden addresses before connecting', () => {
  it.each([
    ['http://127.0.0.1:PORT/', '127.0.0.1'],
    ['http://2130706433:PORT/', '127.0.0.1'],
    ['http://0x7f000001:PORT/', '127.0.0.1'],
    ['http://0x7f.1:PORT/', '127.0.0.1'],
    ['http://0177.0.0.1:PORT/', '127.0.0.1'],
    ['http://127.1:PORT/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]:PORT/', '[::ffff:7f00:1]'],
    ['http://[::1]:PORT/', '[::1]'],
    ['http://localhost:PORT/', 'localhost'],
    ['https://localhost:PORT/', 'localhost'],
  ])('%s', async (spelling, hostname) => {
    const url = spelling.replace('PORT', String(port));
    // The WHATWG parser normalises every spelling before anything else sees it.
    expect(new URL(url).hostname).toBe(hostname);
    await expect(safeRequest(url)).rejects.toBeInstanceOf(ForbiddenAddressError);
    expect(connections).toBe(0);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://10.0.0.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
  ])('%s', async (url) => {
    await expect(safeRequest(url, { timeoutMs: 2000 })).rejects.toBeInstanceOf(ForbiddenAddressError);
  });

  it('refuses a redirect hop to a forbidden address, and to a non-http scheme', async () => {
    const to = (u: string) => `http://127.0.0.1:${port}/to?${new URLSearchParams({ u })}`;
    await expect(
      safeRequest(to(`http://127.0.0.2:${port}/`), { allowedHosts: allowed }),
    ).rejects.toBeInstanceOf(ForbiddenAddressError);
    await expect(
      safeRequest(to('http://169.254.169.254/'), { allowedHosts: allowed }),
    ).rejects.toBeInstanceOf(ForbiddenAddressError);
    await expect(safeRequest(to('file:///etc/passwd'), { allowedHosts: allowed })).rejects.toBeInstanceOf(
      UnsupportedSchemeError,
    );
    expect(seen.map((r) => r.url.slice(0, 4))).toEqual(['/to?', '/to?', '/to?']);
  });

  it('refuses a non-http scheme at the start', async () => {
    await expect(safeRequest('ftp://example.org/')).rejects.toBeInstanceOf(UnsupportedSchemeError);
  });
});

describe('safeRequest with an allowed host', () => {
  it('sends no cookie or credentials, even when asked to', async () => {
    const res = await safeRequest(`http://user:secret@127.0.0.1:${port}/hi`, {
      method: 'POST',
      headers: { Cookie: 'a=b', Authorization: 'Bearer x', 'content-type': 'text/plain' },
      body: 'payload',
      allowedHosts: allowed,
    });
    expect(res).toMatchObject({ status: 200, bodyText: 'hello', finalUrl: `http://127.0.0.1:${port}/hi` });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.body).toBe('payload');
  });

  it('follows redirects by hand: 307/308 keep the POST, 303 and 302 turn it into GET', async () => {
    for (const [status, method, body] of [
      [307, 'POST', 'b'],
      [308, 'POST', 'b'],
      [303, 'GET', ''],
      [302, 'GET', ''],
      [301, 'GET', ''],
    ] as const) {
      seen.length = 0;
      const res = await safeRequest(`http://127.0.0.1:${port}/status/${status}`, {
        method: 'POST',
        body: 'b',
        allowedHosts: allowed,
      });
      expect(res.status).toBe(200);
      expect(res.finalUrl).toBe(`http://127.0.0.1:${port}/landing`);
      expect(seen[1]).toMatchObject({ method, url: '/landing', body });
    }
  });

  it('caps redirects', async () => {
    await expect(
      safeRequest(`http://127.0.0.1:${port}/hop/302/0`, { allowedHosts: allowed, maxRedirects: 3 }),
    ).rejects.toBeInstanceOf(TooManyRedirectsError);
    expect(seen).toHaveLength(4);
  });

  it('times out across headers and body', async () => {
    const t0 = Date.now();
    await expect(
      safeRequest(`http://127.0.0.1:${port}/hang`, { allowedHosts: allowed, timeoutMs: 200 }),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('caps the body', async () => {
    await expect(
      safeRequest(`http://127.0.0.1:${port}/big`, { allowedHosts: allowed, maxBodyBytes: 1000 }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});
