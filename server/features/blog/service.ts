import type { BlogPost, BlogPostSummary } from '#contract/api.js';
import { UpstreamUnavailableError } from '#server/lib/errors.js';
import { type BlogLog, type BlogSource, newestFirst } from './source.js';

// The blog's rules: posts newest first, one post by id, and what a reader is told when the source fails.
// Contentful is asked at most once a minute per list and per post (a page view asks for the HTML's
// tags and then the API: one call), and only for an id the listing has (others are null at once);
// concurrent readers share one call; when Contentful fails, the last
// good answer is served while it keeps failing (retried every RETRY_MS), and only with none is the reader
// told "The blog cannot be loaded right now." (502). The markdown source is in memory and never fails.

export const BLOG_UNAVAILABLE = 'The blog cannot be loaded right now.';
export const NO_SUCH_POST = 'No such post.';

const TTL_MS = 60_000;
const RETRY_MS = 10_000;
/** Posts (listed ids only) remembered one by one; the oldest goes first. */
const MAX_CACHED_POSTS = 500;

export interface BlogService {
  readonly source: BlogSource['name'];
  /** Every post's card, newest first. Throws UpstreamUnavailableError when the source fails, nothing cached. */
  list(): Promise<BlogPostSummary[]>;
  /** One post, or null. Throws as list() does. */
  post(id: string): Promise<BlogPost | null>;
  /** Every post with its body, newest first (the RSS feed). */
  posts(): Promise<BlogPost[]>;
}

interface Slot<T> {
  value?: { data: T };
  freshUntil: number;
  pending?: Promise<T>;
}

export function createBlogService({
  source,
  log,
  now = Date.now,
}: {
  source: BlogSource;
  log: BlogLog;
  now?: () => number;
}): BlogService {
  const cacheable = source.name !== 'markdown';

  /** The slot's value while fresh; else one load shared by every caller, stale value on failure. */
  function read<T>(slot: Slot<T>, load: () => Promise<T>, what: object): Promise<T> {
    if (slot.value && now() < slot.freshUntil) return Promise.resolve(slot.value.data);
    slot.pending ??= load()
      .then((data) => {
        slot.value = { data };
        slot.freshUntil = now() + TTL_MS;
        return data;
      })
      .catch((error: unknown) => {
        if (slot.value) {
          log.warn(
            { ...what, err: (error as Error).message },
            'the blog source failed: serving the last answer',
          );
          slot.freshUntil = now() + RETRY_MS;
          return slot.value.data;
        }
        log.error({ ...what, err: (error as Error).message }, 'the blog source failed');
        throw new UpstreamUnavailableError(BLOG_UNAVAILABLE);
      })
      .finally(() => {
        slot.pending = undefined;
      });
    return slot.pending;
  }

  const all: Slot<BlogPost[]> = { freshUntil: 0 };
  const one = new Map<string, Slot<BlogPost | null>>();

  async function posts(): Promise<BlogPost[]> {
    const list = cacheable
      ? await read(all, () => source.list(), { source: source.name })
      : await source.list();
    return [...list].sort(newestFirst);
  }

  return {
    source: source.name,
    posts,
    async list() {
      return (await posts()).map(({ content: _content, ...summary }) => summary);
    },
    async post(id) {
      if (!cacheable) return source.get(id);
      // Only a post the (cached) listing has is asked for: any other id is "no such post" without a
      // call, so made-up ids cost Contentful nothing and cannot push real posts out of the cache.
      if (!(await posts()).some((listed) => listed.id === id)) return null;
      let slot = one.get(id);
      if (!slot) {
        if (one.size >= MAX_CACHED_POSTS) one.delete(one.keys().next().value as string);
        slot = { freshUntil: 0 };
        one.set(id, slot);
      }
      return read(slot, () => source.get(id), { source: source.name, post: id });
    },
  };
}
