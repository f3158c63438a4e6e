import type { BlogPost } from '#contract/api.js';

// Where the blog's posts come from: the markdown files of the repository (markdown-source.ts), or a Contentful
// space (contentful-source.ts) when its keys are set. The service (service.ts) sorts, caches and turns a
// source's failure into the user's message.

export interface BlogSource {
  /** Which one, for the logs. */
  readonly name: 'markdown' | 'contentful';
  /** Every post, in no particular order. Throws when the source cannot be read. */
  list(): Promise<BlogPost[]>;
  /** One post; null when there is none with this id. Throws when the source cannot be read. */
  get(id: string): Promise<BlogPost | null>;
}

/** What a source logs through (the app's pino logger, or a test's spy). */
export interface BlogLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Newest first; posts of one day by id, so the order (and the pages of /blog) is stable. */
export function newestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A real calendar day written YYYY-MM-DD (2025-02-30 is not one). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
