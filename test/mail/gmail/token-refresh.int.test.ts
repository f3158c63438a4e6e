import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GmailClient } from '#server/mail/gmail/client.js';
import { describeFetchError } from '#server/mail/gmail/google-oauth.js';
import { MailAuthError, MailConnectionError } from '#server/mail/provider.js';

// The access-token refresh of the Gmail client against a real HTTP server on 127.0.0.1 (Google's token
// endpoint and getProfile, as GOOGLE_BASE_URL lays them out). bench:gmail stopped with "Google token
// endpoint unreachable: ECONNRESET": the process was busy (seeding, in-process emulator) for longer than the
// server keeps an idle connection, and the refresh went out on the pooled connection the server then
// dropped. Every Gmail call retried such a failure; the refresh did not.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Handler, keepAliveMs = 5000): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => handler(req, res, body));
  });
  server.keepAliveTimeout = keepAliveMs;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let issued = 0;
const google: Handler = (req, res, body) => {
  res.setHeader('Content-Type', 'application/json');
  if (req.url === '/oauth2/token') {
    const grant = new URLSearchParams(body);
    if (grant.get('refresh_token') !== 'refresh-1') {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: 'invalid_grant' }));
      return;
    }
    res.end(JSON.stringify({ access_token: `access-${++issued}`, expires_in: 3600 }));
    return;
  }
  if (req.url === '/gmail/v1/users/me/profile') {
    res.end(JSON.stringify({ emailAddress: 'me@gmail.test', historyId: '7' }));
    return;
  }
  res.statusCode = 404;
  res.end('{}');
};

/** fetch, with the failures it threw (their socket error codes) written down. */
function recordingFetch() {
  const failures: string[] = [];
  const calls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    calls.push(new URL(String(input)).pathname);
    try {
      return await fetch(input, init);
    } catch (err) {
      failures.push(describeFetchError(err));
      throw err;
    }
  };
  return { fetchImpl, failures, calls };
}

function client(baseUrl: string, options: Partial<ConstructorParameters<typeof GmailClient>[0]> = {}) {
  return new GmailClient({
    refreshToken: 'refresh-1',
    clientId: 'client',
    clientSecret: 'secret',
    baseUrl,
    pace: false,
    ...options,
  });
}

describe('Gmail access-token refresh', () => {
  it('gets its token on a new connection when the server dropped the idle one while the process was busy', async () => {
    const baseUrl = await serve(google, 3000);
    const { fetchImpl, failures, calls } = recordingFetch();
    const waits: number[] = [];
    const gmail = client(baseUrl, {
      fetchImpl,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await gmail.getProfile();
    // Busy for longer than the server's idle timeout (as while seeding 50,000 messages): the pooled
    // connection is closed by the server the moment its timer runs, after the refresh went out on it.
    const until = Date.now() + 4500;
    while (Date.now() < until) {
      // blocking on purpose
    }
    await gmail.refresh();
    expect(failures).toEqual(['ECONNRESET']);
    expect(calls.filter((p) => p === '/oauth2/token')).toHaveLength(3);
    expect(issued).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(500);
    expect(waits[0]).toBeLessThanOrEqual(1000);
    expect((await gmail.getProfile()).historyId).toBe('7');
  });

  it('reports an outage after three tries with bounded waits, not hidden', async () => {
    let tries = 0;
    const baseUrl = await serve((req) => {
      tries += 1;
      req.socket.destroy();
    });
    const waits: number[] = [];
    const gmail = client(baseUrl, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const error = await gmail.getProfile().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(MailConnectionError);
    expect((error as Error).message).toMatch(/^Google token endpoint unreachable: /);
    expect(tries).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThanOrEqual(1000);
    expect(waits[1]).toBeLessThanOrEqual(2000);
  });

  it('retries a 5xx of the token endpoint, never a refused grant', async () => {
    let tokenTries = 0;
    const flaky = await serve((req, res, body) => {
      if (req.url === '/oauth2/token' && ++tokenTries === 1) {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      google(req, res, body);
    });
    const noSleep = { sleep: async () => {} };
    expect((await client(flaky, noSleep).getProfile()).emailAddress).toBe('me@gmail.test');
    expect(tokenTries).toBe(2);

    const { fetchImpl, calls } = recordingFetch();
    const baseUrl = await serve(google);
    const revoked = client(baseUrl, { ...noSleep, fetchImpl, refreshToken: 'revoked' });
    await expect(revoked.getProfile()).rejects.toBeInstanceOf(MailAuthError);
    expect(calls).toEqual(['/oauth2/token']);
  });
});
