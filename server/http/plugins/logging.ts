import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * The app's logger. Query strings carry secrets (reset tokens, OAuth codes and states, Checkout session
 * ids), so only the path of a request is logged; cookies and the CSRF header are redacted
 * (docs/decisions/059-nothing-secret-in-logs.md).
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
    serializers: { req: logSafeRequest },
    ...(stream ? { stream } : {}),
  };
}

/** Fastify's request serializer without the query string. */
export function logSafeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: pathOf(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** A request target without its query string (or fragment), for logs. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
