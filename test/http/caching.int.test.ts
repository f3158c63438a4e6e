import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';

// What a shared cache or the browser's back/forward cache may keep: nothing a session or CSRF token
// produced. And the SPA's entry answers HEAD as it answers GET (uptime checks, link previews).
describe.each(DIALECTS)('caching and HEAD on %s', (dialect) => {
  let webRoot: string;
  const INDEX = '<!doctype html><title>Inbox Genie</title><div id="root"></div>';

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'ig-web-'));
    await writeFile(path.join(webRoot, 'index.html'), INDEX);
    await writeFile(path.join(webRoot, 'app.js'), 'console.log(1)');
  });
  afterAll(async () => {
    await rm(webRoot, { recursive: true, force: true });
  });
  // Created after the web folder above, closed before it is removed.
  const t = withTestApp(dialect, undefined, (config) => ({ config: { ...config, webRoot } }));

  async function signedIn(): Promise<Client> {
    const client = new Client(t.app);
    const res = await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return client;
  }

  it('marks every answer of a signed-in API call no-store', async () => {
    const client = await signedIn();
    for (const url of ['/get-settings', '/signin-status/', '/subscription-status/', '/get-email-accounts']) {
      const res = await client.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const put = await client.put('/update-settings', {
      alertManualUnsubscribe: false,
      alertAfterUnsubscribe: true,
    });
    expect(put.headers['cache-control']).toBe('no-store');
    const out = await client.post('/auth/logout');
    expect(out.headers['cache-control']).toBe('no-store');
  });

  it('marks the session and CSRF answers and the refusals no-store too', async () => {
    const client = new Client(t.app);
    for (const url of ['/csrf-token', '/signin-status/', '/get-settings']) {
      const res = await client.get(url);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const bad = await client.post('/auth/signin', { email: uniqueEmail(), password: 'wrong one' });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['cache-control']).toBe('no-store');
  });

  it('leaves the static files to their own caching', async () => {
    const res = await new Client(t.app).get('/app.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).not.toBe('no-store');
  });

  it('answers HEAD / like GET /, without a body', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/' });
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(get.statusCode).toBe(200);
    // index.html with the page's own head (spa.ts; the blog tests check the tags).
    expect(get.body).toContain('<title>Inbox Genie</title>');
    expect(get.body).toContain('<div id="root"></div>');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    for (const name of ['content-type', 'content-length', 'cache-control'] as const) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
    // A client-side route too.
    expect((await t.app.inject({ method: 'HEAD', url: '/genie/subscriptions' })).statusCode).toBe(200);
  });
});
