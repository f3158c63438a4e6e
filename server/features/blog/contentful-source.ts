import { z } from 'zod';
import { BLOG_ID_PATTERN, type BlogPost } from '#contract/api.js';
import type { ContentfulSettings } from '#server/integrations/contentful.js';
import { type BlogLog, type BlogSource, isIsoDay } from './source.js';

// Posts from Contentful's Content Delivery API (read-only; the token sent as a Bearer header, never in the
// URL, so it is in no log line). The list pages through /entries with skip and limit (100 a page, the
// linked images arriving in includes.Asset) up to MAX_POSTS; one post is /entries/{id}, which answers the
// bare entry, so its image is read from /assets/{id}. Entries without a post's fields (another content
// type) are left out and logged. Plain fetch with a timeout and a cap on the answer's size: a slow or huge
// answer cannot hold a request or the process's memory.

const PAGE = 100;
export const MAX_POSTS = 1000;

/** Contentful answered with an error (its sys.id is Contentful's code) or could not be read at all. */
export class ContentfulError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

const linkSchema = z.object({ sys: z.object({ id: z.string() }) });

const entrySchema = z.object({
  sys: z.object({ id: z.string().regex(BLOG_ID_PATTERN), createdAt: z.string().optional() }),
  fields: z.object({
    blogTitle: z.string().trim().min(1),
    blogSummary: z.string().optional(),
    createdDate: z.string().optional(),
    blogImage: linkSchema.nullish(),
    postContent: z.string().optional(),
  }),
});
type Entry = z.infer<typeof entrySchema>;

const assetSchema = z.object({
  sys: z.object({ id: z.string() }),
  fields: z
    .object({
      title: z.string().optional(),
      description: z.string().optional(),
      file: z.object({ url: z.string() }).partial().optional(),
    })
    .optional(),
});
type Asset = z.infer<typeof assetSchema>;

const collectionSchema = z.object({
  sys: z.object({ type: z.literal('Array') }),
  total: z.number().int().nonnegative(),
  skip: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  items: z.array(z.unknown()),
  includes: z.object({ Asset: z.array(z.unknown()).optional() }).optional(),
});

const errorSchema = z.object({ sys: z.object({ type: z.literal('Error'), id: z.string() }) });

export interface ContentfulSourceOptions {
  settings: ContentfulSettings;
  log: BlogLog;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Largest answer read (default 8 MB: a page of 100 posts with their markdown). */
  maxBytes?: number;
}

export function createContentfulSource({
  settings,
  log,
  timeoutMs = 10_000,
  maxBytes = 8 * 1024 * 1024,
}: ContentfulSourceOptions): BlogSource {
  const root = `${settings.baseUrl}/spaces/${encodeURIComponent(settings.spaceId)}/environments/${encodeURIComponent(settings.environment)}`;

  async function getJson(pathname: string, query: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(`${root}${pathname}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${settings.accessToken}` },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message;
      throw new ContentfulError(null, null, `Contentful could not be reached: ${reason}`);
    }
    const body = parseJson(await readCapped(response, maxBytes));
    if (!response.ok) {
      const error = errorSchema.safeParse(body);
      const code = error.success ? error.data.sys.id : null;
      throw new ContentfulError(
        response.status,
        code,
        `Contentful answered ${response.status}${code ? ` ${code}` : ''} for ${url.pathname}`,
      );
    }
    if (body === undefined) throw new ContentfulError(response.status, null, 'Contentful answered no JSON');
    return body;
  }

  function toPost(raw: unknown, asset: (id: string) => Asset | undefined): BlogPost | null {
    const parsed = entrySchema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { sys?: { id?: unknown } } | null)?.sys?.id;
      log.warn(
        { entry: typeof id === 'string' ? id : null, problem: parsed.error.issues[0]?.path.join('.') },
        'a Contentful entry is not a blog post (left out)',
      );
      return null;
    }
    const entry = parsed.data;
    const date = postDate(entry);
    if (!date) {
      log.warn({ entry: entry.sys.id }, 'a Contentful post has no date (left out)');
      return null;
    }
    const title = entry.fields.blogTitle.trim();
    const linked = entry.fields.blogImage ? asset(entry.fields.blogImage.sys.id) : undefined;
    return {
      id: entry.sys.id,
      title,
      summary: entry.fields.blogSummary?.trim() ?? '',
      date,
      image: imageOf(linked, title),
      content: entry.fields.postContent ?? '',
    };
  }

  return {
    name: 'contentful',

    async list() {
      const posts: BlogPost[] = [];
      const seen = new Set<string>();
      let skip = 0;
      for (;;) {
        const query: Record<string, string> = { skip: String(skip), limit: String(PAGE), include: '1' };
        // A stable order, so that paging does not skip or repeat an entry while the space is unchanged.
        query.order = 'sys.createdAt,sys.id';
        if (settings.contentType) query.content_type = settings.contentType;
        const page = collectionSchema.safeParse(await getJson('/entries', query));
        if (!page.success) throw new ContentfulError(200, null, 'Contentful answered an unexpected list');
        const assets = indexAssets(page.data.includes?.Asset ?? []);
        for (const item of page.data.items) {
          const post = toPost(item, (id) => assets.get(id));
          if (post && !seen.has(post.id)) {
            seen.add(post.id);
            posts.push(post);
          }
        }
        skip += page.data.items.length;
        const end = Math.min(page.data.total, MAX_POSTS);
        if (page.data.items.length === 0 || skip >= end) {
          if (page.data.total > MAX_POSTS) {
            log.warn(
              { total: page.data.total, read: MAX_POSTS },
              'Contentful holds more posts than are read',
            );
          }
          return posts;
        }
      }
    },

    async get(id) {
      let raw: unknown;
      try {
        raw = await getJson(`/entries/${encodeURIComponent(id)}`);
      } catch (error) {
        if (error instanceof ContentfulError && error.status === 404) return null;
        throw error;
      }
      const link = entrySchema.safeParse(raw).data?.fields.blogImage?.sys.id;
      let asset: Asset | undefined;
      if (link) {
        try {
          asset = assetSchema.safeParse(await getJson(`/assets/${encodeURIComponent(link)}`)).data;
        } catch (error) {
          // An image that is not published (or was deleted) leaves the post without one.
          if (!(error instanceof ContentfulError && error.status === 404)) throw error;
        }
      }
      return toPost(raw, () => asset);
    },
  };
}

function indexAssets(raw: readonly unknown[]): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const item of raw) {
    const asset = assetSchema.safeParse(item);
    if (asset.success) assets.set(asset.data.sys.id, asset.data);
  }
  return assets;
}

/** The post's createdDate (a Date field: "2025-01-31" or "2025-01-31T10:00+01:00"), else its creation. */
function postDate(entry: Entry): string | null {
  for (const value of [entry.fields.createdDate, entry.sys.createdAt]) {
    const day = value?.slice(0, 10);
    if (day && isIsoDay(day)) return day;
  }
  return null;
}

/** Contentful's file URLs are protocol-relative (//images.ctfassets.net/...): https is added. */
function imageOf(asset: Asset | undefined, title: string): BlogPost['image'] {
  const raw = asset?.fields?.file?.url;
  if (!raw) return null;
  const url = raw.startsWith('//') ? `https:${raw}` : raw;
  try {
    if (new URL(url).protocol !== 'https:') return null;
  } catch {
    return null;
  }
  const alt = asset.fields?.description?.trim() || asset.fields?.title?.trim() || title;
  return { url, alt };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answer's text, refusing more than `maxBytes` (announced or read). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new ContentfulError(response.status, null, `Contentful's answer is over ${maxBytes} bytes`);
  const announced = Number(response.headers.get('content-length') ?? '0');
  if (announced > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
