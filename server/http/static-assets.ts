import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where Vite puts what it builds, each file named by its content: `assets/<name>-<hash>.<ext>`. */
const ASSETS_PREFIX = '/assets/';
const HASHED = /^assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files whose name stays the same across builds (index.html, favicon.svg): asked again each time (ETag). */
export const REVALIDATE = 'no-cache';

/** `file` relative to the root, without the `.br`/`.gz` of the variant actually sent. */
function logicalPath(root: string, file: string): string {
  return path
    .relative(root, file)
    .split(path.sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
}

/**
 * The built web app's files (dist/web). `index.html` itself is served by the SPA fallback (spa.ts), for
 * every screen's path; this serves what it links to.
 *
 * The build writes a brotli and a gzip copy next to each text file (scripts/vite-precompress.ts): the one
 * the request accepts is sent, with `Vary: Accept-Encoding`, nothing is compressed per request. A file
 * named by its hash never changes, so browsers and caches keep it a year without asking again; a new build
 * links new names. The source maps stay on disk for debugging and are not served.
 */
export async function registerStaticAssets(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // No routes for the maps nor for the compressed copies themselves (they are picked by Accept-Encoding).
    globIgnore: ['**/*.map', '**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders(reply, file) {
      reply.header('cache-control', HASHED.test(logicalPath(root, file)) ? IMMUTABLE : REVALIDATE);
    },
  });
  // Anything else under /assets/ is not a page: a chunk of an older build or a source map answers 404,
  // not the SPA's index.html (a script loaded as HTML fails with a confusing type error).
  app.route({
    method: ['GET', 'HEAD'],
    url: `${ASSETS_PREFIX}*`,
    handler: (request, reply) =>
      reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` }),
  });
}
