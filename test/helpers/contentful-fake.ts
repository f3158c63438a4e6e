// A local Contentful Content Delivery API for tests: the three reads the blog makes, with Contentful's
// shapes. GET /spaces/{space}/environments/{env}/entries (skip, limit up to 1000, total, content_type,
// order by sys fields, include -> includes.Asset of the page's linked published assets),
// GET …/entries/{id} (the bare entry: no includes), GET …/assets/{id}. The token is a Bearer header (or
// access_token in the query, as Contentful also accepts); a wrong one is 401 AccessTokenInvalid, an
// unknown space, environment, entry or asset 404 NotFound, each as Contentful's error body
// ({sys: {type: 'Error', id}, message, requestId}).
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { freePort } from './net.js';

export interface FakeEntry {
  id: string;
  title?: string;
  summary?: string;
  /** createdDate: "2025-01-31" (or with a time, as a Date-and-time field answers). */
  date?: string;
  content?: string;
  /** Linked asset's id (it may not exist: an unpublished image). */
  imageAssetId?: string;
  contentType?: string;
  createdAt?: string;
}

export interface FakeAsset {
  id: string;
  title?: string;
  description?: string;
  /** Protocol-relative like Contentful's (//images.ctfassets.net/...); null: an asset without a file. */
  url?: string | null;
}

export interface ContentfulFakeOptions {
  spaceId?: string;
  accessToken?: string;
  environment?: string;
}

export async function startContentfulFake(options: ContentfulFakeOptions = {}) {
  const spaceId = options.spaceId ?? 'fakespace1';
  const accessToken = options.accessToken ?? 'cda-token-not-for-browsers';
  const environment = options.environment ?? 'master';
  const host = '127.0.0.1';
  const port = await freePort();
  const origin = `http://${host}:${port}`;
  const entries = new Map<string, FakeEntry>();
  const assets = new Map<string, FakeAsset>();
  const requests: { path: string; query: Record<string, string> }[] = [];
  const controls = { failWith: null as number | null };

  const link = (linkType: string, id: string) => ({ sys: { type: 'Link', linkType, id } });
  const baseSys = (type: string, id: string, createdAt: string) => ({
    space: link('Space', spaceId),
    id,
    type,
    createdAt,
    updatedAt: createdAt,
    environment: link('Environment', environment),
    revision: 1,
    locale: 'en-US',
  });

  function entryJson(entry: FakeEntry) {
    const fields: Record<string, unknown> = {};
    if (entry.title !== undefined) fields.blogTitle = entry.title;
    if (entry.summary !== undefined) fields.blogSummary = entry.summary;
    if (entry.date !== undefined) fields.createdDate = entry.date;
    if (entry.content !== undefined) fields.postContent = entry.content;
    if (entry.imageAssetId) fields.blogImage = link('Asset', entry.imageAssetId);
    return {
      metadata: { tags: [] },
      sys: {
        ...baseSys('Entry', entry.id, entry.createdAt ?? '2025-01-01T00:00:00.000Z'),
        contentType: link('ContentType', entry.contentType ?? 'blogPost'),
      },
      fields,
    };
  }

  function assetJson(asset: FakeAsset) {
    const fields: Record<string, unknown> = {};
    if (asset.title !== undefined) fields.title = asset.title;
    if (asset.description !== undefined) fields.description = asset.description;
    if (asset.url) {
      fields.file = {
        url: asset.url,
        details: { size: 1234, image: { width: 1200, height: 630 } },
        fileName: asset.url.split('/').pop(),
        contentType: 'image/png',
      };
    }
    return { metadata: { tags: [] }, sys: baseSys('Asset', asset.id, '2025-01-01T00:00:00.000Z'), fields };
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/vnd.contentful.delivery.v1+json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }
  const error = (res: ServerResponse, status: number, id: string, message: string, details?: object) =>
    send(res, status, {
      sys: { type: 'Error', id },
      message,
      ...(details && { details }),
      requestId: randomUUID(),
    });
  const notFound = (res: ServerResponse, type: string, id: string) =>
    error(res, 404, 'NotFound', 'The resource could not be found.', {
      type,
      id,
      environment,
      space: spaceId,
    });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const query = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, query });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? query.access_token;
    if (req.method !== 'GET') return error(res, 405, 'MethodNotAllowed', 'Method not allowed.');
    if (controls.failWith) return error(res, controls.failWith, 'ServerError', 'Internal server error.');
    if (token !== accessToken) {
      return error(
        res,
        401,
        'AccessTokenInvalid',
        'The access token you sent could not be found or is invalid.',
      );
    }
    const match = /^\/spaces\/([^/]+)\/environments\/([^/]+)\/(entries|assets)(?:\/([^/]+))?$/.exec(
      url.pathname,
    );
    if (!match) return notFound(res, 'Route', url.pathname);
    const [, space, env, kind, id] = match;
    if (space !== spaceId) return notFound(res, 'Space', space!);
    if (env !== environment) return notFound(res, 'Environment', env!);
    if (kind === 'assets') {
      const asset = id ? assets.get(decodeURIComponent(id)) : undefined;
      return asset ? send(res, 200, assetJson(asset)) : notFound(res, 'Asset', id ?? '');
    }
    if (id) {
      const entry = entries.get(decodeURIComponent(id));
      return entry ? send(res, 200, entryJson(entry)) : notFound(res, 'Entry', id);
    }
    const skip = Number(query.skip ?? '0');
    const limit = Number(query.limit ?? '100');
    if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(limit) || limit < 0) {
      return error(res, 400, 'InvalidQuery', 'The query you sent was invalid.');
    }
    if (limit > 1000) return error(res, 400, 'BadRequest', 'The limit parameter cannot exceed 1000.');
    let all = [...entries.values()];
    if (query.content_type) all = all.filter((e) => (e.contentType ?? 'blogPost') === query.content_type);
    all.sort((a, b) => {
      const byCreated = (a.createdAt ?? '').localeCompare(b.createdAt ?? '');
      return byCreated !== 0 ? byCreated : a.id.localeCompare(b.id);
    });
    const page = all.slice(skip, skip + limit);
    const include = query.include === undefined ? 1 : Number(query.include);
    const linked =
      include > 0 ? page.map((e) => e.imageAssetId && assets.get(e.imageAssetId)).filter(Boolean) : [];
    const body: Record<string, unknown> = {
      sys: { type: 'Array' },
      total: all.length,
      skip,
      limit,
      items: page.map(entryJson),
    };
    if (linked.length > 0) {
      body.includes = { Asset: [...new Set(linked as FakeAsset[])].map(assetJson) };
    }
    return send(res, 200, body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });

  return {
    origin,
    spaceId,
    accessToken,
    entries,
    assets,
    /** Every request received (path and query), oldest first. */
    requests,
    /** Answer every request with this status (a Contentful outage); null: answer normally. */
    controls,
    add(...items: FakeEntry[]) {
      for (const item of items) entries.set(item.id, item);
    },
    addAsset(...items: FakeAsset[]) {
      for (const item of items) assets.set(item.id, item);
    },
    /** The product's variables for reading this fake (.env.example). */
    env: (overrides: Record<string, string> = {}): Record<string, string> => ({
      CONTENTFUL_SPACE_ID: spaceId,
      CONTENTFUL_ACCESS_TOKEN: accessToken,
      CONTENTFUL_BASE_URL: origin,
      ...overrides,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ContentfulFake = Awaited<ReturnType<typeof startContentfulFake>>;
