import type { z } from 'zod';
import { badRequest } from '../lib/errors.js';

/** Checks a request body against a contract schema; the first problem becomes a 400 `{message}`. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? 'Invalid request.');
  return result.data;
}
