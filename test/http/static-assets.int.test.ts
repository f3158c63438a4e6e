import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE } from '#server/http/static-assets.js';
import { withTestApp } from '#test/fixtures/app.js';
import { precompressDir } from '../../scripts/vite-precompress.js';

// The built web app as browsers get it: a file named by its hash is cached for a year and sent in the
// encoding the request accepts (the copy the build wrote, scripts/vite-precompress.ts); index.html and
// unhashed files are asked again; source maps stay on the server.
describe('serving the built web app', () => {
  let webRoot: string;
  const SCRIPT = `export const screens = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `screen ${i}`))};\n`;
  const CHUNK = '/assets/Landing-AbC_d123.js';

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'ig-web-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(
      path.join(webRoot, 'index.html'),
      `<!doctype html><title>Inbox Genie</title><div id="root"></div><script type="module" src="${CHUNK}"></script>`,
    );
    await writeFile(path.join(webRoot, CHUNK), SCRIPT);
    await writeFile(
      path.join(webRoot, `${CHUNK}.map`),
      '{"version":3,"sources":["Landing.tsx"],"mappings":""}',
    );
    await writeFile(path.join(webRoot, 'assets/index-Xy9_zW8v.css'), `${'.site{color:#123}\n'.repeat(100)}`);
    await writeFile(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await precompressDir(webRoot);
  });
  afterAll(async () => {
    await rm(webRoot, { recursive: true, force: true });
  });
  // Created after the web folder above, closed before it is removed.
  const t = withTestApp('sqlite', undefined, (config) => ({ config: { ...config, webRoot } }));

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('writes a brotli and a gzip copy next to each compressible file at build time', async () => {
    const assets = await readdir(path.join(webRoot, 'assets'));
    expect(assets).toContain('Landing-AbC_d123.js.br');
    expect(assets).toContain('Landing-AbC_d123.js.gz');
    expect(assets).toContain('index-Xy9_zW8v.css.br');
    // Maps are not served, so not compressed; nor is a file too small to gain anything.
    expect(assets).not.toContain('Landing-AbC_d123.js.map.br');
    expect(await readdir(webRoot)).not.toContain('favicon.svg.br');
  });

  it('sends a hashed asset in brotli when the request accepts it, cached for a year', async () => {
    const res = await get(CHUNK, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = brotliDecompressSync(res.rawPayload).toString();
    expect(body).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 2);
  });

  it('sends gzip when only gzip is accepted, and the plain file when nothing is', async () => {
    const gz = await get(CHUNK, 'gzip');
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get(CHUNK, 'identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);

    const css = await get('/assets/index-Xy9_zW8v.css', 'br');
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answers HEAD of an asset with the headers of GET', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: CHUNK, headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('asks browsers to revalidate index.html and files not named by their content', async () => {
    for (const url of ['/', '/genie/subscriptions', '/favicon.svg']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('does not serve source maps, the compressed copies by name, or chunks that do not exist', async () => {
    for (const url of [`${CHUNK}.map`, `${CHUNK}.br`, `${CHUNK}.gz`, '/assets/Landing-0ld_b11d.js']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], url).not.toBe(IMMUTABLE);
    }
  });
});
