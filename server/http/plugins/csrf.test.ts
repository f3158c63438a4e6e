import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerCsrf } from './csrf.js';

describe('registerCsrf', () => {
  it('refuses a state-changing call without the token, unless its route sets config.csrf to false', async () => {
    const app = Fastify();
    await app.register(fastifyCookie, { secret: 'x'.repeat(32) });
    await registerCsrf(app, false);
    app.post('/form', async () => ({ ok: true }));
    app.post('/webhook', { config: { csrf: false } }, async () => ({ ok: true }));
    app.get('/page', async () => ({ ok: true }));

    expect((await app.inject({ method: 'POST', url: '/form' })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/webhook' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/page' })).statusCode).toBe(200);
    // A call to no route is checked too.
    expect((await app.inject({ method: 'POST', url: '/nowhere' })).statusCode).toBe(403);
    await app.close();
  });
});
