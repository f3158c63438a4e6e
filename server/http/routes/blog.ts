import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type BlogPost,
  blogListResponseSchema,
  blogPostParamsSchema,
  blogPostSchema,
} from '#contract/api.js';
import { PRODUCT_NAME, PUBLIC_PAGES } from '#contract/pages.js';
import { API, SCREENS } from '#contract/routes.js';
import { BLOG_IMAGES_PATH } from '#server/features/blog/markdown-source.js';
import type { BlogService } from '#server/features/blog/service.js';
import { NO_SUCH_POST } from '#server/features/blog/service.js';
import { NotFoundError } from '#server/lib/errors.js';
import { absoluteUrl } from '../page-head.js';

// The blog's public API (no session: the blog is public), its images, and the files for crawlers and feed
// readers: /sitemap.xml, /rss.xml and /robots.txt. Absolute URLs are built from PUBLIC_URL.

export interface BlogRouteOptions {
  blog: BlogService;
  publicUrl: string;
  /** The folder of the repository's posts; its images/ is served at /blog-images/. */
  blogDir: string;
}

const IMAGE_TYPES = /\.(svg|png|jpe?g|webp)$/i;
/** An SVG opened by itself is a document: it may style itself, never run script or load anything. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
/** Text for an XML element or attribute; characters XML 1.0 cannot hold at all are dropped. */
export function escapeXml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** Files for crawlers and feed readers: not part of the JSON API, so left out of /openapi.json. */
const CRAWLER_FILE = { schema: { hide: true } };

export const blogRoutes: FastifyPluginAsyncZod<BlogRouteOptions> = async (
  app,
  { blog, publicUrl, blogDir },
) => {
  app.get(API.blogPosts, { schema: { response: { 200: blogListResponseSchema } } }, async () => {
    const items = await blog.list();
    return { items, total: items.length };
  });

  app.get(
    '/get-blog-post/:id',
    // An id no post can have is the same 404 as an unknown one (not a 400: the reader followed a link).
    { schema: { params: blogPostParamsSchema, response: { 200: blogPostSchema } }, attachValidation: true },
    async (request) => {
      if (request.validationError) throw new NotFoundError(NO_SUCH_POST);
      const post = await blog.post(request.params.id);
      if (!post) throw new NotFoundError(NO_SUCH_POST);
      return post;
    },
  );

  const imagesDir = path.join(blogDir, 'images');
  if (existsSync(imagesDir)) {
    await app.register(fastifyStatic, {
      root: imagesDir,
      prefix: BLOG_IMAGES_PATH,
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      allowedPath: (pathName) => IMAGE_TYPES.test(pathName),
      maxAge: '1d',
      setHeaders: (reply, filePath) => {
        reply.header('x-content-type-options', 'nosniff');
        // Feed readers and link previews show these images on other sites.
        reply.header('cross-origin-resource-policy', 'cross-origin');
        if (filePath.toLowerCase().endsWith('.svg')) reply.header('content-security-policy', SVG_CSP);
      },
    });
  }

  app.get('/robots.txt', CRAWLER_FILE, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return `User-agent: *\nAllow: /\nDisallow: ${SCREENS.signedInArea}/\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
  });

  app.get('/sitemap.xml', CRAWLER_FILE, async (_request, reply) => {
    const posts = await blog.list();
    const newest = posts[0]?.date;
    const urls = [
      ...Object.values(PUBLIC_PAGES)
        .filter((page) => page.sitemap)
        .map((page) => ({
          loc: `${publicUrl}${page.path}`,
          lastmod: page.path === SCREENS.blog ? newest : undefined,
        })),
      ...posts.map((post) => ({ loc: `${publicUrl}${SCREENS.blogPost(post.id)}`, lastmod: post.date })),
    ];
    const body = urls
      .map(
        ({ loc, lastmod }) =>
          `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
      )
      .join('\n');
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
  });

  app.get('/rss.xml', CRAWLER_FILE, async (_request, reply) => {
    const posts = await blog.posts();
    reply.type('application/rss+xml; charset=utf-8').header('cache-control', 'public, max-age=300');
    return rss(posts, publicUrl);
  });
};

/** RSS 2.0 of the posts, newest first: title, link, guid, date and summary (the body stays on the site). */
function rss(posts: readonly BlogPost[], publicUrl: string): string {
  const blogUrl = `${publicUrl}${SCREENS.blog}`;
  const date = (day: string) => new Date(`${day}T00:00:00Z`).toUTCString();
  const items = posts.map((post) => {
    const link = `${publicUrl}${SCREENS.blogPost(post.id)}`;
    const image = post.image
      ? `\n      <enclosure url="${escapeXml(absoluteUrl(publicUrl, post.image.url))}" length="0" type="${imageType(post.image.url)}" />`
      : '';
    return [
      '    <item>',
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${date(post.date)}</pubDate>`,
      `      <description>${escapeXml(post.summary)}</description>${image}`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(`${PRODUCT_NAME} Blog`)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(PUBLIC_PAGES.blog.description)}</description>`,
    '    <language>en-us</language>',
    `    <atom:link href="${escapeXml(`${publicUrl}/rss.xml`)}" rel="self" type="application/rss+xml" />`,
    ...(posts[0] ? [`    <lastBuildDate>${date(posts[0].date)}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

function imageType(url: string): string {
  const ext = /\.([a-z]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  if (ext === 'svg') return 'image/svg+xml';
  if (ext === 'png') return 'image/png';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'gif') return 'image/gif';
  return 'image/jpeg';
}
