import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '#contract/validation.js';
import { DomainError, type DomainErrorKind } from '#server/lib/errors.js';
import { MailConnectionError } from '#server/mail/provider.js';
import { HttpError } from '../http-error.js';

/** The status each kind of refusal answers with (docs/product.md §8). */
const STATUS: Record<DomainErrorKind, number> = {
  'invalid-input': 400,
  'not-authenticated': 401,
  'reauth-required': 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'plan-limit': 402,
  'plan-required': 401,
  'too-many-attempts': 429,
  'upstream-unavailable': 502,
};

// Every error leaves as JSON `{message}` with the status codes of docs/product.md §8; internals are logged, never sent.
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(STATUS[error.kind]).send({ ...error.details, message: error.message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ ...error.body, message: error.message });
    }
    // The user's mail server (or Gmail, or Graph) could not be reached: a bad gateway, not our fault,
    // and its message says which server and why (a preview, a block or a keep while it is down).
    if (error instanceof MailConnectionError) {
      request.log.warn({ err: error.message }, 'mail server unreachable');
      return reply.status(502).send({ message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: MESSAGES.tooManyRequests });
    if (error.code?.startsWith('FST_CSRF')) return reply.status(403).send({ message: MESSAGES.csrf });
    // A body, query or path that fails its contract schema: the first problem's message, which is the
    // spec's message for the field (contract/api.ts), and 400.
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: error.validation[0]?.message ?? 'Invalid request.' });
    }
    if (
      error.validation ||
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    ) {
      return reply.status(400).send({ message: 'The request body could not be read.' });
    }
    if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
