import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BLOG_ID_PATTERN } from '#contract/api.js';
import { NOT_FOUND_TITLE, PUBLIC_PAGES, SIGNED_IN_PAGES } from '#contract/pages.js';
import { API_PREFIXES, SCREENS } from '#contract/routes.js';
import type { BlogService } from '../features/blog/service.js';
import { UpstreamUnavailableError } from '../lib/errors.js';
import { absoluteUrl, blogPostingJsonLd, type HeadTags, renderTags, splitTemplate } from './page-head.js';

// The SPA's entry: GET (and HEAD) of a screen's path answer index.html with that screen's <head> (title,
// description, canonical, sharing tags; a post's JSON-LD), 200; a path no screen has, or a post that does
// not exist, answers the same app with 404 (the app shows its not-found screen, crawlers drop the URL).
// The known paths are the screens of contract/routes.ts (contract/pages.ts describes them), /blogDetails/<id>
// and everything under /genie (signed-in screens; the app redirects unknown ones). API paths and other
// methods that matched no route, and file names no file answered, get 404 {message}. index.html is read once, at start.

export interface SpaOptions {
  /** The built web app (dist/web); null when not built: every unmatched path is a JSON 404. */
  root: string | null;
  publicUrl: string;
  blog: BlogService;
}

type Resolved = { status: number; tags: HeadTags };

const STATIC_PAGES = new Map<string, (typeof PUBLIC_PAGES)[keyof typeof PUBLIC_PAGES]>(
  Object.values(PUBLIC_PAGES).map((page) => [page.path.toLowerCase(), page]),
);
const SIGNED_IN_TITLES = new Map<string, string>(
  Object.values(SIGNED_IN_PAGES).map((page) => [page.path.toLowerCase(), page.title]),
);
const FILE_NAME = /\/[^/]*\.[A-Za-z0-9]{1,8}$/;
const BLOG_POST_PREFIX = SCREENS.blogPost('').toLowerCase();

const NOT_FOUND: Resolved = {
  status: 404,
  tags: {
    title: NOT_FOUND_TITLE,
    description: 'There is no page at this address.',
    canonical: null,
    robots: 'noindex',
  },
};

type PageSource = Pick<SpaOptions, 'publicUrl' | 'blog'>;

/** What the path shows. React Router matches paths case-insensitively and with a trailing slash. */
async function resolvePage(pathname: string, source: PageSource): Promise<Resolved> {
  const { publicUrl } = source;
  const lower = (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname).toLowerCase();
  const page = STATIC_PAGES.get(lower);
  if (page) {
    const tags: HeadTags = {
      title: page.title,
      description: page.description,
      canonical: `${publicUrl}${page.path}`,
    };
    if (page.path === SCREENS.blog) tags.image = await newestImage(source);
    return { status: 200, tags };
  }
  if (lower === SCREENS.signedInArea || lower.startsWith(`${SCREENS.signedInArea}/`)) {
    // /genie/<category> is the subscription list of that category; deeper paths are redirected by the app.
    const title =
      SIGNED_IN_TITLES.get(lower) ??
      (lower.split('/').length === 3 ? SIGNED_IN_PAGES.subscriptions.title : null);
    return {
      status: 200,
      tags: { title, description: PUBLIC_PAGES.home.description, canonical: null, robots: 'noindex' },
    };
  }
  if (lower.startsWith(BLOG_POST_PREFIX)) {
    const raw = pathname.replace(/\/$/, '').slice(BLOG_POST_PREFIX.length);
    let id: string;
    try {
      id = decodeURIComponent(raw);
    } catch {
      return NOT_FOUND;
    }
    return BLOG_ID_PATTERN.test(id) ? postPage(id, source) : NOT_FOUND;
  }
  return NOT_FOUND;
}

async function postPage(id: string, { publicUrl, blog }: PageSource): Promise<Resolved> {
  let post: Awaited<ReturnType<BlogService['post']>>;
  try {
    post = await blog.post(id);
  } catch (error) {
    if (!(error instanceof UpstreamUnavailableError)) throw error;
    // The source is down: the app still loads (and says so); crawlers are told to come back (503).
    return {
      status: 503,
      tags: { title: PUBLIC_PAGES.blog.title, description: PUBLIC_PAGES.blog.description, canonical: null },
    };
  }
  if (!post) return NOT_FOUND;
  const url = `${publicUrl}${SCREENS.blogPost(post.id)}`;
  const image = post.image ? { url: absoluteUrl(publicUrl, post.image.url), alt: post.image.alt } : null;
  return {
    status: 200,
    tags: {
      title: post.title,
      description: post.summary || PUBLIC_PAGES.blog.description,
      canonical: url,
      type: 'article',
      image,
      published: post.date,
      jsonLd: blogPostingJsonLd({
        title: post.title,
        summary: post.summary,
        date: post.date,
        url,
        image: image?.url ?? null,
      }),
    },
  };
}

/** The list's sharing image: the newest post's (none while the source is down). */
async function newestImage({ publicUrl, blog }: PageSource): Promise<HeadTags['image']> {
  try {
    const image = (await blog.list()).find((post) => post.image)?.image;
    return image ? { url: absoluteUrl(publicUrl, image.url), alt: image.alt } : null;
  } catch {
    return null;
  }
}

export function registerSpaFallback(app: FastifyInstance, { root, publicUrl, blog }: SpaOptions): void {
  const template = root ? splitTemplate(readFileSync(path.join(root, 'index.html'), 'utf8')) : null;
  const source: PageSource = { publicUrl, blog };

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => pathname.startsWith(p));
    // A file's path (/assets/x.js, /favicon.ico) that no file answered is no screen either: a short 404,
    // not the app (screen paths and post ids never end in an extension).
    const isFile = FILE_NAME.test(pathname);
    // HEAD too: Fastify adds HEAD only to routes, and this fallback is what serves / and client routes.
    if (template && (request.method === 'GET' || request.method === 'HEAD') && !isApi && !isFile) {
      const { status, tags } = await resolvePage(pathname, source);
      const html = `${template.before}${renderTags(tags)}\n${template.after}`;
      const etag = `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
      reply.header('cache-control', 'no-cache').header('etag', etag).type('text/html; charset=utf-8');
      if (status === 200 && request.headers['if-none-match'] === etag) return reply.status(304).send();
      // HEAD: GET's headers, its length included, and no body at all.
      if (request.method === 'HEAD') {
        return reply.status(status).header('content-length', Buffer.byteLength(html)).send();
      }
      return reply.status(status).send(html);
    }
    return reply.status(404).send({ message: `Not found: ${request.method} ${pathname}` });
  });
}
