import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blogListResponseSchema, blogPostSchema } from '#contract/api.js';
import { withTestApp } from '#test/fixtures/app.js';
import { type ContentfulFake, startContentfulFake } from '#test/helpers/contentful-fake.js';

// The blog read from Contentful's Content Delivery API, here the local fake with Contentful's shapes:
// paging past 100 entries, images from includes.Asset in the list and from /assets/{id} for one post, a
// missing post, an image without a file, and a bad token (502 with the user's message; the token never
// leaves the server). SQLite only: no database involved.

const PUBLIC_URL = 'https://genie.example';
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);

describe('the blog from Contentful', () => {
  let fake: ContentfulFake;
  let webRoot: string;

  beforeAll(async () => {
    fake = await startContentfulFake();
    fake.addAsset(
      {
        id: 'img-hero',
        title: 'Hero',
        description: 'A genie over an inbox',
        url: '//images.ctfassets.net/space/img-hero/abc/hero.png',
      },
      {
        id: 'img-title-only',
        title: 'Only a title',
        url: '//images.ctfassets.net/space/img-title-only/def/t.png',
      },
      { id: 'img-no-file', title: 'Still processing', url: null },
    );
    // 150 posts: more than one page of 100.
    for (let i = 0; i < 150; i++) {
      fake.add({
        id: `post-${String(i).padStart(3, '0')}`,
        title: `Post ${i}`,
        summary: `Summary ${i}`,
        date: day(i),
        content: `# Post ${i}\n\nBody.`,
        createdAt: new Date(Date.UTC(2024, 5, 1, 0, i)).toISOString(),
      });
    }
    fake.add(
      {
        id: 'with-image',
        title: 'With an image',
        summary: 'Its image comes from includes.Asset',
        date: '2025-06-01T10:00+02:00',
        content: 'Hello **world**',
        imageAssetId: 'img-hero',
      },
      {
        id: 'title-alt',
        title: 'Alt from the title',
        summary: 's',
        date: '2025-05-01',
        imageAssetId: 'img-title-only',
      },
      {
        id: 'no-file',
        title: 'Image without a file',
        summary: 's',
        date: '2025-04-01',
        imageAssetId: 'img-no-file',
      },
      {
        id: 'unpublished-image',
        title: 'Image not published',
        summary: 's',
        date: '2025-03-01',
        imageAssetId: 'gone',
      },
      // Not a post: another content type's entry without the blog's fields.
      { id: 'author-1', contentType: 'author', createdAt: '2024-06-02T00:00:00.000Z' },
    );
    webRoot = await mkdtemp(path.join(tmpdir(), 'ig-web-'));
    await writeFile(
      path.join(webRoot, 'index.html'),
      '<!doctype html><html><head><title>Inbox Genie</title></head><body><div id="root"></div></body></html>',
    );
  });
  afterAll(async () => {
    await fake?.close();
    await rm(webRoot, { recursive: true, force: true });
  });
  // Created once the fake and the web folder above are ready, closed before they go.
  const t = withTestApp(
    'sqlite',
    () => ({ ...fake.env(), PUBLIC_URL }),
    (config) => ({ config: { ...config, webRoot } }),
  );
  afterEach(() => {
    fake.controls.failWith = null;
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('pages through every entry (100 at a time, up to total) and lists the posts newest first', async () => {
    const before = fake.requests.length;
    const res = await get('/get-blog-posts');
    expect(res.statusCode).toBe(200);
    const body = blogListResponseSchema.parse(res.json());
    expect(body.total).toBe(154);
    expect(body.items).toHaveLength(154);
    expect(body.items.slice(0, 4).map((p) => p.id)).toEqual([
      'with-image',
      'title-alt',
      'no-file',
      'unpublished-image',
    ]);
    expect(body.items.at(-1)?.id).toBe('post-000');
    expect(body.items[0]).toEqual({
      id: 'with-image',
      title: 'With an image',
      summary: 'Its image comes from includes.Asset',
      date: '2025-06-01',
      image: {
        url: 'https://images.ctfassets.net/space/img-hero/abc/hero.png',
        alt: 'A genie over an inbox',
      },
    });
    expect(body.items[1]?.image).toEqual({
      url: 'https://images.ctfassets.net/space/img-title-only/def/t.png',
      alt: 'Only a title',
    });
    expect(body.items[2]?.image).toBeNull();
    expect(body.items[3]?.image).toBeNull();
    const pages = fake.requests.slice(before).filter((r) => r.path.endsWith('/entries'));
    expect(pages.map((r) => [r.query.skip, r.query.limit])).toEqual([
      ['0', '100'],
      ['100', '100'],
    ]);
    expect(pages[0]?.path).toBe(`/spaces/${fake.spaceId}/environments/master/entries`);

    // Asked again within the minute: the cached list, no call.
    const count = fake.requests.length;
    expect((await get('/get-blog-posts')).statusCode).toBe(200);
    expect(fake.requests.length).toBe(count);
  });

  it('reads one post by id, its image from /assets/{id} (the single entry has no includes)', async () => {
    const res = await get('/get-blog-post/with-image');
    expect(res.statusCode).toBe(200);
    expect(blogPostSchema.parse(res.json())).toEqual({
      id: 'with-image',
      title: 'With an image',
      summary: 'Its image comes from includes.Asset',
      date: '2025-06-01',
      image: {
        url: 'https://images.ctfassets.net/space/img-hero/abc/hero.png',
        alt: 'A genie over an inbox',
      },
      content: 'Hello **world**',
    });
    const paths = fake.requests.map((r) => r.path);
    expect(paths).toContain(`/spaces/${fake.spaceId}/environments/master/entries/with-image`);
    expect(paths).toContain(`/spaces/${fake.spaceId}/environments/master/assets/img-hero`);
  });

  it('answers a post whose asset has no file (or is not published) without an image', async () => {
    for (const id of ['no-file', 'unpublished-image']) {
      const res = await get(`/get-blog-post/${id}`);
      expect(res.statusCode, id).toBe(200);
      expect(res.json().image, id).toBeNull();
    }
  });

  it('answers 404 for an entry Contentful does not have, and for one that is not a post', async () => {
    for (const id of ['missing-entry', 'author-1']) {
      const res = await get(`/get-blog-post/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json(), id).toEqual({ message: 'No such post.' });
      const html = await get(`/blogDetails/${id}`);
      expect(html.statusCode, id).toBe(404);
      expect(html.body, id).toContain('<title>Page Not Found — Inbox Genie</title>');
    }
  });

  it('answers 404 for an id not in the cached listing without a call to Contentful', async () => {
    expect((await get('/get-blog-posts')).statusCode).toBe(200);
    const count = fake.requests.length;
    for (let i = 0; i < 20; i++) {
      const res = await get(`/get-blog-post/random-${i}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No such post.' });
    }
    expect((await get('/blogDetails/random-page')).statusCode).toBe(404);
    expect(fake.requests.length).toBe(count);
  });

  it('writes the post page head from Contentful', async () => {
    const res = await get('/blogDetails/with-image');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>With an image — Inbox Genie</title>');
    expect(res.body).toContain(
      '<meta property="og:image" content="https://images.ctfassets.net/space/img-hero/abc/hero.png" />',
    );
    expect(res.body).toContain('"@type":"BlogPosting"');
  });

  it('serves the last good answer while Contentful fails', async () => {
    fake.controls.failWith = 500;
    // Cached within the minute either way; the point is that a failure does not empty the blog.
    expect((await get('/get-blog-posts')).statusCode).toBe(200);
    expect((await get('/get-blog-post/with-image')).statusCode).toBe(200);
    // A post never read before has no last answer: the reader is told, crawlers get 503.
    const res = await get('/get-blog-post/post-007');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'The blog cannot be loaded right now.' });
    expect((await get('/blogDetails/post-007')).statusCode).toBe(503);
  });
});

describe('Contentful with a bad token', () => {
  let fake: ContentfulFake;
  beforeAll(async () => {
    fake = await startContentfulFake();
    fake.add({ id: 'a-post', title: 'A post', summary: 's', date: '2025-01-01' });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const t = withTestApp('sqlite', () => fake.env({ CONTENTFUL_ACCESS_TOKEN: 'wrong-secret-token' }));

  it('answers 502 with the user message, and the token is in no answer', async () => {
    for (const url of ['/get-blog-posts', '/get-blog-post/a-post', '/sitemap.xml', '/rss.xml']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(502);
      expect(res.json(), url).toEqual({ message: 'The blog cannot be loaded right now.' });
      expect(res.body, url).not.toContain('wrong-secret-token');
      expect(JSON.stringify(res.headers), url).not.toContain('wrong-secret-token');
    }
    // It was sent, as a Bearer header (the fake answered AccessTokenInvalid), never in the URL.
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const r of fake.requests) expect(JSON.stringify(r)).not.toContain('wrong-secret-token');
    // The public config says nothing about Contentful.
    expect((await t.app.inject({ url: '/get-public-config' })).body).not.toContain('wrong-secret-token');
  });
});
