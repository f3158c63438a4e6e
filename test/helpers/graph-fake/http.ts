import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeState } from './state.js';

// HTTP plumbing and OData helpers shared by the endpoints: Graph error bodies (graph/errors), `$select`,
// `$top` / `$skip` paging with an absolute `@odata.nextLink` (graph/paging), JSON and HTML answers.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const graphId = (prefix: string) => `${prefix}${randomBytes(33).toString('base64url')}=`;

export function project(
  entity: Record<string, unknown>,
  select: string[] | null,
  defaults: string[],
  etag: boolean,
): Record<string, unknown> {
  const keys = select ? ['id', ...select.filter((k) => k !== 'id')] : defaults;
  const out: Record<string, unknown> = etag
    ? { '@odata.etag': `W/"${randomBytes(6).toString('base64')}"` }
    : {};
  for (const key of keys) if (key in entity) out[key] = entity[key];
  return out;
}

export function parseSelect(raw: string | null, known: string[], type: string): string[] | null {
  if (raw === null) return null;
  const props = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of props) {
    if (!known.includes(p)) {
      throw new HttpError(
        400,
        'RequestBroker--ParseUri',
        `Could not find a property named '${p}' on type 'microsoft.graph.${type}'.`,
      );
    }
  }
  return props;
}

export function parseTop(raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new HttpError(400, 'ErrorInvalidParameter', `Invalid $top value: ${raw}`);
  }
  return n;
}

// --- HTTP ----------------------------------------------------------------------------------------

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): number {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; odata.metadata=minimal',
    'Content-Length': String(Buffer.byteLength(text)),
    'request-id': randomBytes(8).toString('hex'),
    ...headers,
  });
  res.end(text);
  return status;
}

export function graphError(res: ServerResponse, e: HttpError): number {
  return send(
    res,
    e.status,
    { error: { code: e.code, message: e.message, innerError: { date: new Date().toISOString() } } },
    e.headers,
  );
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (!/application\/json/i.test(String(req.headers['content-type'] ?? ''))) {
    throw new HttpError(415, 'UnsupportedMediaType', 'Content-Type must be application/json.');
  }
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  throw new HttpError(400, 'BadRequest', 'Unable to read JSON request payload.');
}

export function page(res: ServerResponse, status: number, title: string, body: string): number {
  const html = `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
  });
  res.end(html);
  return status;
}

export function nextLink(s: FakeState, url: URL, skip: number): string {
  const next = new URL(url.pathname, s.origin);
  for (const [k, v] of url.searchParams) if (k !== '$skip') next.searchParams.set(k, v);
  next.searchParams.set('$skip', String(skip));
  return next.toString();
}

export function collection(
  s: FakeState,
  res: ServerResponse,
  url: URL,
  items: Array<Record<string, unknown>>,
  defaultTop: number,
): number {
  const top = parseTop(url.searchParams.get('$top'), defaultTop);
  const skip = Number(url.searchParams.get('$skip') ?? 0);
  if (!Number.isInteger(skip) || skip < 0) throw new HttpError(400, 'ErrorInvalidParameter', 'Invalid $skip');
  const page = items.slice(skip, skip + top);
  const body: Record<string, unknown> = {
    '@odata.context': `${s.origin}/v1.0/$metadata#collection`,
    value: page,
  };
  if (skip + top < items.length) body['@odata.nextLink'] = nextLink(s, url, skip + top);
  return send(res, 200, body);
}
