import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpSession } from '#test/helpers/http.js';
import { freePort } from '#test/helpers/net.js';
import { killProduct, startProduct } from '#test/helpers/product-process.js';

// An orchestrator stops the product with SIGTERM and waits (Kubernetes 30 s, Docker 10 s) before SIGKILL.
// Open browser tabs hold socket.io connections (a websocket, or a long poll) and idle keep-alive HTTP
// connections; with them the server stopped answering but did not exit. It must close them, drain and
// exit by itself, with status 0, within 10 s.

describe('the product stopped with SIGTERM', () => {
  let child: ChildProcess | null = null;
  let dataDir = '';
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.close();
    if (child) await killProduct(child);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('closes live sockets and idle connections and exits 0 within 10 s', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ig-shutdown-'));
    const port = await freePort();
    child = await startProduct(port, { DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}` });
    const base = `http://127.0.0.1:${port}`;
    const http = new HttpSession(base);
    expect(
      (await http.call('/auth/signup', 'POST', { email: 'tabs@example.com', password: 'long enough' })).ok,
    ).toBe(true);
    const open = (transports: ('websocket' | 'polling')[]) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(base, {
          transports,
          reconnection: false,
          extraHeaders: { cookie: http.cookieHeader() },
        });
        sockets.push(socket);
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    // Two tabs: one on a websocket, one long-polling; and an idle keep-alive connection.
    await open(['websocket']);
    await open(['polling']);
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}/healthz`, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });

    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), 12_000)),
    ]);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    child = null;
  });
});
