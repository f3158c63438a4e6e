import { describe, expect, it, vi } from 'vitest';
import type { BlogPost } from '#contract/api.js';
import { UpstreamUnavailableError } from '#server/lib/errors.js';
import { BLOG_UNAVAILABLE, createBlogService } from './service.js';
import type { BlogSource } from './source.js';

const post = (id: string, date: string): BlogPost => ({
  id,
  title: id,
  summary: '',
  date,
  image: null,
  content: 'x',
});
const log = () => ({ warn: vi.fn(), error: vi.fn() });

function contentfulLike(posts: BlogPost[]) {
  const source = {
    name: 'contentful' as const,
    fail: false as boolean,
    list: vi.fn(async () => {
      if (source.fail) throw new Error('down');
      return posts;
    }),
    get: vi.fn(async (id: string) => {
      if (source.fail) throw new Error('down');
      return posts.find((p) => p.id === id) ?? null;
    }),
  } satisfies BlogSource & { fail: boolean };
  return source;
}

describe('blog service', () => {
  it('lists newest first (same day: by id), without bodies', async () => {
    const source = contentfulLike([
      post('b', '2025-01-01'),
      post('c', '2025-02-01'),
      post('a', '2025-01-01'),
    ]);
    const blog = createBlogService({ source, log: log() });
    const list = await blog.list();
    expect(list.map((p) => p.id)).toEqual(['c', 'a', 'b']);
    expect(list[0]).not.toHaveProperty('content');
  });

  it('asks the source once a minute, and concurrent readers share one call', async () => {
    let now = 0;
    const source = contentfulLike([post('a', '2025-01-01')]);
    const blog = createBlogService({ source, log: log(), now: () => now });
    await Promise.all([blog.list(), blog.list(), blog.posts()]);
    expect(source.list).toHaveBeenCalledTimes(1);
    now = 59_000;
    await blog.list();
    expect(source.list).toHaveBeenCalledTimes(1);
    now = 61_000;
    await blog.list();
    expect(source.list).toHaveBeenCalledTimes(2);
    await Promise.all([blog.post('a'), blog.post('a')]);
    await blog.post('missing');
    await blog.post('missing');
    // 'missing' is not in the listing: never asked for.
    expect(source.get).toHaveBeenCalledTimes(1);
  });

  it('answers null for an id not in the listing without asking the source, so such ids push no post out', async () => {
    let now = 0;
    const source = contentfulLike([post('a', '2025-01-01')]);
    const blog = createBlogService({ source, log: log(), now: () => now });
    expect((await blog.post('a'))?.id).toBe('a');
    for (let i = 0; i < 600; i++) expect(await blog.post(`random-${i}`)).toBeNull();
    expect(source.get).toHaveBeenCalledTimes(1);
    expect(source.list).toHaveBeenCalledTimes(1);
    // The real post's answer is still kept: served while the source fails.
    source.fail = true;
    now = 120_000;
    expect((await blog.post('a'))?.id).toBe('a');
  });

  it('serves the last answer while the source fails, retrying every 10 s; 502 with nothing cached', async () => {
    let now = 0;
    const source = contentfulLike([post('a', '2025-01-01'), post('b', '2025-01-02')]);
    const logger = log();
    const blog = createBlogService({ source, log: logger, now: () => now });
    await blog.list();
    await blog.post('a');
    source.fail = true;
    now = 120_000;
    expect((await blog.list()).map((p) => p.id)).toEqual(['b', 'a']);
    expect((await blog.post('a'))?.id).toBe('a');
    expect(logger.warn).toHaveBeenCalled();
    now = 125_000;
    await blog.list();
    expect(source.list).toHaveBeenCalledTimes(2);
    now = 131_000;
    await blog.list();
    expect(source.list).toHaveBeenCalledTimes(3);
    // A listed post never read has no last answer.
    const error = await blog.post('b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ kind: 'upstream-unavailable', message: BLOG_UNAVAILABLE });
    expect(logger.error).toHaveBeenCalled();
  });

  it('does not cache the markdown source (it is in memory already)', async () => {
    const source = { ...contentfulLike([post('a', '2025-01-01')]), name: 'markdown' as const };
    const blog = createBlogService({ source, log: log() });
    await blog.list();
    await blog.list();
    expect(source.list).toHaveBeenCalledTimes(2);
  });
});
