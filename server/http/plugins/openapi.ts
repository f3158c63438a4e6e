import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * GET /openapi.json: the API's OpenAPI 3.1 description, generated from the contract schemas every route
 * declares (so it cannot drift from what the routes check and answer). Registered before the routes: it
 * collects each one as it is added. The screens' HTML paths and the static files are not part of the API
 * and hide themselves (`schema.hide`).
 */
export async function registerOpenApi(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Inbox Genie API',
        version: '0.1.0',
        description:
          'Signed-in calls need the session cookie and, for writes, the x-csrf-token header from GET /csrf-token. Errors answer {message}.',
      },
      servers: [{ url: options.publicUrl }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
