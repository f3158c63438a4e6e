import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, send } from './http.js';
import type { FakeState } from './state.js';

// learn.microsoft.com/graph/json-batching: `POST /v1.0/$batch`.

/** JSON batching: each request is sent to the fake itself, with the outer request's authorization. */
export async function batch(
  s: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
): Promise<number> {
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0) {
    throw new HttpError(400, 'BadRequest', 'Invalid batch payload format.');
  }
  if (requests.length > 20) {
    throw new HttpError(400, 'BadRequest', 'Number of requests exceeds the limit of 20.');
  }
  const seen = new Set<string>();
  const responses: Array<Record<string, unknown>> = [];
  for (const raw of requests as Array<Record<string, unknown>>) {
    const id = raw?.id;
    const method = typeof raw?.method === 'string' ? raw.method.toUpperCase() : '';
    const target = raw?.url;
    if (typeof id !== 'string' || !id || seen.has(id) || !method || typeof target !== 'string') {
      throw new HttpError(400, 'BadRequest', 'Each batch request needs a unique id, a method and a url.');
    }
    seen.add(id);
    if (!target.startsWith('/') || target.startsWith('/v1.0/')) {
      throw new HttpError(400, 'BadRequest', 'Batch request urls are relative to the version root.');
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((raw.headers ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string') headers[k] = v;
    }
    const hasBody = raw.body !== undefined;
    if (hasBody && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      throw new HttpError(400, 'BadRequest', 'Batch requests with a body need a Content-Type header.');
    }
    const inner = await fetch(`${s.origin}/v1.0${target}`, {
      method,
      headers: { ...headers, Authorization: String(req.headers.authorization ?? '') },
      body: hasBody ? JSON.stringify(raw.body) : undefined,
    });
    const text = await inner.text();
    const innerHeaders: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after']) {
      const value = inner.headers.get(name);
      if (value) innerHeaders[name === 'retry-after' ? 'Retry-After' : 'Content-Type'] = value;
    }
    responses.push({
      id,
      status: inner.status,
      headers: innerHeaders,
      ...(text ? { body: JSON.parse(text) as unknown } : {}),
    });
  }
  return send(res, 200, { responses });
}
