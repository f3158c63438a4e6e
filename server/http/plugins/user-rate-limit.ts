import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '#contract/validation.js';
import { HttpError } from '../http-error.js';

/**
 * The rate limit of the signed-in calls that make the product work on a mail server or contact a sender
 * (preview, messages by sender, unsubscribe, keep, block, undo, bulk): counted per user, not per IP (one
 * user from many addresses, or many users behind one), in one budget across those routes, after the
 * session hook has named the user (a route's `preHandler`). A fixed window in memory, per process, like
 * the per-IP limits (docs/decisions/066-per-user-and-per-mailbox-limits.md). @fastify/rate-limit keeps one store per route,
 * so it cannot count one budget over several routes.
 */
export function perUserRateLimit(rate: { max: number; windowMs: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  return async function userRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const now = Date.now();
    const key = request.user.userId;
    let window = windows.get(key);
    if (!window || now - window.start >= rate.windowMs) {
      if (windows.size >= 10_000) {
        for (const [k, w] of windows) if (now - w.start >= rate.windowMs) windows.delete(k);
      }
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > rate.max) {
      reply.header(
        'retry-after',
        String(Math.max(1, Math.ceil((window.start + rate.windowMs - now) / 1000))),
      );
      throw new HttpError(429, MESSAGES.tooManyRequests);
    }
  };
}

export type PerUserRateLimit = ReturnType<typeof perUserRateLimit>;
