import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createEmulator } from '@emulators/core';
import { googlePlugin, seedFromConfig } from '@emulators/google';
import { expect } from 'vitest';
import { dkimSign } from './dkim.js';

// @emulators/google served in-process on 127.0.0.1 (docs/decisions/009-vitest-for-every-tier.md), patched by patches/@emulators+google+0.4.1.patch
// to be a faithful peer: format=metadata/full carry every header of the stored raw message (List-Unsubscribe…),
// users.getProfile, the /batch/gmail/v1 endpoint, `-term`, `category:` and `{a b}` (any of) search, monotonic history ids, and
// Gmail's limit of 1,000 ids per messages.batchModify (400 "Number of ids cannot exceed 1000"). messages.send,
// settings.filters (create/list/delete, applied to mail as it arrives) are the emulator's own.

export const GMAIL_SCOPES = [
  'openid',
  'email',
  'https://www.googleapis.com/auth/gmail.modify',
  'https://www.googleapis.com/auth/gmail.settings.basic',
].join(' ');

const REDIRECT_URI = 'http://127.0.0.1:9/auth/google/callback';

export interface MessageSpec {
  from: string;
  to?: string;
  subject: string;
  date: Date;
  body: string;
  listUnsubscribe?: string;
  listUnsubscribePost?: string;
  listId?: string;
  precedence?: string;
  labels?: string[];
}

export interface SeededMessage extends MessageSpec {
  id: string;
  raw: string;
  labels: string[];
}

export interface GoogleEmulator {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Creates a user and runs the authorization-code flow with PKCE, as the product's sign-in does. */
  addUser(email: string): Promise<{ email: string; refreshToken: string }>;
  /** Inserts messages (history records included) the way Gmail receives them. */
  insert(email: string, specs: MessageSpec[]): SeededMessage[];
  /** POST /oauth2/revoke, as a user removing the app's access. */
  revoke(token: string): Promise<void>;
  stop(): Promise<void>;
}

export function rfc822(spec: MessageSpec, messageId: string): string {
  const lines = [
    `From: ${spec.from}`,
    `To: ${spec.to ?? 'reader@example.com'}`,
    `Subject: ${spec.subject}`,
    `Date: ${spec.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${messageId}@seed.example>`,
    ...(spec.listUnsubscribe ? [`List-Unsubscribe: ${spec.listUnsubscribe}`] : []),
    ...(spec.listUnsubscribePost ? [`List-Unsubscribe-Post: ${spec.listUnsubscribePost}`] : []),
    ...(spec.listId ? [`List-Id: ${spec.listId}`] : []),
    ...(spec.precedence ? [`Precedence: ${spec.precedence}`] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
  ];
  const raw = `${lines.join('\r\n')}\r\n\r\n${spec.body}\r\n`;
  // A sender offering one-click signs its mail, as senders Gmail shows the button for do.
  return spec.listUnsubscribePost ? dkimSign(raw) : raw;
}

export async function startGoogleEmulator(): Promise<GoogleEmulator> {
  let handler: ((req: Request) => Response | Promise<Response>) | null = null;
  const server = createServer((req, res) => {
    serve(req, res, handler).catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const emulator = createEmulator(googlePlugin, { port, baseUrl });
  handler = (req) => emulator.app.fetch(req);
  const store = emulator.store;

  const clientId = `inbox-genie-${randomBytes(4).toString('hex')}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${randomBytes(12).toString('hex')}`;
  seedFromConfig(store, baseUrl, {
    oauth_clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [REDIRECT_URI] }],
  });
  let seq = 0;

  return {
    baseUrl,
    clientId,
    clientSecret,

    async addUser(email) {
      seedFromConfig(store, baseUrl, { users: [{ email, name: email.split('@')[0] }] });
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const consent = await fetch(`${baseUrl}/o/oauth2/v2/auth/callback`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({
          email,
          client_id: clientId,
          redirect_uri: REDIRECT_URI,
          scope: GMAIL_SCOPES,
          state: 'test',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      });
      const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code');
      if (!code) throw new Error(`no authorization code (${consent.status})`);
      const tokenRes = await fetch(`${baseUrl}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          client_secret: clientSecret,
          code_verifier: verifier,
        }),
      });
      const tokens = (await tokenRes.json()) as { refresh_token?: string };
      if (!tokens.refresh_token) throw new Error(`no refresh token (${tokenRes.status})`);
      return { email, refreshToken: tokens.refresh_token };
    },

    insert(email, specs) {
      const seeded = specs.map((spec) => {
        const id = `m${(++seq).toString(16).padStart(8, '0')}${randomBytes(4).toString('hex')}`;
        return { ...spec, id, raw: rfc822(spec, id), labels: spec.labels ?? ['INBOX', 'UNREAD'] };
      });
      seedFromConfig(store, baseUrl, {
        messages: seeded.map((m) => ({
          id: m.id,
          user_email: email,
          raw: Buffer.from(m.raw, 'utf8').toString('base64url'),
          label_ids: m.labels,
        })),
      });
      return seeded;
    },

    async revoke(token) {
      const res = await fetch(`${baseUrl}/oauth2/revoke`, {
        method: 'POST',
        body: new URLSearchParams({ token }),
      });
      if (!res.ok) throw new Error(`revoke answered ${res.status}`);
    },

    stop: () => closeServer(server),
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handler: ((req: Request) => Response | Promise<Response>) | null,
): Promise<void> {
  if (!handler) throw new Error('emulator not ready');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
  });
  const response = await handler(request);
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  res.writeHead(response.status, out);
  res.end(Buffer.from(await response.arrayBuffer()));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const decodeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * What the user does on Google's side: opens the authorization URL, picks their account on the
 * emulator's sign-in page (one form per account) and is redirected back to `callback`. Answers the
 * callback path the browser would load next. `tamper` edits the submitted form (e.g. a scope unticked).
 */
export async function consentOnGoogleEmulator(
  emu: GoogleEmulator,
  authorizeUrl: string,
  email: string,
  callback: string,
  tamper: (fields: Record<string, string>) => void = () => {},
): Promise<string> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = [...html.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) =>
    m[2]!.includes(`name="email" value="${email}"`),
  );
  if (!form) throw new Error(`no account ${email} on the emulator's sign-in page`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)) {
    fields[decodeHtml(input[1]!)] = decodeHtml(input[2]!);
  }
  tamper(fields);
  const back = await fetch(new URL(decodeHtml(form[1]!), emu.baseUrl), {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  expect(back.status).toBe(302);
  const location = back.headers.get('location') ?? '';
  expect(location.startsWith(`${callback}?`)).toBe(true);
  const url = new URL(location);
  return `${url.pathname}${url.search}`;
}
