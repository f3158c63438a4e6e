import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogListResponseSchema, blogPostSchema } from '#contract/api.js';
import { PUBLIC_PAGES } from '#contract/pages.js';
import { withTestApp } from '#test/fixtures/app.js';
import { createTestApp } from '#test/helpers/app.js';

// The blog from the repository's markdown (a fixture folder here), and what the server answers for
// crawlers, feed readers and link previews: each page's head in the SPA's HTML, 404 for what does not
// exist, the sitemap, the RSS feed, robots.txt and the images' headers. SQLite only: no database involved.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/blog');
const PUBLIC_URL = 'https://genie.example';
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The build's description." />
    <title>Inbox Genie</title>
    <script type="module" src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const HOSTILE_TITLE = `Evil "><script>alert(1)</script> </script><!-- & 'co'`;

/** The content attribute of a <meta> with this name or property, unescaped. */
function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html);
  return m?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const jsonLdOf = (html: string) => /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1];

describe('the blog from markdown files', () => {
  let webRoot: string;
  let blogDir: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'ig-web-'));
    await writeFile(path.join(webRoot, 'index.html'), INDEX);
    // The two fixture posts, plus one whose title tries to break out of the HTML and the JSON-LD.
    blogDir = await mkdtemp(path.join(tmpdir(), 'ig-blog-'));
    await cp(FIXTURES, blogDir, { recursive: true });
    await writeFile(
      path.join(blogDir, 'hostile.md'),
      `---\ntitle: ${JSON.stringify(HOSTILE_TITLE)}\nsummary: "</script><img src=x onerror=alert(2)>"\ndate: 2024-06-01\n---\nbody\n`,
    );
    await writeFile(path.join(blogDir, 'README.md'), '# Notes for writers, not a post\n');
  });
  afterAll(async () => {
    await rm(webRoot, { recursive: true, force: true });
    await rm(blogDir, { recursive: true, force: true });
  });
  // Created once the folders above are written, closed before they are removed.
  const t = withTestApp(
    'sqlite',
    () => ({ BLOG_DIR: blogDir, PUBLIC_URL }),
    (config) => ({ config: { ...config, webRoot } }),
  );

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  describe('API', () => {
    it('lists every post newest first, without bodies, and no session is needed', async () => {
      const res = await get('/get-blog-posts');
      expect(res.statusCode).toBe(200);
      const body = blogListResponseSchema.parse(res.json());
      expect(body.total).toBe(3);
      expect(body.items.map((p) => p.id)).toEqual(['newer-post', 'first-steps', 'hostile']);
      expect(body.items[0]).toEqual({
        id: 'newer-post',
        title: 'A newer post & its image',
        summary: 'Newest first: this one leads the list.',
        date: '2025-03-02',
        // No imageAlt: the title is the alt text.
        image: { url: '/blog-images/newer.svg', alt: 'A newer post & its image' },
      });
      expect(body.items[1]?.image).toEqual({
        url: 'https://images.example.com/first-steps.png',
        alt: 'An inbox with three letters',
      });
      expect(res.json().items[0]).not.toHaveProperty('content');
    });

    it('answers one post with its markdown', async () => {
      const res = await get('/get-blog-post/first-steps');
      expect(res.statusCode).toBe(200);
      const post = blogPostSchema.parse(res.json());
      expect(post.content).toBe('# First steps\n\nAdd a mailbox, then keep or unsubscribe.\n');
      expect(post.date).toBe('2025-01-15');
    });

    it('answers 404 {message} for an unknown post and for an id no post can have', async () => {
      for (const url of [
        '/get-blog-post/nope',
        '/get-blog-post/a.b',
        '/get-blog-post/README',
        `/get-blog-post/${'x'.repeat(65)}`,
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        expect(res.json(), url).toEqual({
          message: url.endsWith('README') ? 'No such post.' : 'No such post.',
        });
      }
    });

    it('keeps unknown API paths and other methods a JSON 404', async () => {
      for (const [method, url] of [
        ['GET', '/get-nothing'],
        ['GET', '/auth/nope'],
        ['GET', '/blog-images/missing.svg'],
        ['GET', '/assets/missing-123.js'],
      ] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      }
    });
  });

  describe('HTML for crawlers', () => {
    it('describes the post: title, description, canonical, og, twitter and JSON-LD', async () => {
      const res = await get('/blogDetails/newer-post');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const html = res.body;
      expect(titleOf(html)).toBe('A newer post &amp; its image — Inbox Genie');
      // The build's own title and description are replaced, not repeated.
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).not.toContain("The build's description.");
      expect(meta(html, 'description')).toBe('Newest first: this one leads the list.');
      expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/blogDetails/newer-post" />`);
      expect(meta(html, 'og:title')).toBe('A newer post & its image');
      expect(meta(html, 'og:description')).toBe('Newest first: this one leads the list.');
      expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/blogDetails/newer-post`);
      expect(meta(html, 'og:type')).toBe('article');
      expect(meta(html, 'og:image')).toBe(`${PUBLIC_URL}/blog-images/newer.svg`);
      expect(meta(html, 'twitter:card')).toBe('summary_large_image');
      expect(meta(html, 'twitter:title')).toBe('A newer post & its image');
      expect(meta(html, 'twitter:description')).toBe('Newest first: this one leads the list.');
      expect(meta(html, 'twitter:image')).toBe(`${PUBLIC_URL}/blog-images/newer.svg`);
      expect(JSON.parse(jsonLdOf(html)!)).toEqual({
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: 'A newer post & its image',
        description: 'Newest first: this one leads the list.',
        datePublished: '2025-03-02',
        image: `${PUBLIC_URL}/blog-images/newer.svg`,
        url: `${PUBLIC_URL}/blogDetails/newer-post`,
        mainEntityOfPage: `${PUBLIC_URL}/blogDetails/newer-post`,
        publisher: { '@type': 'Organization', name: 'Inbox Genie' },
      });
      // The app is still there.
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
      // The JSON-LD is data: the app's CSP (script-src 'self') is unchanged and does not need to allow it.
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    });

    it('escapes a hostile title and summary everywhere', async () => {
      const res = await get('/blogDetails/hostile');
      expect(res.statusCode).toBe(200);
      const html = res.body;
      // One <script> of our own (the JSON-LD) and the app's; nothing the title wrote.
      expect(html.match(/<script/g)).toHaveLength(2);
      expect(html.match(/<\/script>/g)).toHaveLength(2);
      expect(html).not.toContain('<img');
      expect(html).not.toContain('"><script>');
      expect(titleOf(html)).toBe(
        'Evil &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;/script&gt;&lt;!-- &amp; &#39;co&#39; — Inbox Genie',
      );
      expect(meta(html, 'og:title')).toBe(HOSTILE_TITLE);
      expect(meta(html, 'description')).toBe('</script><img src=x onerror=alert(2)>');
      const jsonLd = jsonLdOf(html)!;
      expect(jsonLd).not.toMatch(/[<>]/);
      expect(jsonLd).toContain('\\u003c/script\\u003e');
      expect(JSON.parse(jsonLd).headline).toBe(HOSTILE_TITLE);
    });

    it('answers an unknown post 404 with the app and a not-found title', async () => {
      for (const url of ['/blogDetails/no-such-post', '/blogDetails/bad%20id']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(titleOf(res.body), url).toBe('Page Not Found — Inbox Genie');
        expect(meta(res.body, 'robots'), url).toBe('noindex');
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).not.toContain('rel="canonical"');
      }
    });

    it('answers any unknown path 404 with the app', async () => {
      for (const url of ['/nope', '/pricing/extra', '/blogs', '/signin/nope/deeper', '/blogDetails']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(titleOf(res.body), url).toBe('Page Not Found — Inbox Genie');
      }
      const head = await t.app.inject({ method: 'HEAD', url: '/nope' });
      expect(head.statusCode).toBe(404);
      expect(head.body).toBe('');
    });

    it('answers every known screen 200 with its own title and description', async () => {
      for (const page of Object.values(PUBLIC_PAGES)) {
        const res = await get(`${page.path}?utm_source=test`);
        expect(res.statusCode, page.path).toBe(200);
        expect(res.headers['cache-control'], page.path).toBe('no-cache');
        expect(titleOf(res.body), page.path).toBe(page.title ? `${page.title} — Inbox Genie` : 'Inbox Genie');
        expect(meta(res.body, 'description'), page.path).toBe(page.description);
        expect(res.body, page.path).toContain(`<link rel="canonical" href="${PUBLIC_URL}${page.path}" />`);
      }
      // As the web's router matches them: any case, a trailing slash.
      expect((await get('/Pricing/')).statusCode).toBe(200);
      // Signed-in screens: 200, their title, not indexed.
      for (const [url, title] of [
        ['/genie', null],
        ['/genie/subscriptions', 'Subscriptions'],
        ['/genie/newsletters', 'Subscriptions'],
        ['/genie/settings', 'Settings'],
        ['/genie/billing?checkout=success', 'Billing'],
        ['/genie/accounts', 'Email Accounts'],
      ] as const) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(titleOf(res.body), url).toBe(title ? `${title} — Inbox Genie` : 'Inbox Genie');
        expect(meta(res.body, 'robots'), url).toBe('noindex');
      }
    });

    it('describes /blog with the newest post as its sharing image', async () => {
      const res = await get('/blog');
      expect(res.statusCode).toBe(200);
      expect(titleOf(res.body)).toBe('Blog — Inbox Genie');
      expect(meta(res.body, 'og:url')).toBe(`${PUBLIC_URL}/blog`);
      expect(meta(res.body, 'og:type')).toBe('website');
      expect(meta(res.body, 'og:image')).toBe(`${PUBLIC_URL}/blog-images/newer.svg`);
      expect(meta(res.body, 'twitter:card')).toBe('summary_large_image');
    });

    it('revalidates with an ETag', async () => {
      const first = await get('/blog');
      const again = await t.app.inject({
        url: '/blog',
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });
  });

  describe('files for crawlers and feed readers', () => {
    it('lists the public pages and every post in the sitemap', async () => {
      const res = await get('/sitemap.xml');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      const body = res.body;
      expect(body).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
      );
      for (const url of ['/', '/pricing', '/howitworks', '/about', '/privacy', '/terms']) {
        expect(body).toContain(`<url><loc>${PUBLIC_URL}${url}</loc></url>`);
      }
      expect(body).toContain(`<url><loc>${PUBLIC_URL}/blog</loc><lastmod>2025-03-02</lastmod></url>`);
      expect(body).toContain(
        `<url><loc>${PUBLIC_URL}/blogDetails/first-steps</loc><lastmod>2025-01-15</lastmod></url>`,
      );
      expect(body).toContain(`<loc>${PUBLIC_URL}/blogDetails/hostile</loc>`);
      expect(body).not.toContain(`${PUBLIC_URL}/genie`);
      expect(body).not.toContain('/signin');
    });

    it('serves the posts as RSS 2.0, escaped', async () => {
      const res = await get('/rss.xml');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/rss\+xml/);
      const body = res.body;
      expect(body).toContain('<rss version="2.0"');
      expect(body).toContain(`<link>${PUBLIC_URL}/blog</link>`);
      const items = body.split('<item>').slice(1);
      expect(items).toHaveLength(3);
      expect(items[0]).toContain('<title>A newer post &amp; its image</title>');
      expect(items[0]).toContain(`<link>${PUBLIC_URL}/blogDetails/newer-post</link>`);
      expect(items[0]).toContain(`<guid isPermaLink="true">${PUBLIC_URL}/blogDetails/newer-post</guid>`);
      expect(items[0]).toContain('<pubDate>Sun, 02 Mar 2025 00:00:00 GMT</pubDate>');
      expect(items[0]).toContain(
        `<enclosure url="${PUBLIC_URL}/blog-images/newer.svg" length="0" type="image/svg+xml" />`,
      );
      expect(items[2]).toContain(
        '<title>Evil &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;/script&gt;&lt;!-- &amp; &apos;co&apos;</title>',
      );
      expect(body).not.toContain('<script');
    });

    it('allows everything but the signed-in screens in robots.txt and names the sitemap', async () => {
      const res = await get('/robots.txt');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe(
        `User-agent: *\nAllow: /\nDisallow: /genie/\n\nSitemap: ${PUBLIC_URL}/sitemap.xml\n`,
      );
    });

    it('serves the images a day, nosniff, and an SVG that cannot run script', async () => {
      const svg = await get('/blog-images/newer.svg');
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(svg.headers['cache-control']).toBe('public, max-age=86400');
      expect(svg.headers['x-content-type-options']).toBe('nosniff');
      expect(svg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
      const png = await get('/blog-images/tiny.png');
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['x-content-type-options']).toBe('nosniff');
      expect(png.headers['cache-control']).toBe('public, max-age=86400');
      // Only images: other files of the folder, and paths out of it, are not served.
      for (const url of [
        '/blog-images/notes.txt',
        '/blog-images/../hostile.md',
        '/blog-images/%2e%2e/first-steps.md',
        '/blog-images/',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
      }
    });
  });
});

describe('the repository blog folder', () => {
  it('is read by default, and its posts pass (a bad post would stop the start)', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.app.inject({ url: '/get-blog-posts' });
      expect(res.statusCode).toBe(200);
      const { items } = blogListResponseSchema.parse(res.json());
      for (const post of items) {
        if (post.image?.url.startsWith('/blog-images/')) {
          const image = await t.app.inject({ url: post.image.url });
          expect(image.statusCode, post.image.url).toBe(200);
        }
      }
    } finally {
      await t.close();
    }
  });

  it('refuses to start on a post that does not pass, naming the file and the field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ig-blog-bad-'));
    try {
      await writeFile(
        path.join(dir, 'bad-date.md'),
        '---\ntitle: Hi\nsummary: There\ndate: 31/01/2025\n---\nbody\n',
      );
      await expect(createTestApp('sqlite', { BLOG_DIR: dir })).rejects.toThrow(
        'Blog post bad-date.md: date must be a date written YYYY-MM-DD',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
