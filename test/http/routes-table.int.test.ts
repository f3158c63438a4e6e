import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { bulkStatusSchema } from '#contract/api.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client } from '#test/helpers/app.js';
import { routesOf } from '#test/helpers/route-tree.js';
import { parseAnswer, ROUTES, type RouteSpec, requestOf } from '#test/helpers/routes.js';

// The typed client's table (test/helpers/routes.ts) against the app: each of its routes exists, and the
// answer and body schemas it gives a route are the ones the route declares. Compared through the app's
// own OpenAPI description, which is generated from the schemas the routes declare (the same transform
// turns the table's schemas into JSON Schema here).

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/** `const: x` as @fastify/swagger writes it in an OpenAPI document: `enum: [x]`. */
function constAsEnum(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(constAsEnum);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) =>
      key === 'const' ? ['enum', [child]] : [key, constAsEnum(child)],
    ),
  );
}

/** A schema as the OpenAPI description writes it. */
function described(part: 'body' | 'response', spec: RouteSpec, url: string): unknown {
  const schema =
    part === 'body' ? { body: spec.body } : { response: { [spec.status]: spec.declared ?? spec.response } };
  const { schema: out } = jsonSchemaTransform({
    schema,
    url,
    route: {} as never,
    openapiObject: { openapi: '3.1.0' },
  } as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: { body?: unknown; response?: Record<number, unknown> };
  };
  return constAsEnum(part === 'body' ? out.body : out.response?.[spec.status]);
}

describe('the typed client’s route table', () => {
  const t = withTestApp('sqlite');

  it('names only routes the app has', () => {
    const routes = new Set(routesOf(t.app.printRoutes({ commonPrefix: false })));
    const missing = Object.keys(ROUTES).filter((key) => !routes.has(key.split('?')[0]!));
    expect(missing).toEqual([]);
  });

  it('holds every route that answers JSON', async () => {
    const doc: Doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const keys = new Set(Object.keys(ROUTES).map((key) => key.split('?')[0]!));
    const answeringJson = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) =>
          Object.entries(op.responses ?? {}).some(
            ([status, answer]) => /^2/.test(status) && answer.content?.['application/json']?.schema,
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(answeringJson.filter((route) => !keys.has(route))).toEqual([]);
  });

  it('gives each route the answer and body schemas the route declares', async () => {
    const doc: Doc = (await t.app.inject({ url: '/openapi.json' })).json();
    for (const [key, spec] of Object.entries(ROUTES) as Array<[string, RouteSpec]>) {
      const [method, target] = key.split(' ') as [string, string];
      const path = target.split('?')[0]!;
      const operation = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, key).toBeDefined();
      const answer = operation?.responses?.[String(spec.status)]?.content?.['application/json']?.schema;
      expect(constAsEnum(answer), `${key} answers ${spec.status}`).toEqual(described('response', spec, path));
      const body = operation?.requestBody?.content?.['application/json']?.schema;
      if (spec.body) expect(constAsEnum(body), `${key}'s body`).toEqual(described('body', spec, path));
      else expect(body, `${key} takes no body`).toBeUndefined();
    }
  });

  it('builds each call from the table and checks its answer: the status, then the contract', async () => {
    expect(requestOf('GET /bulk-action/:bulkId', { params: { bulkId: 'a b' } })).toEqual({
      method: 'GET',
      url: '/bulk-action/a%20b',
    });
    expect(requestOf('GET /get-unsubscribe-emails?group=brand', { query: { limit: 5, q: 'a&b' } }).url).toBe(
      '/get-unsubscribe-emails?group=brand&limit=5&q=a%26b',
    );
    expect(requestOf('GET /get-unsubscribe-emails', { query: '?limit=ten' }).url).toBe(
      '/get-unsubscribe-emails?limit=ten',
    );
    expect(() => requestOf('GET /bulk-action/:bulkId')).toThrow('needs the path parameter bulkId');
    // An answer the contract does not describe fails the test, naming what did not match.
    expect(() => parseAnswer({ bulkId: 'b', done: '1' }, bulkStatusSchema, 'GET /bulk-action/b')).toThrow(
      /GET \/bulk-action\/b: the answer is not what the contract describes/,
    );
    // A refusal is read with the error schema: {message} and the details the contract names.
    const visitor = new Client(t.app);
    const refused = await visitor.call('GET /get-settings', { status: 403 });
    expect(refused.message).toEqual(expect.any(String));
    expect((await visitor.call('GET /signin-status/')).status).toBe(false);
  });
});
