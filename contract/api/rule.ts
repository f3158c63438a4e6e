import type { z } from 'zod';

/** Adds the first rule that fails as an issue on `path` (the rules answer a message or null). */
export function rule(ctx: z.RefinementCtx, path: string, message: string | null): boolean {
  if (message === null) return true;
  ctx.addIssue({ code: 'custom', message, path: [path] });
  return false;
}
