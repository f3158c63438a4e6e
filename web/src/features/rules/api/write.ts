// PUT and DELETE whose answers the rules' screens read (what a rule moved, what came back). The shared
// client (lib/api-client.ts) parses answers of GET and POST only, and sends PUT and DELETE without reading
// them; until it parses theirs too, these two calls take a CSRF token from it (GET /csrf-token, answered
// from the session's secret) and read the answer with the contract's schema, failures as its ApiError.
import type { ZodType } from 'zod';
import type { CsrfTokenResponse } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { ApiError, api } from '../../../lib/api-client';

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function writeJson<T>(
  method: 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  answer: ZodType<T>,
): Promise<T> {
  const { csrfToken } = await api.getUnparsed<CsrfTokenResponse>(API.csrfToken);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        'X-CSRF-Token': csrfToken,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, '');
  }
  const parsed = await readJson(response);
  if (!response.ok) {
    const message =
      typeof parsed === 'object' &&
      parsed !== null &&
      'message' in parsed &&
      typeof parsed.message === 'string'
        ? parsed.message
        : '';
    throw new ApiError(response.status, message, parsed);
  }
  return answer.parse(parsed);
}
