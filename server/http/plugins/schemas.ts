import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type $ZodType, toJSONSchema } from 'zod/v4/core';

/**
 * Routes declare their contract schemas (contract/api.ts) as `schema: { body, querystring, params,
 * response }`: zod checks what comes in (a failure becomes a 400 `{message}` in errors.ts) and the
 * response schemas whitelist what goes out, for the statuses they name (the 200s; error bodies are
 * written by errors.ts).
 */
export function registerSchemaCompilers(app: FastifyInstance): void {
  // A call without a body (or with `null`) is checked as `{}`, so it answers the message of the first
  // missing field, as it always did, rather than zod's "expected object". Fastify hands a missing body
  // to the validator as null.
  const compile: FastifySchemaCompiler<$ZodType> = (route) => {
    const validate = validatorCompiler(route);
    return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
  };
  app.setValidatorCompiler(compile);
  app.setSerializerCompiler(serializerCompiler);
}

/**
 * For a hot route's answer (the subscription list, bench:list): its zod response schema as JSON Schema,
 * compiled by fast-json-stringify. It whitelists the same fields (objects are `additionalProperties:
 * false`) and writes the same JSON, much faster than zod's check and JSON.stringify together
 * (docs/benchmarks.md). It does not check the values against the schema's
 * checks (a rate within 0 to 1): the route's service builds them typed. Schemas with transforms cannot be
 * written as JSON Schema and are refused here, when the route is registered.
 */
export function plainDataSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  return fastJson(toJSONSchema(schema as $ZodType, { io: 'output', target: 'draft-7' }) as Schema);
}
