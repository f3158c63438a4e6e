import type { z } from 'zod';
import { csrfTokenResponseSchema } from '#contract/api.js';
import { parseAnswer } from './routes.js';

// A client for a product running in another process, over real HTTP: keeps the cookies and sends
// the CSRF header on every non-GET call, as the web app does.

export class HttpSession {
  private readonly cookies = new Map<string, string>();
  private csrf: string | null = null;

  constructor(private readonly baseUrl: string) {}

  /** The Cookie header this session sends (for a socket.io client). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(path: string, method = 'GET', body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (method !== 'GET') {
      // The token call also sets the cookie the token is checked against, so it comes first.
      if (!this.csrf) {
        this.csrf = (await this.json(await this.call('/csrf-token'), csrfTokenResponseSchema)).csrfToken;
      }
      headers['x-csrf-token'] = this.csrf;
    }
    headers.cookie = this.cookieHeader();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /** The JSON body of `res` parsed with `schema`, a contract schema (a body it refuses fails the test). */
  async json<S extends z.ZodType>(res: Response, schema: S): Promise<z.output<S>> {
    return parseAnswer(await res.json(), schema, `${res.status} ${res.url}`);
  }
}
