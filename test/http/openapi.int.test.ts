import { beforeAll, describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { routesOf } from '#test/helpers/route-tree.js';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  parameters?: { in: string; name: string }[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Not part of the JSON API: the screens' HTML, the feeds and crawler files, the description itself. */
const NOT_API = ['GET *', 'GET /openapi.json', 'GET /sitemap.xml', 'GET /rss.xml', 'GET /robots.txt'];
/** Writes that take no body: the session or the path says everything; Stripe's webhook is read raw. */
const NO_BODY = [
  'POST /auth/logout',
  'POST /auth/email-verification',
  // Account security: each acts on the signed-in user (or starts a signed-out passkey ceremony).
  'POST /auth/totp/setup',
  'POST /auth/passkeys/registration-options',
  'POST /auth/passkeys/authentication-options',
  'DELETE /auth/passkeys/:id',
  'DELETE /account/sessions/:id',
  'POST /account/sessions/revoke-others',
  'DELETE /delete-account',
  // Ends a sender's rule; what else to do is the query's (`?restore=true`).
  'DELETE /sender-rules/:subscriptionId',
  // Undoes one entry of the activity history, named by the path.
  'POST /activity/:id/undo',
  'POST /stripe/webhook',
  // The weekly report's RFC 8058 one-click: List-Unsubscribe=One-Click, form-encoded, read raw.
  'POST /report/unsubscribe',
];
/** Answers that are not JSON: a preview is sanitized HTML, the rest are browser navigations that redirect. */
const NOT_JSON = [
  'POST /get-message-preview',
  'POST /stripe/webhook',
  'GET /stripe/checkout-return',
  'GET /stripe/portal-return',
  'GET /auth/verify-email',
  'GET /auth/google',
  'GET /auth/google/callback',
  'GET /auth/outlook',
  'GET /auth/outlook/callback',
  // The subscription list as a CSV download (GET /export is JSON, described by its schema).
  'GET /export.csv',
  // The weekly report's unsubscribe: small HTML pages (a mail provider's POST, a person's click).
  'POST /report/unsubscribe',
  'GET /report/unsubscribe',
];

describe('GET /openapi.json', () => {
  const t = withTestApp('sqlite');
  let doc: Doc;
  let routes: string[];
  beforeAll(async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    routes = routesOf(t.app.printRoutes({ commonPrefix: false })).filter((r) => !NOT_API.includes(r));
  });

  function operation(route: string): Operation | undefined {
    const [method, path] = route.split(' ') as [string, string];
    return doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  }

  it('is OpenAPI 3.1 and lists every route of the API, and nothing else', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => !operation(r))).toEqual([]);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual([...routes].sort());
  });

  it('gives each route its body and answer schemas', () => {
    const withoutBody = routes.filter(
      (r) =>
        /^(POST|PUT|DELETE)/.test(r) && !operation(r)?.requestBody?.content?.['application/json']?.schema,
    );
    expect(withoutBody.sort()).toEqual([...NO_BODY].sort());
    const withoutAnswer = routes.filter((r) => {
      const responses = operation(r)?.responses ?? {};
      return !Object.entries(responses).some(
        ([status, answer]) => /^2/.test(status) && answer.content?.['application/json']?.schema,
      );
    });
    expect(withoutAnswer.sort()).toEqual([...NOT_JSON].sort());
    // Queries and path parameters are described too.
    expect(operation('GET /get-unsubscribe-emails')?.parameters?.map((p) => p.name)).toContain('category');
    expect(operation('GET /get-blog-post/:id')?.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'id' }),
    ]);
  });
});
